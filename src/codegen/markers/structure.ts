/**
 * Markers that change a node's structure rather than bound its value: pruning
 * (`PreserveUnknownFields`), the `X…` extensions, `Schemaless`, and the server-side-apply topology
 * markers (`listType`, `listMapKey`, `mapType`, `structType`).
 */
import type { JSONSchemaProps } from '../jsonschema.js';
import { choice, none, variadic } from './args.js';
import { schemaMarker, type MarkerDef } from './define.js';
import { itemsTwin, need } from './validation.js';

/** Empties a node but keeps its description. */
function clear(s: JSONSchemaProps): void {
  for (const k of Object.keys(s) as Array<keyof JSONSchemaProps>) if (k !== 'description') delete s[k];
}

export const STRUCTURE_MARKERS: MarkerDef[] = [
  schemaMarker<true>({
    name: 'PreserveUnknownFields',
    controllerGen: '+kubebuilder:pruning:PreserveUnknownFields',
    args: none,
    doc: 'Keeps fields the schema does not name instead of pruning them.',
    example: '@PreserveUnknownFields()',
    apply: (s) => void (s['x-kubernetes-preserve-unknown-fields'] = true),
  }),
  schemaMarker<true>({
    name: 'XEmbeddedResource',
    controllerGen: '+kubebuilder:validation:EmbeddedResource',
    args: none,
    doc: 'The object is a whole Kubernetes object: apiVersion, kind and metadata are validated.',
    example: '@XEmbeddedResource() @PreserveUnknownFields() template?: RawExtension',
    apply: (s) => need(s, 'object', 'XEmbeddedResource') ?? void (s['x-kubernetes-embedded-resource'] = true),
  }),
  schemaMarker<true>({
    name: 'XIntOrString',
    controllerGen: '+kubebuilder:validation:XIntOrString',
    phase: 0,
    args: none,
    doc:
      'Accepts an integer or a string (the field type IntOrString does the same). On a field of ' +
      'another type, controller-gen keeps that type beside x-kubernetes-int-or-string (the API ' +
      'server then accepts both all the same, but the published schema names one type); tsop ' +
      "writes the integer-or-string pair, and controller-gen's form with --controller-gen-compat.",
    example: '@XIntOrString() maxUnavailable?: IntOrString',
    apply(s, _v, ctx) {
      if (ctx.controllerGenCompat) return void (s['x-kubernetes-int-or-string'] = true);
      clear(s);
      s.anyOf = [{ type: 'integer' }, { type: 'string' }];
      s['x-kubernetes-int-or-string'] = true;
      return undefined;
    },
  }),
  schemaMarker<true>({
    name: 'Schemaless',
    controllerGen: '+kubebuilder:validation:Schemaless',
    phase: 0,
    on: 'field',
    args: none,
    doc: 'Emits no schema for the field; combine with @PreserveUnknownFields() (or @Type) so the node stays structural.',
    example: "@Schemaless() @PreserveUnknownFields() @Type('object') extra?: RawExtension",
    apply: (s) => void clear(s),
  }),
  schemaMarker<'atomic' | 'set' | 'map'>({
    name: 'ListType',
    controllerGen: '+listType',
    args: choice('atomic', 'set', 'map'),
    doc: "How server-side apply merges the list: 'atomic' (replace whole), 'set' (scalar elements, unique), 'map' (objects keyed by @ListMapKey).",
    example: "@ListType('map') @ListMapKey('name')",
    apply(s, v) {
      const err = need(s, 'array', 'ListType');
      if (err) return err;
      if (v === 'map' && s.items?.type !== 'object')
        return "@ListType('map') needs object elements; use 'set' or 'atomic' for scalars";
      if (v === 'set' && (s.items?.type === 'object' || s.items?.type === 'array'))
        return "@ListType('set') needs scalar elements; use 'map' with @ListMapKey for objects";
      s['x-kubernetes-list-type'] = v;
      return undefined;
    },
  }),
  schemaMarker<string[]>({
    name: 'ListMapKey',
    controllerGen: '+listMapKey',
    phase: 2,
    on: 'field',
    args: variadic('string'),
    doc: "The key properties of a @ListType('map') list; each must be a scalar property of the elements that is required or has a default.",
    example: "@ListType('map') @ListMapKey('name', 'protocol')",
    apply(s, keys) {
      const err = need(s, 'array', 'ListMapKey');
      if (err) return err;
      const item = s.items;
      for (const key of keys) {
        const p = item?.properties?.[key];
        if (!p)
          return `@ListMapKey('${key}'): the elements have no property '${key}'; name one of ${Object.keys(item?.properties ?? {}).join(', ') || 'their properties'}`;
        if (p.type === 'object' || p.type === 'array' || p.type === undefined)
          return `@ListMapKey('${key}'): the key must be a scalar (string, integer, number or boolean), not ${p.type ?? 'untyped'}`;
        if (!item?.required?.includes(key) && p.default === undefined)
          return `@ListMapKey('${key}'): the key must be required or have a @Default; remove '?' from '${key}' or give it a default`;
      }
      s['x-kubernetes-list-map-keys'] = [...(s['x-kubernetes-list-map-keys'] ?? []), ...keys];
      return undefined;
    },
  }),
  schemaMarker<'atomic' | 'granular'>({
    name: 'MapType',
    controllerGen: '+mapType',
    args: choice('atomic', 'granular'),
    doc: "How server-side apply merges a map: 'granular' (per key) or 'atomic' (replace whole).",
    example: "@MapType('atomic')",
    apply: (s, v) => need(s, 'object', 'MapType') ?? void (s['x-kubernetes-map-type'] = v),
  }),
  schemaMarker<'atomic' | 'granular'>({
    name: 'StructType',
    controllerGen: '+structType',
    args: choice('atomic', 'granular'),
    doc: "How server-side apply merges a struct: 'granular' (per field) or 'atomic' (replace whole).",
    example: "@StructType('atomic')",
    apply: (s, v) => need(s, 'object', 'StructType') ?? void (s['x-kubernetes-map-type'] = v),
  }),
];

/** controller-gen's `validation:items:X…` twins of the extension markers, for the elements of an array field. */
export const STRUCTURE_ITEMS_MARKERS: MarkerDef[] = [
  [
    'PreserveUnknownFields',
    '+kubebuilder:validation:items:XPreserveUnknownFields',
    "@ItemsPreserveUnknownFields() @ItemsType('object') extras?: RawExtension[]",
  ],
  [
    'XEmbeddedResource',
    '+kubebuilder:validation:items:XEmbeddedResource',
    '@ItemsXEmbeddedResource() @ItemsPreserveUnknownFields() objects?: RawExtension[]',
  ],
  ['XIntOrString', '+kubebuilder:validation:items:XIntOrString', '@ItemsXIntOrString() ports?: string[]'],
].map(([name, controllerGen, example]) =>
  itemsTwin(STRUCTURE_MARKERS.find((m) => m.name === name)!, controllerGen, example),
);
