/**
 * The CustomResourceDefinition as `tsop import` reads it: the apiextensions.k8s.io/v1 fields the
 * importer uses, as plain data. Anything else a CRD object carries (status, server-set metadata)
 * is not part of what a project generates and is ignored.
 */
import type { PrintColumn } from '../codegen/markers/index.js';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema: { openAPIV3Schema: JSONSchemaProps };
  subresources?: {
    status?: Record<string, unknown>;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: PrintColumn[];
  selectableFields?: Array<{ jsonPath: string }>;
}

export interface CrdNames {
  kind: string;
  listKind?: string;
  plural: string;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface Crd {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: CrdNames;
    scope: 'Namespaced' | 'Cluster';
    versions: CrdVersion[];
    conversion?: { strategy?: string; webhook?: unknown };
    preserveUnknownFields?: boolean;
  };
}

/** A CRD and where it was read from (`config/crd/bases/x.yaml`, `config/crd/bases/x.yaml#2` for the second document). */
export interface CrdSource {
  crd: Crd;
  origin: string;
}

/** Annotations generators stamp on the CRDs they write: not the author's, so not carried over. */
export const GENERATOR_ANNOTATIONS: readonly string[] = [
  'controller-gen.kubebuilder.io/version',
  'tsop.dev/version',
  'kubectl.kubernetes.io/last-applied-configuration',
];

/** The CRD as its author wrote it: what the server adds (status, uid, managedFields, …) left out. */
export function authoredCrd(crd: Crd): Crd {
  const { name, labels, annotations } = crd.metadata;
  const metadata: Crd['metadata'] = { name };
  if (labels !== undefined) metadata.labels = labels;
  if (annotations !== undefined) {
    const kept = Object.fromEntries(
      Object.entries(annotations).filter(([k]) => k !== 'kubectl.kubernetes.io/last-applied-configuration'),
    );
    if (Object.keys(kept).length > 0) metadata.annotations = kept;
  }
  return { apiVersion: crd.apiVersion, kind: crd.kind, metadata, spec: crd.spec };
}
