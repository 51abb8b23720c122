/**
 * The marker catalog: ONE list of every marker tsop understands. The schema builder, the CRD
 * settings, the RBAC collector and `tsop manifests --help` all read it; adding a marker means
 * adding its definition here (and its no-op decorator in runtime/markers).
 */
import type { MarkerDef } from './define.js';
import { FIELD_MARKERS } from './fields.js';
import { KIND_MARKERS } from './kind.js';
import { RBAC_MARKERS } from './rbac.js';
import { STRUCTURE_ITEMS_MARKERS, STRUCTURE_MARKERS } from './structure.js';
import { ITEMS_MARKERS, ITEM_MARKERS } from './validation.js';
import { WEBHOOK_MARKERS } from './webhook.js';
import { CSV_MARKERS } from './csv.js';

export type { MarkerDef, SchemaMarker, KindMarker, RbacMarker, WebhookMarker, ApplyContext } from './define.js';
export { emptyKindSettings, type KindSettings, type PrintColumn } from './kind-settings.js';

export const MARKERS: readonly MarkerDef[] = [
  ...ITEM_MARKERS,
  ...FIELD_MARKERS,
  ...STRUCTURE_MARKERS,
  ...ITEMS_MARKERS,
  ...STRUCTURE_ITEMS_MARKERS,
  ...KIND_MARKERS,
  ...RBAC_MARKERS,
  ...WEBHOOK_MARKERS,
  ...CSV_MARKERS,
];

const BY_NAME = new Map(MARKERS.map((m) => [m.name, m]));

export function markerByName(name: string): MarkerDef | undefined {
  return BY_NAME.get(name);
}

/** A marker a type alias may carry: any schema marker but a field's presence and `@Schemaless`. */
export function onAlias(def: { name: string }): boolean {
  return !['Required', 'Optional', 'Schemaless'].includes(def.name);
}

/**
 * How a marker is written on a type alias: the decorators of its example, in the alias's JSDoc
 * (`@ListType('map') @ListMapKey('name')` stay together, as one needs the other), on a type it fits.
 */
function aliasForm(m: MarkerDef): string {
  const calls = m.example.match(/@\w+\((?:[^()]|\([^()]*\))*\)/g) ?? [];
  const own = calls.some((c) => c.startsWith(`@${m.name}(`)) ? calls : [`@${m.name}()`];
  const items = m.name.startsWith('Items') && m.name !== 'Items';
  const [alias, type] = ALIAS_TYPES[items ? m.name.slice('Items'.length) : m.name] ?? ['Value', 'string'];
  return `/** ${own.join(' ')} */ export type ${items ? `${alias}List` : alias} = ${items ? `${type.includes(' ') ? `(${type})` : type}[]` : type};`;
}

/** A plausible alias name and type for each marker's line in the help text. */
const ALIAS_TYPES: Record<string, [string, string]> = {
  Minimum: ['Port', 'int32'],
  Maximum: ['Percent', 'int32'],
  ExclusiveMinimum: ['Positive', 'number'],
  ExclusiveMaximum: ['Fraction', 'number'],
  MultipleOf: ['Step', 'int32'],
  MinLength: ['Name', 'string'],
  MaxLength: ['Name', 'string'],
  Pattern: ['Name', 'string'],
  Enum: ['Policy', 'string'],
  Format: ['Timestamp', 'string'],
  Type: ['Version', 'int32'],
  MinItems: ['Hosts', 'string[]'],
  MaxItems: ['Hosts', 'string[]'],
  UniqueItems: ['Hosts', 'string[]'],
  MinProperties: ['Labels', 'Record<string, string>'],
  MaxProperties: ['Labels', 'Record<string, string>'],
  MapType: ['Labels', 'Record<string, string>'],
  Nullable: ['Reason', 'string'],
  XValidation: ['Window', '{ minReplicas: int32; maxReplicas: int32 }'],
  Default: ['Policy', "'Allow' | 'Forbid'"],
  KubernetesDefault: ['Policy', "'Allow' | 'Forbid'"],
  Example: ['Schedule', 'string'],
  Title: ['Schedule', 'string'],
  ExternalDocs: ['Backup', '{ schedule?: string }'],
  Immutable: ['StorageClass', 'string'],
  ExactlyOneOf: ['Source', '{ configMap?: string; secret?: string }'],
  AtMostOneOf: ['Source', '{ configMap?: string; secret?: string }'],
  AtLeastOneOf: ['Source', '{ configMap?: string; secret?: string }'],
  PreserveUnknownFields: ['Extra', 'Record<string, JSONValue>'],
  XEmbeddedResource: ['Manifest', 'RawExtension'],
  XIntOrString: ['PortRef', 'IntOrString'],
  ListType: ['Ports', '{ name: string; protocol: string; port: int32 }[]'],
  ListMapKey: ['Ports', '{ name: string; protocol: string; port: int32 }[]'],
  StructType: ['Endpoint', '{ host: string; port: int32 }'],
};

