/**
 * Small CRDs for the import tests, written the way a person writes one by hand.
 */
import { stringify } from 'yaml';

export interface CrdSpec {
  group: string;
  kind: string;
  plural: string;
  apiVersion?: string;
  /** The whole openAPIV3Schema (null: none at all); default: an object with `spec`. */
  schema?: Record<string, unknown> | null;
  /** The schema of `spec` (with the default schema). */
  spec?: object;
  scope?: 'Namespaced' | 'Cluster';
  versions?: string[];
}

export function crdObject(c: CrdSpec): Record<string, unknown> {
  const schema =
    c.schema === null
      ? undefined
      : (c.schema ?? {
          type: 'object',
          properties: {
            spec: c.spec ?? { type: 'object', properties: { size: { type: 'integer', format: 'int32' } } },
          },
        });
  return {
    apiVersion: c.apiVersion ?? 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${c.plural}.${c.group}` },
    spec: {
      group: c.group,
      names: { kind: c.kind, plural: c.plural, singular: c.kind.toLowerCase(), listKind: `${c.kind}List` },
      scope: c.scope ?? 'Namespaced',
      versions: (c.versions ?? ['v1']).map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        ...(schema ? { schema: { openAPIV3Schema: schema } } : {}),
      })),
    },
  };
}

export function crdYaml(c: CrdSpec): string {
  return stringify(crdObject(c));
}
