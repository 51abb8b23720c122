/**
 * Checks a JSON value against a structural schema the way the API server checks a default:
 * type, enum, bounds, lengths, pattern, item and property counts, required properties, and
 * pruning (a default must not carry fields the schema would drop). Used for `@Default` values.
 */
import type { JSONSchemaProps, JSONValue } from './jsonschema.js';

/** Problems as `path: what is wrong`; empty when the value is valid. */
export function validateValue(value: JSONValue, s: JSONSchemaProps, path = ''): string[] {
  const here = path === '' ? 'the value' : path;
  if (value === null) return s.nullable ? [] : [`${here}: null is not allowed (mark the field @Nullable())`];
  if (s['x-kubernetes-int-or-string']) {
    if (!(typeof value === 'string' || Number.isInteger(value))) return [`${here}: must be an integer or a string`];
  } else if (s.type !== undefined && !typeMatches(value, s.type)) {
    return [`${here}: must be ${s.type}, got ${JSON.stringify(value)}`];
  }
  const errors: string[] = [];
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    errors.push(`${here}: must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if (typeof value === 'number') {
    if (s.minimum !== undefined && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum))
      errors.push(`${here}: must be ${s.exclusiveMinimum ? '>' : '>='} ${s.minimum}`);
    if (s.maximum !== undefined && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum))
      errors.push(`${here}: must be ${s.exclusiveMaximum ? '<' : '<='} ${s.maximum}`);
    if (s.multipleOf !== undefined && !Number.isInteger(value / s.multipleOf))
      errors.push(`${here}: must be a multiple of ${s.multipleOf}`);
  }
  if (typeof value === 'string') {
    const len = [...value].length;
    if (s.minLength !== undefined && len < s.minLength)
      errors.push(`${here}: must be at least ${s.minLength} characters`);
    if (s.maxLength !== undefined && len > s.maxLength)
      errors.push(`${here}: must be at most ${s.maxLength} characters`);
    if (s.pattern !== undefined && !safeTest(s.pattern, value)) errors.push(`${here}: must match ${s.pattern}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems)
      errors.push(`${here}: must have at least ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems)
      errors.push(`${here}: must have at most ${s.maxItems} items`);
    if (s.items) {
      const items = s.items as JSONSchemaProps;
      value.forEach((v, i) => {
        errors.push(...validateValue(v, items, `${path}[${i}]`));
      });
    }
  } else if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    if (s.minProperties !== undefined && keys.length < s.minProperties)
      errors.push(`${here}: must have at least ${s.minProperties} properties`);
    if (s.maxProperties !== undefined && keys.length > s.maxProperties)
      errors.push(`${here}: must have at most ${s.maxProperties} properties`);
    for (const r of s.required ?? []) if (!(r in value)) errors.push(`${path}.${r}: is required`);
    for (const k of keys) {
      const v = value[k] as JSONValue;
      const prop = s.properties?.[k];
      if (prop) errors.push(...validateValue(v, prop, `${path}.${k}`));
      else if (typeof s.additionalProperties === 'object')
        errors.push(...validateValue(v, s.additionalProperties, `${path}.${k}`));
      else if (!s['x-kubernetes-preserve-unknown-fields'] && s.additionalProperties !== true)
        errors.push(`${path}.${k}: unknown field, it would be pruned`);
    }
  }
  return errors;
}

/** Whether a JSON value has the given schema type (integers are whole numbers). */
export function typeMatches(v: JSONValue, type: NonNullable<JSONSchemaProps['type']>): boolean {
  switch (type) {
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
  }
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true; // an invalid pattern is reported by its marker
  }
}
