/**
 * How a field's markers combine with the validations its type already has, as controller-gen
 * does it. In Go a field of a named type is a reference to the type's schema plus what the field's
 * own markers set; controller-gen's flattening then merges the two: the field's description,
 * title, example and externalDocs replace the type's, booleans add up, the field's CEL rules come
 * before the type's, and a bound both set (`maxLength` on the type and on the field) is kept
 * twice, under `allOf`, so the field can only narrow what the type allows. tsop does the same for
 * classes, TypeScript enums, core and known types, and type aliases that carry markers.
 *
 * Where controller-gen's result would be wrong or cannot arise in Go, tsop decides: two enums are
 * both kept under `allOf` (controller-gen drops the field's), and a field's `default`, list or map
 * topology replaces the type's (Go types cannot carry a default; the API server refuses list-type
 * keys under `allOf`).
 */
import type { JSONSchemaProps } from './jsonschema.js';

type Key = keyof JSONSchemaProps;

/** Set by the field only as documentation: the field's replaces the type's. */
const DOCS: ReadonlySet<string> = new Set(['description', 'title', 'example', 'externalDocs']);
/** Flags: set when either sets them. */
const FLAGS: ReadonlySet<string> = new Set([
  'nullable',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'uniqueItems',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
]);
/** Compared by value: equal values merge, different ones go under allOf. */
const TEXTS: ReadonlySet<string> = new Set(['format', 'pattern']);
/** controller-gen compares these by pointer, so both values go under allOf even when equal. */
const BOUNDS: ReadonlySet<string> = new Set([
  'maximum',
  'minimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
]);

/**
 * What the field's markers set, recorded while they are applied to a copy of the type's schema
 * (so their checks see the type), to be merged with `mergeField`.
 */
export class FieldProbe {
  readonly node: JSONSchemaProps;
  private readonly copy: JSONSchemaProps;
  private readonly touched = new Set<string>();
  private readonly lengths = new Map<string, number>();
  private cleared = false;

  constructor(private readonly type: JSONSchemaProps) {
    // Arrays are copied so that a marker pushing a rule changes the copy, not the type.
    this.copy = { ...type };
    for (const [k, v] of Object.entries(type)) {
      if (Array.isArray(v)) {
        (this.copy as Record<string, unknown>)[k] = [...v];
        this.lengths.set(k, v.length);
      }
    }
    const touched = this.touched;
    this.node = new Proxy(this.copy, {
      set: (target, key, value) => {
        touched.add(String(key));
        (target as Record<string | symbol, unknown>)[key] = value;
        return true;
      },
      deleteProperty: (target, key) => {
        if (key !== 'description') this.cleared = true;
        delete (target as Record<string | symbol, unknown>)[key];
        return true;
      },
    });
  }

  /** The field's schema: the type's merged with what the markers set, or theirs alone when one replaced the type. */
  result(): JSONSchemaProps {
    // @Type with another type, @XIntOrString and @Schemaless start over: the type's schema is gone.
    if (this.cleared || this.copy.type !== this.type.type) return this.copy;
    const own: JSONSchemaProps = {};
    const o = own as Record<string, unknown>;
    for (const [k, v] of Object.entries(this.copy)) {
      const before = this.lengths.get(k);
      if (Array.isArray(v) && before !== undefined && v.length > before && !this.touched.has(k))
        o[k] = v.slice(before); // pushed onto the type's
      else if (this.touched.has(k)) o[k] = v;
    }
    return mergeField(this.type, own);
  }
}

/** controller-gen's flattening of a type's schema (`type`) and what a field adds to it (`own`). */
function mergeField(type: JSONSchemaProps, own: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...type };
  const o = out as Record<string, unknown>;
  const typeSide: Record<string, unknown> = {};
  const fieldSide: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(own) as Array<[Key, unknown]>) {
    if (value === undefined) continue;
    const mine = o[key];
    if (mine === undefined || DOCS.has(key)) {
      o[key] = value;
    } else if (FLAGS.has(key)) {
      o[key] = mine === true || value === true;
    } else if (key === 'x-kubernetes-validations') {
      o[key] = [...(value as unknown[]), ...(mine as unknown[])];
    } else if (key === 'required') {
      o[key] = [...new Set([...(mine as string[]), ...(value as string[])])].sort();
    } else if (key === 'type') {
      // equal: a different type never reaches here (FieldProbe keeps the field's alone)
    } else if (
      BOUNDS.has(key) ||
      (TEXTS.has(key) && mine !== value) ||
      (key === 'enum' && JSON.stringify(mine) !== JSON.stringify(value))
    ) {
      typeSide[key] = mine;
      fieldSide[key] = value;
      delete o[key];
    } else if (key !== 'enum' && !TEXTS.has(key)) {
      o[key] = value; // default, topology, items, the rest: the field's
    }
  }
  if (Object.keys(fieldSide).length > 0)
    out.allOf = [...(out.allOf ?? []), typeSide as JSONSchemaProps, fieldSide as JSONSchemaProps];
  return out;
}
