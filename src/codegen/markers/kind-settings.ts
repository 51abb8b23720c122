/**
 * The CRD settings a kind's markers accumulate (names, scope, subresources, columns, version
 * flags, metadata) — plain data the CRD emitter reads.
 */

export interface PrintColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

export interface KindSettings {
  scope?: 'Namespaced' | 'Cluster';
  plural?: string;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
  status: boolean;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  printColumns: PrintColumn[];
  storage: boolean;
  served: boolean;
  /** `@SkipVersion()`: this version is left out of the CRD (an internal version). */
  skip?: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  selectableFields: Array<{ jsonPath: string }>;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export function emptyKindSettings(): KindSettings {
  return {
    status: false,
    printColumns: [],
    storage: false,
    served: true,
    deprecated: false,
    selectableFields: [],
    labels: {},
    annotations: {},
  };
}
