/**
 * One schema keyword → the tsop marker decorator that writes it (`maxLength: 63` →
 * `@MaxLength(63)`), or why no marker can. The decorators are exactly those of runtime/markers,
 * found in the marker catalog (src/codegen/markers), so `tsop manifests` turns them back into the
 * same keyword. A table, like the catalog itself; the keywords a TypeScript type already says
 * (`type`, `items`, `properties`, …) never reach it.
 */
import { markerByName } from '../codegen/markers/index.js';
import type { JSONValue } from '../codegen/jsonschema.js';
import type { Decorator } from './model.js';

/** Where the decorator goes: a class field, an array field's elements (`@Items…`), or a class. */
export type MarkerSite = 'field' | 'items' | 'class';

type Translate = (value: unknown, site: MarkerSite) => Decorator[] | string;

const plain =
  (name: string): Translate =>
  (value) => [{ name, args: [value as JSONValue] }];
const flag =
  (name: string): Translate =>
  (value) =>
    value === true
      ? [{ name, args: [] }]
      : value === false
        ? [{ name, args: [false] }]
        : `${name} takes true or false, not ${JSON.stringify(value)}`;
const onlyTrue =
  (name: string, key: string): Translate =>
  (value) =>
    value === true ? [{ name, args: [] }] : `${key}: ${JSON.stringify(value)} (tsop writes only true)`;

const RULE_KEYS = new Set(['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf']);
const REASONS = new Set(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate']);

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const TABLE: Record<string, Translate> = {
  format: plain('Format'),
  pattern: plain('Pattern'),
  minLength: plain('MinLength'),
  maxLength: plain('MaxLength'),
  minimum: plain('Minimum'),
  maximum: plain('Maximum'),
  multipleOf: plain('MultipleOf'),
  minItems: plain('MinItems'),
  maxItems: plain('MaxItems'),
  minProperties: plain('MinProperties'),
  maxProperties: plain('MaxProperties'),
  title: plain('Title'),
  default: plain('Default'),
  example: plain('Example'),
  exclusiveMinimum: flag('ExclusiveMinimum'),
  exclusiveMaximum: flag('ExclusiveMaximum'),
  nullable: onlyTrue('Nullable', 'nullable'),
  'x-kubernetes-preserve-unknown-fields': onlyTrue('PreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'),
  'x-kubernetes-embedded-resource': onlyTrue('XEmbeddedResource', 'x-kubernetes-embedded-resource'),
  enum: (value) => {
    if (!Array.isArray(value) || value.length === 0) return 'an empty enum';
    if (!value.every(isScalar))
      return 'enum values that are objects, lists or null (@Enum takes strings, numbers and booleans)';
    return [{ name: 'Enum', args: value }];
  },
  externalDocs: (value) => {
    if (
      !isObject(value) ||
      typeof value['url'] !== 'string' ||
      Object.keys(value).some((k) => k !== 'url' && k !== 'description') ||
      (value['description'] !== undefined && typeof value['description'] !== 'string')
    ) {
      return 'externalDocs other than { url, description }';
    }
    return [{ name: 'ExternalDocs', args: [value as JSONValue] }];
  },
  'x-kubernetes-validations': (value) => {
    if (!Array.isArray(value)) return 'x-kubernetes-validations that is not a list';
    const out: Decorator[] = [];
    for (const rule of value) {
      if (!isObject(rule) || typeof rule['rule'] !== 'string') return 'a validation rule without a rule';
      const unknown = Object.keys(rule).find((k) => !RULE_KEYS.has(k));
      if (unknown !== undefined)
        return `a validation rule with '${unknown}' (@XValidation takes ${[...RULE_KEYS].join(', ')})`;
      if (rule['reason'] !== undefined && !REASONS.has(rule['reason'] as string))
        return `a validation rule with reason ${JSON.stringify(rule['reason'])}`;
      const ordered: Record<string, JSONValue> = {};
      for (const k of RULE_KEYS) if (rule[k] !== undefined) ordered[k] = rule[k] as JSONValue;
      out.push({ name: 'XValidation', args: [ordered] });
    }
    return out;
  },
  'x-kubernetes-list-type': plain('ListType'),
  'x-kubernetes-list-map-keys': (value) =>
    Array.isArray(value) && value.length > 0 && value.every((k) => typeof k === 'string')
      ? [{ name: 'ListMapKey', args: value as string[] }]
      : 'x-kubernetes-list-map-keys that is not a list of names',
  'x-kubernetes-map-type': (value, site) => [
    { name: site === 'class' ? 'StructType' : 'MapType', args: [value as JSONValue] },
  ],
  uniqueItems: () => 'uniqueItems (the API server forbids it; @UniqueItems writes x-kubernetes-list-type: set instead)',
};

/**
 * The decorators for `key: value` at `site`, or why there are none. An `@Items…` twin is used for
 * the elements of an array field; keywords without a twin cannot stand there.
 */
export function markersFor(key: string, value: unknown, site: MarkerSite): Decorator[] | string {
  const translate = TABLE[key];
  if (!translate) return `${key} (no tsop marker writes it)`;
  const out = translate(value, site);
  if (typeof out === 'string' || site !== 'items') return out;
  const twins: Decorator[] = [];
  for (const d of out) {
    const twin = `Items${d.name}`;
    if (!markerByName(twin)) return `${key} on the elements of a list (there is no @${twin})`;
    twins.push({ name: twin, args: d.args });
  }
  return twins;
}

/** JSDoc tags a type alias may carry (codegen/reader/type-reader.ts reads them as markers). */
export const ALIAS_TAGS: Readonly<Record<string, string>> = {
  pattern: 'pattern',
  minLength: 'minLength',
  maxLength: 'maxLength',
  minimum: 'minimum',
  maximum: 'maximum',
  multipleOf: 'multipleOf',
  format: 'format',
};
