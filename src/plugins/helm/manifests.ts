/**
 * Reads the kustomize output of a project (`kubectl kustomize config/default`, or dist/install.yaml)
 * into the facts the chart is built from: the objects, the name prefix and namespace kustomize
 * gave them (which the chart replaces by the release's), and the features present (webhooks,
 * cert-manager, metrics, ...), which decide the values the chart offers.
 */
import { parseAllDocuments } from 'yaml';
import { UserError } from '../../errors.js';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface ChartLayout {
  /** Chart name: the project name; also the prefix of the chart's helper templates. */
  chart: string;
  /** kustomize's namePrefix, with its dash (`memcached-operator-`). */
  prefix: string;
  /** kustomize's namespace (`memcached-operator-system`), which becomes the release namespace. */
  namespace: string;
  /** The manager's ServiceAccount name in the kustomize output, if it has one. */
  serviceAccount?: string;
}

export interface ChartFeatures {
  webhooks: boolean;
  certManager: boolean;
  /** The manager makes its own webhook certificate (--webhook-self-provision, config/self-provision). */
  selfProvision: boolean;
  metrics: boolean;
  prometheus: boolean;
  networkPolicy: boolean;
}

export interface ParsedManifests {
  objects: KubeObject[];
  layout: ChartLayout;
  features: ChartFeatures;
  /** The manager Deployment (`<prefix>controller-manager`). */
  manager?: KubeObject;
  /** What the chart leaves out, and why (one note each). */
  skipped: string[];
}

const MANAGER_SUFFIX = 'controller-manager';

export function parseManifests(text: string, source: string, projectName: string): ParsedManifests {
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if ('errors' in doc && doc.errors.length > 0) {
      throw new UserError(
        `${source}: not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); regenerate it with 'npm run build-installer'`,
      );
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (!isObject(value))
      throw new UserError(
        `${source}: a document is not a Kubernetes object (apiVersion, kind, metadata.name); regenerate it with 'npm run build-installer'`,
      );
    objects.push(value);
  }
  const manager = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith(MANAGER_SUFFIX));
  if (objects.length === 0)
    throw new UserError(`${source}: no Kubernetes objects; regenerate it with 'npm run build-installer'`);
  // kustomize's namePrefix and namespace, read off the manager as kubebuilder does; a project
  // whose manager was renamed falls back to the names `tsop init` writes.
  const prefix = manager ? manager.metadata.name.slice(0, -MANAGER_SUFFIX.length) : `${projectName}-`;
  const namespace =
    manager?.metadata.namespace ??
    objects.find((o) => o.kind === 'Namespace')?.metadata.name ??
    `${projectName}-system`;
  const serviceAccount = manager ? str(manager, ['spec', 'template', 'spec', 'serviceAccountName']) : undefined;

  const customKinds = new Set(
    objects
      .filter((o) => o.kind === 'CustomResourceDefinition')
      .map((o) => `${str(o, ['spec', 'group'])}/${str(o, ['spec', 'names', 'kind'])}`),
  );
  const kept: KubeObject[] = [];
  const skipped: string[] = [];
  for (const o of objects) {
    if (o.kind === 'Namespace') {
      skipped.push(
        `Namespace ${o.metadata.name}: the chart installs into the release namespace (helm install --namespace <ns> --create-namespace)`,
      );
    } else if (customKinds.has(`${o.apiVersion.split('/')[0]}/${o.kind}`)) {
      skipped.push(
        `${o.kind} ${o.metadata.name}: custom resources are not part of the chart; create them after installing it`,
      );
    } else kept.push(o);
  }
  const has = (pred: (o: KubeObject) => boolean): boolean => kept.some(pred);
  const features: ChartFeatures = {
    webhooks: has(
      (o) =>
        o.kind.endsWith('WebhookConfiguration') ||
        (o.kind === 'Service' && o.metadata.name.endsWith('webhook-service')),
    ),
    certManager: has((o) => o.apiVersion.startsWith('cert-manager.io/')),
    selfProvision: managerArgs(manager).includes('--webhook-self-provision'),
    metrics: has((o) => o.kind === 'Service' && o.metadata.name.endsWith('metrics-service')),
    prometheus: has((o) => o.kind === 'ServiceMonitor'),
    networkPolicy: has((o) => o.kind === 'NetworkPolicy'),
  };
  return {
    objects: kept,
    layout: { chart: projectName, prefix, namespace, ...(serviceAccount ? { serviceAccount } : {}) },
    features,
    ...(manager ? { manager } : {}),
    skipped,
  };
}

/** The manager container's arguments. */
function managerArgs(manager: KubeObject | undefined): string[] {
  const containers =
    (
      manager?.['spec'] as
        | { template?: { spec?: { containers?: Array<{ name?: string; args?: unknown }> } } }
        | undefined
    )?.template?.spec?.containers ?? [];
  const c = containers.find((x) => x.name === 'manager') ?? containers[0];
  return Array.isArray(c?.args) ? c.args.map(String) : [];
}

function isObject(v: unknown): v is KubeObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const meta = o['metadata'] as Record<string, unknown> | undefined;
  return (
    typeof o['apiVersion'] === 'string' &&
    typeof o['kind'] === 'string' &&
    typeof meta === 'object' &&
    meta !== null &&
    typeof meta['name'] === 'string'
  );
}

/** The string at `path` in `o`, if there is one. */
function str(o: unknown, path: string[]): string | undefined {
  let cur: unknown = o;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return typeof cur === 'string' ? cur : undefined;
}
