/**
 * values.yaml: the settings the chart's templates read, with their defaults taken from the
 * kustomize output (the image, replicas, resources and security contexts of the manager), so the
 * default install equals `kubectl apply -f dist/install.yaml`.
 *
 * values.yaml belongs to the user once written: a later run keeps it and only appends the
 * sections it lacks (a `webhook:` section after the first `create webhook`), so every template
 * finds its values and nothing the user set is lost (`--force` writes it afresh).
 */
import { isMap, parseDocument, stringify } from 'yaml';
import { UserError } from '../../errors.js';
import type { ChartFeatures, KubeObject } from './manifests.js';

type Obj = Record<string, unknown>;

/** One top-level section of values.yaml: its comment and its default. */
interface Section {
  key: string;
  comment: string;
  value: Obj;
}

export function valueSections(manager: KubeObject | undefined, f: ChartFeatures, namespacedRbac: boolean): Section[] {
  const podSpec = ((manager?.['spec'] as Obj | undefined)?.['template'] as Obj | undefined)?.['spec'] as Obj | undefined;
  const containers = (podSpec?.['containers'] as Obj[] | undefined) ?? [];
  const c = containers.find((x) => x['name'] === 'manager') ?? containers[0] ?? {};
  const image = typeof c['image'] === 'string' ? c['image'] : 'controller:latest';
  const at = image.lastIndexOf(':');
  const [repository, tag] = at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, ''];
  const args = (c['args'] as string[] | undefined) ?? [];
  const metricsPort = /^--metrics-bind-address=.*:(\d+)$/.exec(args.find((a) => a.startsWith('--metrics-bind-address=')) ?? '')?.[1];
  const webhookPort = ((c['ports'] as Obj[] | undefined) ?? []).find((p) => p['name'] === 'webhook-server')?.['containerPort'];

  const sections: Section[] = [
    {
      key: 'manager',
      comment: 'The controller manager Deployment. args and env are added after the ones the chart writes (node build/main.js --help lists the flags).',
      value: {
        enabled: true,
        replicas: (manager?.['spec'] as Obj | undefined)?.['replicas'] ?? 1,
        image: { repository, tag, pullPolicy: c['imagePullPolicy'] ?? 'IfNotPresent' },
        args: [],
        env: [],
        podLabels: {},
        podAnnotations: {},
        strategy: {},
        resources: c['resources'] ?? {},
        podSecurityContext: podSpec?.['securityContext'] ?? {},
        securityContext: c['securityContext'] ?? {},
        nodeSelector: {},
        affinity: {},
        tolerations: [],
        topologySpreadConstraints: [],
        imagePullSecrets: [],
        priorityClassName: '',
        terminationGracePeriodSeconds: podSpec?.['terminationGracePeriodSeconds'] ?? 10,
      },
    },
    { key: 'leaderElection', comment: 'Leader election (--leader-elect and its Role): one active manager among the replicas.', value: { enabled: true } },
    {
      key: 'sharding',
      comment: 'Sharding (--sharding): with a ring name, every replica (manager.replicas) reconciles and caches its share of the objects; see the book\'s sharding guide.',
      value: { ring: /^--sharding=(.*)$/.exec(args.find((a) => a.startsWith('--sharding=')) ?? '')?.[1] ?? '' },
    },
    {
      key: 'rbac',
      comment: `helpers: the admin/editor/viewer roles of each kind, for granting access to users.${namespacedRbac ? ' The manager has a Role in the release namespace (the project is namespaced).' : ''}`,
      value: { helpers: { enabled: false } },
    },
    { key: 'serviceAccount', comment: "The manager's ServiceAccount; enabled: false with name: uses an existing one.", value: { enabled: true, name: '' } },
    { key: 'crd', comment: 'CustomResourceDefinitions installed with the chart; keep: left in place on helm uninstall, so custom resources survive it.', value: { enabled: true, keep: true } },
    { key: 'metrics', comment: 'The /metrics endpoint: secure serves HTTPS to callers allowed to get /metrics.', value: { enabled: f.metrics, port: Number(metricsPort ?? 8443), secure: !args.includes('--metrics-secure=false') } },
  ];
  if (f.webhooks) sections.push({ key: 'webhook', comment: 'The webhook server (admission and conversion webhooks).', value: { enabled: true, port: Number(webhookPort ?? 9443) } });
  if (f.certManager) {
    sections.push({ key: 'certManager', comment: 'cert-manager issues the webhook (and metrics) certificates and injects their CA; needs cert-manager in the cluster.', value: { enabled: true } });
  }
  sections.push(
    { key: 'prometheus', comment: 'A ServiceMonitor for the metrics Service; needs the Prometheus operator in the cluster.', value: { enabled: false } },
    { key: 'networkPolicy', comment: 'NetworkPolicies that admit metrics (and webhook) traffic only from namespaces labelled for it.', value: { enabled: f.networkPolicy } },
  );
  return sections;
}

export function renderValues(sections: Section[]): string {
  return sections.map(renderSection).join('\n');
}

function renderSection(s: Section): string {
  return `# ${s.comment}\n${stringify({ [s.key]: s.value }, { lineWidth: 0, indentSeq: false })}`;
}

/**
 * The user's values.yaml with the sections it lacks appended; `added` names them. A file that is
 * not a YAML mapping is an error (a chart would fail on it too).
 */
export function mergeValues(existing: string, sections: Section[], path: string): { text: string; added: string[] } {
  const doc = parseDocument(existing);
  if (doc.errors.length > 0 || !(isMap(doc.contents) || doc.contents === null)) {
    throw new UserError(`${path} is not a YAML mapping; fix it, or pass --force to write it afresh`);
  }
  const data = (doc.toJS() ?? {}) as Obj;
  const missing = sections.filter((s) => !(s.key in data));
  if (missing.length === 0) return { text: existing, added: [] };
  const text = `${existing.replace(/\n*$/, '\n')}\n${missing.map(renderSection).join('\n')}`;
  return { text, added: missing.map((s) => s.key) };
}
