/**
 * Inlines `$ref`s between converted core definitions, giving the fully expanded, structural
 * schema a CRD needs (the API server accepts no `$ref`). Pure.
 *
 * A reference's own description (the Go field's doc) replaces the referenced type's; when the
 * field has none, the type's doc stays — what controller-gen's flattener does.
 */
import type { JSONSchemaProps } from '../jsonschema.js';
import type { CoreSchema } from './types.js';

/** The data file is inconsistent: a missing or recursive definition. */
export class CoreSchemaError extends Error {
  override readonly name = 'CoreSchemaError';
}

/** Fields a reference site may set beside `$ref`. */
const SITE_FIELDS = ['description', 'default', 'x-kubernetes-map-type'] as const;

/**
 * Expands every `$ref` under `schema` using `definitions`. The result shares no objects with the
 * input, but identical sub-schemas inside it may be the same object; copy before mutating.
 * `definitions` is a record or a lookup (the data file parses definitions on demand). `done`
 * memoises inlined definitions; pass the same map to reuse work across calls.
 */
export function inlineSchema(
  schema: CoreSchema,
  definitions: Readonly<Record<string, CoreSchema>> | ((name: string) => CoreSchema | undefined),
  done: Map<string, JSONSchemaProps> = new Map(),
): JSONSchemaProps {
  const inProgress: string[] = [];
  const lookup =
    typeof definitions === 'function'
      ? definitions
      : (name: string): CoreSchema | undefined => (Object.hasOwn(definitions, name) ? definitions[name] : undefined);

  const definition = (name: string): JSONSchemaProps => {
    const cached = done.get(name);
    if (cached !== undefined) return cached;
    if (inProgress.includes(name)) {
      throw new CoreSchemaError(`recursive core type: ${[...inProgress, name].join(' → ')}`);
    }
    const def = lookup(name);
    if (def === undefined) throw new CoreSchemaError(`core type definition ${name} is missing`);
    inProgress.push(name);
    const result = node(def);
    inProgress.pop();
    done.set(name, result);
    return result;
  };

  // Each node is built once, keys in sorted order (the data and controller-gen's output both sort
  // them): a pod template is thousands of nodes, so no intermediate copies.
  const node = (s: CoreSchema): JSONSchemaProps => {
    if (s.$ref !== undefined) {
      const def = definition(s.$ref) as Record<string, unknown>;
      const site = s as Record<string, unknown>;
      const keys = Object.keys(def);
      for (const f of SITE_FIELDS) if (site[f] !== undefined && !Object.hasOwn(def, f)) keys.push(f);
      const out: Record<string, unknown> = {};
      for (const k of keys.sort())
        out[k] = site[k] !== undefined && (SITE_FIELDS as readonly string[]).includes(k) ? site[k] : def[k];
      return out as JSONSchemaProps;
    }
    // children in the order they were always visited (it decides which data error is reported first)
    let properties: Record<string, JSONSchemaProps> | undefined;
    if (s.properties !== undefined) {
      properties = {};
      for (const [k, v] of Object.entries(s.properties)) properties[k] = node(v);
    }
    const items = s.items !== undefined ? node(s.items) : undefined;
    const additional = s.additionalProperties;
    const additionalProperties =
      additional === undefined || typeof additional === 'boolean' ? additional : node(additional);
    const anyOf = s.anyOf !== undefined ? s.anyOf.map(node) : undefined;
    const raw = s as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(s).sort()) {
      out[k] =
        k === 'properties'
          ? properties
          : k === 'items'
            ? items
            : k === 'additionalProperties'
              ? additionalProperties
              : k === 'anyOf'
                ? anyOf
                : raw[k];
    }
    return out as JSONSchemaProps;
  };

  return node(schema);
}
