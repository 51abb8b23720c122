/**
 * The smallest valid object of common built-in kinds, for the scaffolded test of a webhook on a
 * core kind: with one, the test creates it through the real API server, which then calls the
 * defaulter and validator (a validating webhook only sees objects the API server found valid).
 * Kinds not listed get a test that calls the webhook classes directly.
 */

export interface CoreSample {
  namespaced: boolean;
  /** The object's fields besides apiVersion, kind and metadata, as TypeScript source. */
  body: string;
}

const CONTAINERS = "containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10' }]";
const TEMPLATE = `template: { metadata: { labels: { app: 'sample' } }, spec: { ${CONTAINERS} } }`;

/** Keyed by `<group>/<version>/<Kind>` with kubebuilder's short group names (core, apps, batch). */
const SAMPLES: Readonly<Record<string, CoreSample>> = {
  'core/v1/Pod': { namespaced: true, body: `spec: { ${CONTAINERS} }` },
  'core/v1/ConfigMap': { namespaced: true, body: "data: { key: 'value' }" },
  'core/v1/Secret': { namespaced: true, body: "stringData: { key: 'value' }" },
  'core/v1/Service': { namespaced: true, body: 'spec: { ports: [{ port: 80 }] }' },
  'core/v1/ServiceAccount': { namespaced: true, body: '' },
  'core/v1/Namespace': { namespaced: false, body: '' },
  'apps/v1/Deployment': {
    namespaced: true,
    body: `spec: { selector: { matchLabels: { app: 'sample' } }, ${TEMPLATE} }`,
  },
  'apps/v1/StatefulSet': {
    namespaced: true,
    body: `spec: { selector: { matchLabels: { app: 'sample' } }, ${TEMPLATE} }`,
  },
  'apps/v1/DaemonSet': {
    namespaced: true,
    body: `spec: { selector: { matchLabels: { app: 'sample' } }, ${TEMPLATE} }`,
  },
  'batch/v1/Job': { namespaced: true, body: `spec: { template: { spec: { restartPolicy: 'Never', ${CONTAINERS} } } }` },
  'batch/v1/CronJob': {
    namespaced: true,
    body: `spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', ${CONTAINERS} } } } } }`,
  },
};

export function coreSample(group: string, version: string, kind: string): CoreSample | undefined {
  return SAMPLES[`${group}/${version}/${kind}`];
}
