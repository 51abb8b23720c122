/**
 * A field's validation and default as the API reference lists them, read from the generated
 * schema node (so the page says exactly what the API server enforces, whichever decorator, type
 * alias or union produced it).
 */
import type { JSONSchemaProps } from '../codegen/jsonschema.js';

/** One entry per rule, in a fixed order; `items:` entries for the elements of a list or map. */
export function validationOf(s: JSONSchemaProps, required: boolean | undefined): string[] {
  const out: string[] = [];
  if (required !== undefined) out.push(required ? 'Required' : 'Optional');
  out.push(...rules(s));
  const items = s.items ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
  // Element rules of a list of project types are on that type's own section.
  if (items && items.properties === undefined) out.push(...rules(items).map((r) => `items: ${r}`));
  return out;
}

/** The class-level rules of an object node (CEL rules, property counts), for under a type's heading. */
export function typeRules(s: JSONSchemaProps): string[] {
  return rules(s);
}

function rules(s: JSONSchemaProps): string[] {
  const out: string[] = [];
  if (s.minimum !== undefined) out.push(`${s.exclusiveMinimum ? 'ExclusiveMinimum' : 'Minimum'}: ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`${s.exclusiveMaximum ? 'ExclusiveMaximum' : 'Maximum'}: ${s.maximum}`);
  if (s.multipleOf !== undefined) out.push(`MultipleOf: ${s.multipleOf}`);
  if (s.minLength !== undefined) out.push(`MinLength: ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`MaxLength: ${s.maxLength}`);
  if (s.pattern !== undefined) out.push(`Pattern: ${code(s.pattern)}`);
  // int32/int64 are in the type column already.
  if (s.format !== undefined && !(s.type === 'integer' && (s.format === 'int32' || s.format === 'int64')))
    out.push(`Format: ${s.format}`);
  if (s.enum !== undefined) out.push(`Enum: ${s.enum.map((v) => code(JSON.stringify(v))).join(', ')}`);
  if (s.minItems !== undefined) out.push(`MinItems: ${s.minItems}`);
  if (s.maxItems !== undefined) out.push(`MaxItems: ${s.maxItems}`);
  if (s.uniqueItems) out.push('UniqueItems');
  if (s.minProperties !== undefined) out.push(`MinProperties: ${s.minProperties}`);
  if (s.maxProperties !== undefined) out.push(`MaxProperties: ${s.maxProperties}`);
  if (s.nullable) out.push('Nullable');
  if (s['x-kubernetes-list-type'] !== undefined) {
    const keys = s['x-kubernetes-list-map-keys'];
    out.push(`ListType: ${s['x-kubernetes-list-type']}${keys ? ` (keys: ${keys.join(', ')})` : ''}`);
  }
  if (s['x-kubernetes-map-type'] !== undefined) out.push(`MapType: ${s['x-kubernetes-map-type']}`);
  if (s['x-kubernetes-preserve-unknown-fields']) out.push('PreserveUnknownFields');
  if (s['x-kubernetes-embedded-resource']) out.push('EmbeddedResource');
  for (const r of s['x-kubernetes-validations'] ?? [])
    out.push(`Rule: ${code(r.rule)}${r.message ? ` (${r.message})` : ''}`);
  // A field that narrows its type's bound keeps both, under allOf: both hold.
  for (const part of s.allOf ?? []) out.push(...rules(part));
  return out;
}

/** The default as JSON in code, or '' when none. */
export function defaultOf(s: JSONSchemaProps): string {
  return s.default === undefined ? '' : code(JSON.stringify(s.default));
}

/** Inline code that survives backticks inside (Markdown's longer-fence rule). */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
