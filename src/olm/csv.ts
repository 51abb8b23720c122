/**
 * The ClusterServiceVersion as plain data, and the base one `generate kustomize manifests` starts
 * from: the fields operator-sdk fills with placeholders (display name, description, provider,
 * maintainers, links, keywords, maturity, an empty icon, the four install modes with only
 * AllNamespaces supported). Only the fields tsop reads are typed; the rest pass through.
 */
import { displayName } from './display-name.js';
import type { Obj } from './objects.js';

const CSV_API_VERSION = 'operators.coreos.com/v1alpha1';
export const CSV_KIND = 'ClusterServiceVersion';

export interface ResourceRef {
  kind: string;
  version: string;
  name?: string;
}

export interface Descriptor {
  description?: string;
  displayName?: string;
  path: string;
  'x-descriptors'?: string[];
}

/** One entry of spec.customresourcedefinitions.owned. */
export interface CrdDescription {
  name: string;
  version: string;
  kind: string;
  displayName?: string;
  description?: string;
  resources?: ResourceRef[];
  specDescriptors?: Descriptor[];
  statusDescriptors?: Descriptor[];
  [key: string]: unknown;
}

export interface Csv extends Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; [key: string]: unknown };
  spec: Obj & {
    customresourcedefinitions?: { owned?: CrdDescription[]; required?: CrdDescription[] };
    install?: { strategy?: string; spec?: Obj };
    installModes?: Array<{ type: string; supported: boolean }>;
    version?: string;
  };
}

const INSTALL_MODES = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'] as const;

/** `<package>.v<version>`, the name OLM upgrades by. */
export function csvName(operatorName: string, version: string): string {
  return `${operatorName}.v${version}`;
}

export function csvFileName(operatorName: string): string {
  return `${operatorName.toLowerCase()}.clusterserviceversion.yaml`;
}

/** A new base for `operatorName`, with operator-sdk's placeholders for what only a person can say. */
export function newBaseCsv(operatorName: string): Csv {
  const title = displayName(operatorName);
  return {
    apiVersion: CSV_API_VERSION,
    kind: CSV_KIND,
    metadata: {
      name: `${operatorName}.v0.0.0`,
      namespace: 'placeholder',
      annotations: { 'alm-examples': '[]', capabilities: 'Basic Install' },
    },
    spec: {
      apiservicedefinitions: {},
      customresourcedefinitions: {},
      description: `${title} description. TODO.`,
      displayName: title,
      icon: [{ base64data: '', mediatype: '' }],
      // operator-sdk's base carries an empty install strategy; `generate bundle` fills it.
      install: { spec: { deployments: null }, strategy: '' },
      installModes: INSTALL_MODES.map((type) => ({ supported: type === 'AllNamespaces', type })),
      keywords: [operatorName],
      links: [{ name: title, url: `https://${operatorName}.domain` }],
      maintainers: [{ email: 'your@email.com', name: 'Maintainer Name' }],
      maturity: 'alpha',
      provider: { name: 'Provider Name', url: 'https://your.domain' },
      version: '0.0.0',
    },
  };
}
