/**
 * A sample object for an imported kind (config/samples): the fields its schema requires, each
 * with its default, example, first allowed value or the smallest value its type and bounds allow,
 * so the sample passes the API server's validation where a schema makes that possible without
 * knowing what the fields mean.
 */
import type { JSONValue } from '../codegen/jsonschema.js';
import { sampleOf } from '../codegen/sample-value.js';
import { yamlLibrary } from '../yaml/library.js';
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
