/**
 * Validation markers (`+kubebuilder:validation:*`, `+kubebuilder:default`, `+kubebuilder:example`,
 * `+kubebuilder:pruning:*`, `+nullable`, `+optional`, `+required`), each with the same type check
 * controller-gen applies, plus their `Items…` twins for array elements.
 */
import type { JSONSchemaProps, ValidationRule } from '../jsonschema.js';
import { typeMatches } from '../values.js';
import { choice, flag, none, one, options, variadic } from './args.js';
import { re2Problem } from '../re2.js';
import { schemaMarker, type MarkerDef, type SchemaMarker } from './define.js';

type Kind = 'number' | 'string' | 'array' | 'object';

const describe = (s: JSONSchemaProps): string =>
  s['x-kubernetes-int-or-string'] ? 'int-or-string' : (s.type ?? 'untyped');

/** Why the marker cannot stand here, or undefined when the node has the right type. */
export function need(s: JSONSchemaProps, kind: Kind, marker: string): string | undefined {
  const fits =
    kind === 'number'
      ? s.type === 'integer' || s.type === 'number'
      : kind === 'string'
        ? s.type === 'string' || s['x-kubernetes-int-or-string'] === true
        : s.type === kind;
  if (fits) return undefined;
  return `@${marker} applies to ${kind} fields, but this one is ${describe(s)}; remove the marker or change the field's type`;
}

function bound(name: string, key: 'minimum' | 'maximum', cg: string, doc: string): MarkerDef {
  return schemaMarker<number>({
    name,
    controllerGen: cg,
    args: one('number'),
    doc,
    example: `@${name}(${key === 'minimum' ? 1 : 10})`,
    apply(s, v) {
      const err = need(s, 'number', name);
      if (err) return err;
      if (s.type === 'integer' && !Number.isInteger(v))
        return `@${name}(${v}) on an integer field needs a whole number`;
      s[key] = v;
      return undefined;
    },
  });
}

function count(
  name: string,
  key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties',
  kind: Kind,
  cg: string,
  doc: string,
): MarkerDef {
  return schemaMarker<number>({
    name,
    controllerGen: cg,
    args: one('non-negative integer'),
    doc,
    example: `@${name}(${key.startsWith('min') ? 1 : 63})`,
    apply(s, v) {
      const err = need(s, kind, name);
      if (err) return err;
      s[key] = v;
      return undefined;
    },
  });
}

const REASONS = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'] as const;

const xValidation = (name: string): Omit<SchemaMarker<ValidationRule>, 'target' | 'phase' | 'on'> => ({
  name,
  controllerGen: '+kubebuilder:validation:XValidation',
  args: options<ValidationRule>({
    rule: { type: 'string', required: true },
    message: { type: 'string' },
    messageExpression: { type: 'string' },
    reason: { type: REASONS },
    fieldPath: { type: 'string' },
    optionalOldSelf: { type: 'boolean' },
  }),
  doc: 'A CEL rule the API server checks (x-kubernetes-validations); `self` is this node, `oldSelf` its previous value.',
  example: `@${name}({ rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' })`,
  apply(s, v) {
    if (v.message?.includes('\n')) return `@${name}: message must be one line`;
    const rule: ValidationRule = { rule: v.rule };
    for (const k of ['message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'] as const) {
      if (v[k] !== undefined) (rule as unknown as Record<string, unknown>)[k] = v[k];
    }
    (s['x-kubernetes-validations'] ??= []).push(rule);
    return undefined;
  },
});

