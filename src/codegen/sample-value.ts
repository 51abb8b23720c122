/**
 * The smallest value a schema accepts: its required fields only for an object, each with its
 * default, example, first allowed value or the least its type and bounds allow. Import writes
 * config/samples with it; scaffolded tests take a kind's spec from it. Pure.
 */
import type { JSONSchemaProps, JSONValue } from './jsonschema.js';

/** The smallest valid value of a schema (its required fields only, for an object). */
export function sampleOf(s: JSONSchemaProps, depth = 0): JSONValue {
  if (s.default !== undefined) return s.default;
  if (s.example !== undefined) return s.example;
  if (s.enum !== undefined && s.enum.length > 0) return s.enum[0]!;
  if (s['x-kubernetes-int-or-string']) return 1;
  switch (s.type) {
    case 'object': {
      const out: Record<string, JSONValue> = {};
      if (depth > 8) return out;
      for (const name of s.required ?? []) {
        const p = s.properties?.[name];
        if (p) out[name] = sampleOf(p, depth + 1);
      }
      return out;
    }
    case 'array':
      return s.items && (s.minItems ?? 0) > 0 && depth <= 8
        ? Array.from({ length: s.minItems! }, () => sampleOf(s.items!, depth + 1))
        : [];
    case 'string':
      if (s.format === 'date-time') return '2024-01-01T00:00:00Z';
      return 'x'.repeat(s.minLength ?? 0);
    case 'integer':
    case 'number': {
      let n = s.minimum ?? 0;
      if (s.minimum !== undefined && s.exclusiveMinimum) n += 1;
      if (s.maximum !== undefined && n > s.maximum) n = s.maximum;
      return n;
    }
    case 'boolean':
      return false;
    default:
      return {};
  }
}
