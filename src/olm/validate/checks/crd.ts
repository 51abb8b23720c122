/**
 * CustomResourceDefinitionValidator: operator-framework/api runs the API server's own CRD
 * validation on each CRD of the bundle (schema and status problems left out). tsop checks the
 * rules below, with the API server's messages; the schema itself is the API server's to judge
 * (`tsop manifests --verify` installs the CRDs on a real one).
 */
import type { Check } from '../check.js';
import type { Finding } from '../finding.js';
import { obj, str } from '../../objects.js';

const fieldError = (field: string, value: string, detail: string): Finding => ({
  level: 'Error',
  type: detail.split(':')[0]!,
  field,
  value,
  detail: `${field}: ${detail}`,
});

export const CRD_CHECKS: Check[] = [
  {
    id: 'crd-name',
    validator: 'CustomResourceDefinitionValidator',
    level: 'Error',
    doc: "a CRD's metadata.name is <spec.names.plural>.<spec.group>",
    run: ({ bundle }) =>
      bundle.crds.flatMap((crd) => {
        const name = str(obj(crd['metadata'])['name']);
        const spec = obj(crd['spec']);
        const expected = `${str(obj(spec['names'])['plural'])}.${str(spec['group'])}`;
        return name === expected
          ? []
          : [
              fieldError(
                'metadata.name',
                name,
                `Invalid value: ${JSON.stringify(name)}: must be spec.names.plural+"."+spec.group`,
              ),
            ];
      }),
  },
  {
    id: 'crd-scope',
    validator: 'CustomResourceDefinitionValidator',
    level: 'Error',
    doc: "a CRD's spec.scope is Cluster or Namespaced",
    run: ({ bundle }) =>
      bundle.crds.flatMap((crd) => {
        const scope = str(obj(crd['spec'])['scope']);
        return scope === 'Cluster' || scope === 'Namespaced'
          ? []
          : [
              fieldError(
                'spec.scope',
                scope,
                `Unsupported value: ${JSON.stringify(scope)}: supported values: "Cluster", "Namespaced"`,
              ),
            ];
      }),
  },
];