/** The markers that have an `Items…` twin (controller-gen's `validation:items:*`). */
export const ITEM_MARKERS: MarkerDef[] = [
  bound(
    'Minimum',
    'minimum',
    '+kubebuilder:validation:Minimum',
    'Smallest allowed value (inclusive unless @ExclusiveMinimum).',
  ),
  bound(
    'Maximum',
    'maximum',
    '+kubebuilder:validation:Maximum',
    'Largest allowed value (inclusive unless @ExclusiveMaximum).',
  ),
  schemaMarker<boolean>({
    name: 'ExclusiveMinimum',
    controllerGen: '+kubebuilder:validation:ExclusiveMinimum',
    args: flag,
    doc: 'Makes @Minimum exclusive.',
    example: '@Minimum(0) @ExclusiveMinimum()',
    apply: (s, v) => need(s, 'number', 'ExclusiveMinimum') ?? void (s.exclusiveMinimum = v),
  }),
  schemaMarker<boolean>({
    name: 'ExclusiveMaximum',
    controllerGen: '+kubebuilder:validation:ExclusiveMaximum',
    args: flag,
    doc: 'Makes @Maximum exclusive.',
    example: '@Maximum(1) @ExclusiveMaximum()',
    apply: (s, v) => need(s, 'number', 'ExclusiveMaximum') ?? void (s.exclusiveMaximum = v),
  }),
  schemaMarker<number>({
    name: 'MultipleOf',
    controllerGen: '+kubebuilder:validation:MultipleOf',
    args: one('number'),
    doc: 'The value must be a multiple of this (positive) number.',
    example: '@MultipleOf(5)',
    apply(s, v) {
      if (!(v > 0)) return `@MultipleOf(${v}) needs a positive number`;
      if (s.type === 'integer' && !Number.isInteger(v))
        return `@MultipleOf(${v}) on an integer field needs a whole number`;
      return need(s, 'number', 'MultipleOf') ?? void (s.multipleOf = v);
    },
  }),
  count(
    'MinLength',
    'minLength',
    'string',
    '+kubebuilder:validation:MinLength',
    'Shortest allowed string, in characters.',
  ),
  count(
    'MaxLength',
    'maxLength',
    'string',
    '+kubebuilder:validation:MaxLength',
    'Longest allowed string, in characters (also bounds CEL cost).',
  ),
  schemaMarker<string>({
    name: 'Pattern',
    controllerGen: '+kubebuilder:validation:Pattern',
    args: one('string'),
    doc: 'A regular expression the string must match, in RE2 syntax (what the API server uses: no lookaround or back-references); anchor it with ^…$.',
    example: "@Pattern('^[a-z0-9-]+$')",
    apply(s, v) {
      const problem = re2Problem(v);
      if (problem !== undefined)
        return `@Pattern(${JSON.stringify(v)}): ${problem}; the API server matches patterns with RE2 (Go regexp), so rewrite it without that construct or check the value with @XValidation`;
      return need(s, 'string', 'Pattern') ?? void (s.pattern = v);
    },
  }),
  schemaMarker<Array<string | number | boolean>>({
    name: 'Enum',
    controllerGen: '+kubebuilder:validation:Enum',
    args: variadic('scalar'),
    doc: 'The allowed values. A string-literal union or a TS enum as the field type does the same.',
    example: "@Enum('Allow', 'Forbid', 'Replace')",
    apply(s, v) {
      const bad = v.find((x) => !fitsType(s, x));
      if (bad !== undefined)
        return `@Enum value ${JSON.stringify(bad)} is not a valid ${describe(s)}; make every value match the field's type`;
      s.enum = [...v];
      return undefined;
    },
  }),
  schemaMarker<string>({
    name: 'Format',
    controllerGen: '+kubebuilder:validation:Format',
    args: one('string'),
    doc: 'An OpenAPI format the API server checks (date-time, uri, hostname, ipv4, cidr, uuid, byte, int32, …).',
    example: "@Format('date-time')",
    apply: (s, v) => void (s.format = v),
  }),
  schemaMarker<JSONSchemaProps['type'] & string>({
    name: 'Type',
    controllerGen: '+kubebuilder:validation:Type',
    phase: 0,
    args: choice('object', 'array', 'string', 'integer', 'number', 'boolean'),
    doc: 'Overrides the schema type derived from the TypeScript type.',
    example: "@Type('string')",
    apply(s, v) {
      if (v !== s.type) {
        for (const k of Object.keys(s) as Array<keyof JSONSchemaProps>) if (k !== 'description') delete s[k];
      }
      s.type = v;
      return undefined;
    },
  }),
  count('MinItems', 'minItems', 'array', '+kubebuilder:validation:MinItems', 'Fewest allowed elements.'),
  count(
    'MaxItems',
    'maxItems',
    'array',
    '+kubebuilder:validation:MaxItems',
    'Most allowed elements (also bounds CEL cost).',
  ),
  schemaMarker<boolean>({
    name: 'UniqueItems',
    controllerGen: '+kubebuilder:validation:UniqueItems',
    args: flag,
    doc:
      'Elements must be distinct. The API server forbids uniqueItems, so tsop writes ' +
      'x-kubernetes-list-type: set (scalar elements only); with --controller-gen-compat, ' +
      'uniqueItems: true as controller-gen does.',
    example: '@UniqueItems()',
    apply(s, v, ctx) {
      const err = need(s, 'array', 'UniqueItems');
      if (err || !v) return err;
      if (ctx.controllerGenCompat) return void (s.uniqueItems = true);
      const t = s.items?.type;
      if (t === 'object' || t === 'array')
        return "@UniqueItems needs scalar elements (it becomes listType 'set'); for objects use @ListType('map') with @ListMapKey";
      s['x-kubernetes-list-type'] = 'set';
      return undefined;
    },
  }),
  count(
    'MinProperties',
    'minProperties',
    'object',
    '+kubebuilder:validation:MinProperties',
    'Fewest allowed properties.',
  ),
  count(
    'MaxProperties',
    'maxProperties',
    'object',
    '+kubebuilder:validation:MaxProperties',
    'Most allowed properties (also bounds CEL cost).',
  ),
  schemaMarker<true>({
    name: 'Nullable',
    controllerGen: '+nullable',
    args: none,
    doc: 'Accepts null as a value (kept instead of pruned).',
    example: '@Nullable()',
    apply: (s) => void (s.nullable = true),
  }),
  schemaMarker(xValidation('XValidation')),
];

