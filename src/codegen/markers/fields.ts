/**
 * Markers about presence and values: `Required`/`Optional` (override `?`), `Default`, `Example`,
 * `Title`, `Immutable`, and the one-of family that becomes CEL rules over `has(self.x)`.
 */
import type { JSONSchemaProps } from '../jsonschema.js';
import { json, none, one, options, variadic } from './args.js';
import { schemaMarker, type MarkerDef } from './define.js';
import { oneOfPhrase, oneOfRule, type OneOf } from '../one-of.js';

function oneOf(name: OneOf, phase: 2 | 3 | 4): MarkerDef {
  return schemaMarker<string[]>({
    name,
    controllerGen: `+kubebuilder:validation:${name}`,
    phase,
    on: 'type',
    args: variadic('string'),
    doc: `A CEL rule on the class: ${oneOfPhrase(name)} of the listed fields; each must be optional.`,
    example: `@${name}('configMap', 'secret') class Source { configMap?: string; secret?: string }`,
    apply(s, fields) {
      for (const f of fields) {
        if (!s.properties?.[f]) return `@${name}: there is no field '${f}'; list fields of this class`;
        if (s.required?.includes(f))
          return `@${name}: field '${f}' is required, so the rule could never hold; declare it with '?'`;
      }
      (s['x-kubernetes-validations'] ??= []).push(oneOfRule(name, fields));
      return undefined;
    },
  });
}

export const FIELD_MARKERS: MarkerDef[] = [
  schemaMarker<true>({
    name: 'Required',
    controllerGen: '+required',
    on: 'field',
    args: none,
    doc: "The field is required even though it is declared with '?'.",
    example: '@Required() name?: string',
    apply(_s, _v, ctx) {
      if (!ctx.field) return '@Required stands on fields';
      ctx.field.required = true;
      return undefined;
    },
  }),
  schemaMarker<true>({
    name: 'Optional',
    controllerGen: '+optional',
    on: 'field',
    args: none,
    doc: "The field is optional even though it is declared without '?'.",
    example: "@Optional() name: string = ''",
    apply(_s, _v, ctx) {
      if (!ctx.field) return '@Optional stands on fields';
      ctx.field.required = false;
      return undefined;
    },
  }),
  schemaMarker({
    name: 'Default',
    controllerGen: '+kubebuilder:default',
    args: json,
    doc: 'The value the API server writes when the field is absent (the parent object must exist: give it a @Default({}) too).',
    example: "@Default('Allow') concurrencyPolicy?: 'Allow' | 'Forbid'",
    apply(s: JSONSchemaProps, v) {
      // controller-gen's rule: an empty object as the default of a list means an empty list.
      s.default =
        s.type === 'array' && typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0
          ? []
          : v;
      return undefined;
    },
  }),
  schemaMarker({
    name: 'KubernetesDefault',
    controllerGen: '+default',
    args: json,
    doc:
      'A default written the Kubernetes way, usually as the JSDoc tag `@default <value>` on the ' +
      "field (/** @default 'Allow' */); @Default on the same field wins over it, as " +
      '+kubebuilder:default wins over +default.',
    example: "@KubernetesDefault('Allow') concurrencyPolicy?: 'Allow' | 'Forbid'",
    apply(s: JSONSchemaProps, v) {
      s.default = v;
      return undefined;
    },
  }),
  schemaMarker({
    name: 'Example',
    controllerGen: '+kubebuilder:example',
    args: json,
    doc: 'An example value, shown by documentation tools.',
    example: "@Example('1h30m')",
    apply: (s: JSONSchemaProps, v) => void (s.example = v),
  }),
  schemaMarker<string>({
    name: 'Title',
    controllerGen: '+kubebuilder:title',
    args: one('string'),
    doc: 'A short title for the node.',
    example: "@Title('Schedule')",
    apply: (s, v) => void (s.title = v),
  }),
  schemaMarker<{ url: string; description?: string }>({
    name: 'ExternalDocs',
    controllerGen: '+kubebuilder:externalDocs',
    args: options({ url: { type: 'string', required: true }, description: { type: 'string' } }),
    doc: 'A link to documentation outside the CRD (externalDocs), on a field or a class; the url must be absolute (or an absolute path).',
    example: "@ExternalDocs({ url: 'https://example.com/docs/backup', description: 'Backup guide' })",
    apply(s, v) {
      // controller-gen accepts what Go's url.ParseRequestURI accepts: a scheme, or a path from the root.
      if (!/^([a-zA-Z][a-zA-Z0-9+.-]*:|\/)\S*$/.test(v.url))
        return `@ExternalDocs: url '${v.url}' is not an absolute URL; write it as 'https://…'`;
      s.externalDocs = v.description ? { url: v.url, description: v.description } : { url: v.url };
      return undefined;
    },
  }),
  schemaMarker<string>({
    name: 'Description',
    controllerGen: '(none: controller-gen reads the Go doc comment)',
    args: one('string'),
    doc: 'The description as given, over the doc comment: for text doc comments drop (as controller-gen does in Go: end spaces, blank-line runs, TODO lines).',
    example: "@Description('Retries before giving up.\\n\\n\\nTODO: per target.') retries?: int32",
    apply: (s, v) => void (s.description = v),
  }),
  schemaMarker<true>({
    name: 'DefaultsWhenPresent',
    controllerGen: '(none: a tsop check controller-gen does not make)',
    on: 'field',
    args: none,
    doc: "On an optional object whose fields have defaults: they apply only when it is present, as intended; 'tsop manifests' then does not warn of it.",
    example: '@DefaultsWhenPresent() retry?: { /** @default 3 */ limit?: int32 }',
    apply: (_s, _v, ctx) => (ctx.field ? undefined : '@DefaultsWhenPresent stands on fields'),
  }),
  schemaMarker<true>({
    name: 'Immutable',
    controllerGen: '+k8s:immutable',
    on: 'field',
    args: none,
    doc:
      "Once set, the value cannot change (a 'self == oldSelf' CEL rule with message 'field is " +
      "immutable'); on an optional field the parent also gets '!has(oldSelf.f) || has(self.f)', " +
      'so it cannot be removed once set.',
    example: '@Immutable() storageClass?: string',
    apply: (s) =>
      void (s['x-kubernetes-validations'] ??= []).push({ rule: 'self == oldSelf', message: 'field is immutable' }),
  }),
  // After every @XValidation, in controller-gen's order whatever the decorator order.
  oneOf('ExactlyOneOf', 3),
  oneOf('AtMostOneOf', 2),
  oneOf('AtLeastOneOf', 4),
];
