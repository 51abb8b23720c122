/**
 * values.yaml: the settings the chart's templates read, with their defaults taken from the
 * kustomize output (the image, replicas, resources and security contexts of the manager), so the
 * default install equals `kubectl apply -f dist/install.yaml`.
 *
 * values.yaml belongs to the user once written: a later run keeps it and only adds what it lacks —
 * a section (`webhook:` after the first `create webhook`) or a key a newer tsop reads within one
 * (`serviceAccount.annotations`) — so every template finds its values under `helm lint --strict`
 * and nothing the user set is lost (`--force` writes it afresh).
 */
import { isMap, parseDocument, stringify, type Document } from 'yaml';
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
  const podSpec = ((manager?.['spec'] as Obj | undefined)?.['template'] as Obj | undefined)?.['spec'] as
    | Obj
    | undefined;
  const containers = (podSpec?.['containers'] as Obj[] | undefined) ?? [];
  const c = containers.find((x) => x['name'] === 'manager') ?? containers[0] ?? {};
  const { repository, tag, digest } = imageParts(typeof c['image'] === 'string' ? c['image'] : 'controller:latest');
  const args = (c['args'] as string[] | undefined) ?? [];
  const metricsPort = /^--metrics-bind-address=.*:(\d+)$/.exec(
    args.find((a) => a.startsWith('--metrics-bind-address=')) ?? '',
  )?.[1];
  const webhookPort = ((c['ports'] as Obj[] | undefined) ?? []).find((p) => p['name'] === 'webhook-server')?.[
    'containerPort'
  ];

  const sections: Section[] = [
    {
      key: 'manager',
      comment:
        'The controller manager Deployment. args and env are added after the ones the chart writes (node build/main.js --help lists the flags).',
      value: {
        enabled: true,
        replicas: (manager?.['spec'] as Obj | undefined)?.['replicas'] ?? 1,
        // digest (sha256:…) wins over tag; a repository holding a tag or digest is used as it is.
        image: { repository, tag, digest, pullPolicy: c['imagePullPolicy'] ?? 'IfNotPresent' },
        args: [],
        env: [],
        podLabels: {},
        podAnnotations: {},
        strategy: {},
        extraVolumes: [],
        extraVolumeMounts: [],
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
        podDisruptionBudget: { enabled: false, minAvailable: 1 },
      },
    },
    {
      key: 'leaderElection',
      comment: 'Leader election (--leader-elect and its Role): one active manager among the replicas.',
      value: { enabled: true },
    },
    {
      key: 'sharding',
      comment:
        'Sharding (--sharding): with a ring name, every replica (manager.replicas) reconciles and caches its share of the objects; ' +
        "the operator needs the runtime's sharding module (tsop edit --sharding); see the book's sharding guide.",
      value: { ring: /^--sharding=(.*)$/.exec(args.find((a) => a.startsWith('--sharding=')) ?? '')?.[1] ?? '' },
    },
    {
      key: 'rbac',
      comment: namespacedRbac
        ? 'helpers: the admin/editor/viewer roles of each kind, for granting access to users. The manager has a Role in the release namespace (the project is namespaced).'
        : [
            'helpers: the admin/editor/viewer roles of each kind, for granting access to users. namespaced: the',
            'manager watches the release namespace only, with a Role there (rules for cluster-scoped resources',
            'stay in a ClusterRole).',
          ].join(' '),
      value: namespacedRbac ? { helpers: { enabled: false } } : { helpers: { enabled: false }, namespaced: false },
    },
    {
      key: 'serviceAccount',
      comment:
        "The manager's ServiceAccount; enabled: false with name: uses an existing one. annotations: e.g. eks.amazonaws.com/role-arn (IRSA) or iam.gke.io/gcp-service-account (Workload Identity).",
      value: { enabled: true, name: '', annotations: {} },
    },
    {
      key: 'crd',
      comment:
        'CustomResourceDefinitions installed with the chart; keep: left in place on helm uninstall, so custom resources survive it.',
      value: { enabled: true, keep: true },
    },
    {
      key: 'metrics',
      comment: 'The /metrics endpoint: secure serves HTTPS to callers allowed to get /metrics.',
      value: {
        enabled: f.metrics,
        port: Number(metricsPort ?? 8443),
        secure: !args.includes('--metrics-secure=false'),
      },
    },
  ];
  if (f.webhooks) {
    const own = f.selfProvision ? {} : { certSecret: '', caBundle: '' };
    sections.push({
      key: 'webhook',
      comment: f.selfProvision
        ? 'The webhook server (admission and conversion webhooks); the manager makes and renews its own certificate (--webhook-self-provision).'
        : [
            `The webhook server (admission and conversion webhooks). Your own`,
            `certificate${f.certManager ? ' with certManager.enabled=false' : ''}: certSecret names a`,
            `kubernetes.io/tls Secret in the release namespace, caBundle is its CA (base64 PEM) for the API`,
            `server.`,
          ].join(' '),
      value: { enabled: true, port: Number(webhookPort ?? 9443), ...own },
    });
  }
  if (f.certManager) {
    sections.push({
      key: 'certManager',
      comment:
        'cert-manager issues the webhook (and metrics) certificates and injects their CA; needs cert-manager in the cluster.',
      value: { enabled: true },
    });
  }
  sections.push(
    {
      key: 'prometheus',
      comment: 'A ServiceMonitor for the metrics Service; needs the Prometheus operator in the cluster.',
      value: { enabled: false },
    },
    {
      key: 'networkPolicy',
      comment: 'NetworkPolicies that admit metrics (and webhook) traffic only from namespaces labelled for it.',
      value: { enabled: f.networkPolicy },
    },
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
  // Keys a section gained since the file was written go into the user's section, in place.
  const added: string[] = [];
  for (const section of sections.filter((s) => s.key in data))
    addMissingKeys(doc, [section.key], data[section.key], section.value, added);
  const nested = added.length > 0 ? doc.toString({ lineWidth: 0, indentSeq: false }) : existing;
  const missing = sections.filter((s) => !(s.key in data));
  if (missing.length === 0) return { text: nested, added };
  const text = `${nested.replace(/\n*$/, '\n')}\n${missing.map(renderSection).join('\n')}`;
  return { text, added: [...added, ...missing.map((s) => s.key)] };
}

/** Adds to `doc` at `path` every key of `defaults` that `current` (a mapping the user wrote) lacks, recursively. */
function addMissingKeys(doc: Document, path: string[], current: unknown, defaults: Obj, added: string[]): void {
  if (typeof current !== 'object' || current === null || Array.isArray(current)) return; // the user's own shape stands
  for (const [key, value] of Object.entries(defaults)) {
    const mine = (current as Obj)[key];
    if (mine === undefined) {
      doc.setIn([...path, key], doc.createNode(value));
      added.push([...path, key].join('.'));
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      addMissingKeys(doc, [...path, key], mine, value as Obj, added);
    }
  }
}

/** repository, tag and digest of an image reference (`reg:5000/op:1.0@sha256:…`); the port's ':' is no tag. */
function imageParts(image: string): { repository: string; tag: string; digest: string } {
  const at = image.indexOf('@');
  const digest = at >= 0 ? image.slice(at + 1) : '';
  const name = at >= 0 ? image.slice(0, at) : image;
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/')
    ? { repository: name.slice(0, colon), tag: name.slice(colon + 1), digest }
    : { repository: name, tag: '', digest };
}