function fitsType(s: JSONSchemaProps, v: string | number | boolean): boolean {
  if (s['x-kubernetes-int-or-string']) return typeof v === 'string' || Number.isInteger(v);
  // Scalar values are only checked against scalar types; objects and arrays accept any here.
  if (s.type === undefined || s.type === 'object' || s.type === 'array') return true;
  return typeMatches(v, s.type);
}

/** `ItemsX` for each X above: the same check and effect on the array's `items`. */
export const ITEMS_MARKERS: MarkerDef[] = ITEM_MARKERS.map((def) => itemsTwin(def));

/**
 * The `Items…` twin of a marker: the same check and effect on an array field's `items`, applied in
 * the same phase as the marker itself (so `@ItemsType` comes first whatever the decorator order).
 */
export function itemsTwin(def: MarkerDef, controllerGen?: string, example?: string): MarkerDef {
  const d = def as unknown as SchemaMarker<unknown>;
  const name = `Items${d.name}`;
  return schemaMarker<unknown>({
    name,
    controllerGen: controllerGen ?? d.controllerGen.replace('validation:', 'validation:items:'),
    args: d.args,
    on: 'field',
    phase: d.phase,
    doc: `${d.doc} Applies to each element of an array field.`,
    example: example ?? d.example.replace(/@(\w+)/g, '@Items$1'),
    apply(s, v, ctx) {
      if (s.type !== 'array' || !s.items)
        return `@${name} applies to array fields, but this one is ${describe(s)}; use @${d.name} instead`;
      const err = d.apply(s.items, v, ctx);
      return err?.replace(`@${d.name} `, `@${name} `);
    },
  });
}
