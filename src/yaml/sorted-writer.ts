/**
 * YAML out as sigs.k8s.io/yaml writes it (operator-sdk's writer): keys sorted at every level,
 * sequences flush with their key, no line folding, so a tsop bundle diffs cleanly against an
 * operator-sdk one.
 */
import { yamlLibrary } from './library.js';

type YamlObject = Record<string, unknown>;

const isObject = (value: unknown): value is YamlObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  const out: YamlObject = {};
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = sortedKeys(value[key]);
  return out;
}

/** `value` as one YAML document, keys sorted at every level (undefined values left out). */
export function toYaml(value: unknown): string {
  return yamlLibrary().stringify(sortedKeys(value), { lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
}
