/**
 * Descriptions as the project's manifests options leave them (`maxDescLen`, controller-gen's
 * `crd:maxDescLen`): what `tsop manifests` writes for a schema tsop knows (a core type, the root
 * fields) is that schema with every description shortened, so a CRD is compared with that, not
 * with the full text. And a CRD with no description anywhere is what `maxDescLen=0` writes.
 */
import { truncateDescription } from '../codegen/description.js';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';

/** A copy of `s` with every description cut to `max` (0 removes them); `s` itself when `max` is undefined. */
export function withMaxDescLen(s: JSONSchemaProps, max: number | undefined): JSONSchemaProps {
  if (max === undefined) return s;
  const out: JSONSchemaProps = { ...s };
  const description = s.description === undefined ? undefined : truncateDescription(s.description, max);
  if (description === undefined) delete out.description;
  else out.description = description;
  if (s.properties)
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, withMaxDescLen(p, max)]));
  if (typeof s.additionalProperties === 'object')
    out.additionalProperties = withMaxDescLen(s.additionalProperties, max);
  if (s.items) out.items = withMaxDescLen(s.items, max);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (list) out[key] = list.map((x) => withMaxDescLen(x, max));
  }
  return out;
}

/** Whether any node of `s` (properties, items, map values, compositions) has a description. */
export function hasDescription(s: JSONSchemaProps): boolean {
  if (s.description !== undefined) return true;
  const children = [
    ...Object.values(s.properties ?? {}),
    ...(typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []),
    ...(s.items ? [s.items] : []),
    ...(s.allOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    ...(s.not ? [s.not] : []),
  ];
  return children.some(hasDescription);
}
