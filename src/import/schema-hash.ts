/**
 * Content hashes of schema nodes, so identical sub-schemas are recognised wherever they stand
 * (one class for the same `secretRef` shape used ten times). Computed bottom-up and remembered
 * per node object: a pod template is thousands of nodes, each hashed once. `required` is a set,
 * as the API server reads it.
 */
import { createHash } from 'node:crypto';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';

const CHILD_KEYS = new Set(['properties', 'items', 'additionalProperties']);
const full = new WeakMap<object, string>();
const bodies = new WeakMap<object, string>();

/** The hash of a node without its own description (what a field's doc comment may replace). */
export function bodyHash(node: JSONSchemaProps): string {
  let h = bodies.get(node);
  if (h !== undefined) return h;
  const parts: string[] = [];
  for (const key of Object.keys(node).sort()) {
    if (key === 'description') continue;
    const value = (node as Record<string, unknown>)[key];
    if (key === 'properties' && value && typeof value === 'object') {
      parts.push(
        `properties{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${fullHash((value as Record<string, JSONSchemaProps>)[k]!)}`)
          .join(',')}}`,
      );
    } else if (CHILD_KEYS.has(key) && value && typeof value === 'object') {
      parts.push(`${key}:${fullHash(value as JSONSchemaProps)}`);
    } else if (key === 'required' && Array.isArray(value)) {
      parts.push(`required:${JSON.stringify([...value].sort())}`);
    } else {
      parts.push(`${key}:${JSON.stringify(value)}`);
    }
  }
  h = createHash('sha1').update(parts.join('\n')).digest('base64');
  bodies.set(node, h);
  return h;
}

/** The hash of a node, description included. */
export function fullHash(node: JSONSchemaProps): string {
  let h = full.get(node);
  if (h === undefined) {
    h =
      node.description === undefined
        ? bodyHash(node)
        : createHash('sha1')
            .update(`${bodyHash(node)}\n${node.description}`)
            .digest('base64');
    full.set(node, h);
  }
  return h;
}
