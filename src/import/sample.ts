/**
 * A sample object for an imported kind (config/samples): the fields its schema requires, each
 * with its default, example, first allowed value or the smallest value its type and bounds allow,
 * so the sample passes the API server's validation where a schema makes that possible without
 * knowing what the fields mean.
 */
import type { JSONSchemaProps, JSONValue } from '../codegen/jsonschema.js';
import { yamlLibrary } from '../yaml-library.js';
import type { Crd, CrdVersion } from './crd.js';

export function sampleYaml(crd: Crd, version: CrdVersion, projectName: string): string {
  const kind = crd.spec.names.kind;
  const object: Record<string, JSONValue> = {
    apiVersion: `${crd.spec.group}/${version.name}`,
    kind,
    metadata: {
      labels: { 'app.kubernetes.io/name': projectName, 'app.kubernetes.io/managed-by': 'kustomize' },
      name: `${kind.toLowerCase()}-sample`,
    },
  };
  const spec = version.schema.openAPIV3Schema.properties?.['spec'];
  if (spec) object['spec'] = sampleOf(spec, 0);
  return yamlLibrary().stringify(object, { lineWidth: 0 });
}

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