/** The reference table for `tsop manifests --help`, generated from the catalog. */
export function markerHelp(): string {
  const sections: Array<[string, (m: MarkerDef) => boolean]> = [
    ['Kind markers (on a @Resource class)', (m) => m.target === 'kind' && !m.name.startsWith('Csv')],
    [
      'Field and type markers',
      (m) => m.target === 'schema' && !m.name.startsWith('Items') && !m.name.startsWith('Csv'),
    ],
    ['Array element markers', (m) => m.target === 'schema' && m.name.startsWith('Items')],
    ['Controller markers', (m) => m.target === 'controller'],
    ['Webhook markers (on a defaulter or validator class)', (m) => m.target === 'webhook'],
    ['ClusterServiceVersion markers (OLM bundles: tsop generate kustomize manifests)', (m) => m.name.startsWith('Csv')],
  ];
  const lines: string[] = [];
  for (const [title, pick] of sections) {
    lines.push('', `${title}:`);
    for (const m of MARKERS.filter(pick)) {
      lines.push(`  @${m.name}${m.args.usage}  [${m.controllerGen}]`, `      ${m.doc}`, `      e.g. ${m.example}`);
    }
  }
  lines.push(
    '',
    'On a type alias (a decorator cannot stand there): the same marker in its JSDoc, written as the decorator is;',
    'every field of the alias type gets it, as every field of a Go named type gets its markers:',
    '  /** @Minimum(1) @Maximum(65535) */ export type Port = int32;',
    'Lower-case JSDoc tags also work, on aliases and fields: @minimum 1, @maximum 9, @multipleOf 2, @minLength 1,',
    '@maxLength 63, @minItems 1, @maxItems 9, @minProperties 1, @maxProperties 9, @pattern ^[a-z]+$, @format uri,',
    "@default 'Allow' (Kubernetes' +default: @Default wins over it) and @example '10m'.",
  );
  for (const m of MARKERS.filter((d) => d.target === 'schema' && onAlias(d))) lines.push(`  ${aliasForm(m)}`);
  lines.push(
    '',
    'Where tsop writes otherwise than controller-gen (--controller-gen-compat, or controllerGenCompat: true under',
    "plugins.manifests.typescript.tsop.dev/v1 in PROJECT, writes controller-gen's text instead):",
    '  @UniqueItems: x-kubernetes-list-type: set, as the API server refuses uniqueItems: true in a CRD.',
    "  a nullable enum (@Nullable() with an enum type): a CEL rule listing the values, as the API server's enum",
    '      check refuses null even when listed; controller-gen writes enum + nullable: true.',
    '  @XIntOrString on a field of another type: the integer-or-string pair (anyOf); controller-gen keeps the',
    "      field's type beside x-kubernetes-int-or-string (the API server accepts both either way; the published",
    '      schema, kubectl explain and OpenAPI clients see one type).',
    "  a field @Enum on a field whose type has an enum: both kept under allOf (controller-gen keeps only the type's).",
  );
  lines.push(
    '',
    'Group-version options (in `export const groupVersion = { group, version, … }`, for the kinds of that directory):',
    "  fields: 'optional' | 'required'  [+kubebuilder:validation:Optional on the package]",
    "      'optional': fields are optional unless @Required(), even without '?'.",
    "      e.g. export const groupVersion = { group: 'batch.example.com', version: 'v1', fields: 'optional' };",
    '  skip: true  [+kubebuilder:skip on the package]',
    '      Generate nothing for the kinds under this directory.',
    "      e.g. export const groupVersion = { group: 'batch.example.com', version: 'v1', skip: true };",
  );
  return lines.join('\n');
}
