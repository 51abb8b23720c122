/**
 * Inlines `$ref`s between converted core definitions, giving the fully expanded, structural
 * schema a CRD needs (the API server accepts no `$ref`). Pure.
 *
 * A reference's own description (the Go field's doc) replaces the referenced type's; when the
 * field has none, the type's doc stays — what controller-gen's flattener does.
 */
import type { JSONSchemaProps } from '../../manifests/jsonschema.js';
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
  const lookup = typeof definitions === 'function' ? definitions : (name: string): CoreSchema | undefined => (Object.hasOwn(definitions, name) ? definitions[name] : undefined);

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

  const node = (s: CoreSchema): JSONSchemaProps => {
    if (s.$ref !== undefined) {
      const merged: Record<string, unknown> = { ...definition(s.$ref) };
      for (const f of SITE_FIELDS) if (s[f] !== undefined) merged[f] = s[f];
      return sortedKeys(merged) as JSONSchemaProps;
    }
    const { properties, items, additionalProperties, anyOf, ...rest } = s;
    const out: JSONSchemaProps = { ...rest };
    if (properties !== undefined) {
      out.properties = {};
      for (const [k, v] of Object.entries(properties)) out.properties[k] = node(v);
    }
    if (items !== undefined) out.items = node(items);
    if (additionalProperties !== undefined) {
      out.additionalProperties = typeof additionalProperties === 'boolean' ? additionalProperties : node(additionalProperties);
    }
    if (anyOf !== undefined) out.anyOf = anyOf.map(node);
    return sortedKeys(out as Record<string, unknown>) as JSONSchemaProps;
  };

  return node(schema);
}

function sortedKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}
