/**
 * One chart template per object of the kustomize output, laid out like config/ (crd/, rbac/,
 * manager/, metrics/, webhook/, cert-manager/, prometheus/, network-policy/, extras/). RULES says,
 * for each kind of object, where its template goes and which value switches it on or off; the
 * first matching rule wins. Every object gets the release's names (names.ts) and Helm's labels.
 */
import type { ClusterScoped } from '../../project/cluster-scope.js';
import { disruptionBudgetTemplate, managerTemplate } from './manager.js';
import type { ChartFeatures, ChartLayout, KubeObject } from './manifests.js';
import { ReleaseNames } from './names.js';
import { namespacedManagerRbac } from './rbac.js';
import { HelmTemplate } from './template.js';

export interface ChartFile {
  path: string;
  content: string;
}

interface Rule {
  /** Directory under templates/. */
  dir: string;
  match(o: KubeObject, suffix: string): boolean;
  /** The `if` around the template; none = always rendered. */
  condition?(f: ChartFeatures): string | undefined;
  /** Changes beyond names and labels (values in place of fixed ports, keep-on-uninstall, ...). */
  edit?(o: KubeObject, tpl: HelmTemplate, names: ReleaseNames, f: ChartFeatures): void;
}

const isRbac = (o: KubeObject): boolean => o.apiVersion.startsWith('rbac.authorization.k8s.io/');
const metricsOn = '.Values.metrics.enabled .Values.metrics.secure';

const RULES: Rule[] = [
  {
    dir: 'crd',
    match: (o) => o.kind === 'CustomResourceDefinition',
    condition: () => '.Values.crd.enabled',
    edit(o, tpl) {
      // Uninstalling a release must not delete every custom resource of the kind with it.
      o.metadata.annotations = {
        [tpl.block(() => ['{{- if .Values.crd.keep }}', '"helm.sh/resource-policy": keep', '{{- end }}'])]: '',
        ...o.metadata.annotations,
      };
    },
  },
  {
    dir: 'rbac',
    match: (o) => o.kind === 'ServiceAccount',
    condition: () => 'ne .Values.serviceAccount.enabled false',
    edit(o, tpl) {
      // IRSA, Workload Identity and the like: annotations on the manager's account.
      o.metadata.annotations = {
        ...o.metadata.annotations,
        [tpl.block((indent) => [
          `{{- with .Values.serviceAccount.annotations }}{{ toYaml . | nindent ${indent} }}{{- end }}`,
        ])]: '',
      };
    },
  },
  {
    dir: 'rbac',
    match: (o, s) => isRbac(o) && s.startsWith('leader-election-'),
    condition: () => '.Values.leaderElection.enabled',
  },
  {
    dir: 'rbac',
    match: (o, s) => isRbac(o) && /^metrics-(auth-role|auth-rolebinding|reader)$/.test(s),
    condition: () => `and ${metricsOn}`,
  },
  {
    dir: 'rbac',
    match: (o, s) => isRbac(o) && /-(admin|editor|viewer)-role$/.test(s),
    condition: () => '.Values.rbac.helpers.enabled',
  },
  { dir: 'rbac', match: isRbac },
  {
    dir: 'manager',
    match: (o, s) => o.kind === 'Deployment' && s === 'controller-manager',
    condition: () => '.Values.manager.enabled',
  },
  {
    dir: 'metrics',
    match: (o, s) => o.kind === 'Service' && s.endsWith('metrics-service'),
    condition: () => '.Values.metrics.enabled',
    edit(o, tpl) {
      const ports = (o['spec'] as { ports?: Record<string, unknown>[] }).ports ?? [];
      for (const p of ports) {
        p['name'] = tpl.value('{{ if .Values.metrics.secure }}https{{ else }}http{{ end }}');
        p['port'] = tpl.value('{{ .Values.metrics.port }}');
        p['targetPort'] = tpl.value('{{ .Values.metrics.port }}');
      }
    },
  },
  {
    dir: 'webhook',
    match: (o, s) => o.kind === 'Service' && s.endsWith('webhook-service'),
    condition: () => '.Values.webhook.enabled',
    edit(o, tpl) {
      for (const p of (o['spec'] as { ports?: Record<string, unknown>[] }).ports ?? [])
        p['targetPort'] = tpl.value('{{ .Values.webhook.port }}');
    },
  },
  {
    dir: 'webhook',
    match: (o) => o.kind === 'MutatingWebhookConfiguration' || o.kind === 'ValidatingWebhookConfiguration',
    condition: () => '.Values.webhook.enabled',
    edit(o, tpl, _names, f) {
      // Your own certificate (webhook.certSecret): its CA, from values, is what the API server trusts.
      if (f.selfProvision) return;
      const on = `.Values.webhook.caBundle${f.certManager ? ' (not .Values.certManager.enabled)' : ''}`;
      for (const hook of (o['webhooks'] as Array<{ clientConfig?: Record<string, unknown> }> | undefined) ?? []) {
        hook.clientConfig = {
          ...hook.clientConfig,
          [tpl.block(() => [`{{- if and ${on} }}`, 'caBundle: {{ .Values.webhook.caBundle | quote }}', '{{- end }}'])]:
            '',
        };
      }
    },
  },
  {
    dir: 'cert-manager',
    match: (o) => o.apiVersion.startsWith('cert-manager.io/') && o.kind === 'Issuer',
    condition: () => '.Values.certManager.enabled',
  },
  {
    dir: 'cert-manager',
    match: (o, s) => o.apiVersion.startsWith('cert-manager.io/') && s.startsWith('metrics'),
    condition: () => `and .Values.certManager.enabled ${metricsOn}`,
    edit(o, tpl, names) {
      // config/certmanager leaves the metrics Service's name as a placeholder unless the metrics
      // certificate is switched on in config/default; the chart knows it.
      const svc = names.resource('controller-manager-metrics-service');
      const spec = o['spec'] as { dnsNames?: string[] };
      spec.dnsNames = [
        tpl.value(`${svc}.{{ .Release.Namespace }}.svc`),
        tpl.value(`${svc}.{{ .Release.Namespace }}.svc.cluster.local`),
      ];
    },
  },
  {
    dir: 'cert-manager',
    match: (o) => o.apiVersion.startsWith('cert-manager.io/'),
    condition: (f) =>
      f.webhooks ? 'and .Values.certManager.enabled .Values.webhook.enabled' : '.Values.certManager.enabled',
  },
  { dir: 'prometheus', match: (o) => o.kind === 'ServiceMonitor', condition: () => '.Values.prometheus.enabled' },
  {
    dir: 'network-policy',
    match: (o) => o.kind === 'NetworkPolicy',
    condition: () => '.Values.networkPolicy.enabled',
  },
  { dir: 'extras', match: () => true },
];

/**
 * The chart templates of `objects`, one file each, in the order of the kustomize output (the
 * manager's PodDisruptionBudget beside its Deployment). `clusterScoped`, given for a project that
 * watches every namespace, lets the chart install it namespaced (rbac.namespaced).
 */
export function objectTemplates(
  objects: KubeObject[],
  layout: ChartLayout,
  features: ChartFeatures,
  clusterScoped?: ClusterScoped,
): ChartFile[] {
  const used = new Set<string>();
  const managerRole = objects.find(
    (o) => o.kind === 'ClusterRole' && o.metadata.name === `${layout.prefix}manager-role`,
  );
  return objects.flatMap((original) => {
    const o = structuredClone(original);
    const tpl = new HelmTemplate();
    const names = new ReleaseNames(tpl, layout);
    const suffix = names.suffix(o.metadata.name);
    const rule = RULES.find((r) => r.match(o, suffix))!;
    const base = o.kind === 'CustomResourceDefinition' ? o.metadata.name : rule.dir === 'manager' ? 'manager' : suffix;
    let file = `${rule.dir}/${base}.yaml`;
    if (used.has(file)) file = file.replace(/\.yaml$/, `-${o.kind.toLowerCase()}.yaml`);
    used.add(file);
    if (rule.dir === 'manager') {
      const pdb = new HelmTemplate();
      return [
        {
          path: file,
          content: managerTemplate(o, tpl, names, features, { namespacedOption: clusterScoped !== undefined }),
        },
        {
          path: 'manager/pod-disruption-budget.yaml',
          content: disruptionBudgetTemplate(o, pdb, new ReleaseNames(pdb, layout)),
        },
      ];
    }
    // The manager's own ClusterRole and its binding become a Role and RoleBinding with rbac.namespaced.
    if (
      clusterScoped &&
      (suffix === 'manager-role' || suffix === 'manager-rolebinding') &&
      (o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding')
    ) {
      return [{ path: file, content: namespacedManagerRbac(o, layout, clusterScoped, managerRole) }];
    }

    rule.edit?.(o, tpl, names, features);
    certManagerAnnotation(o, tpl, names);
    const { metadata, ...rest } = o;
    const isCrd = o.kind === 'CustomResourceDefinition';
    const account = o.kind === 'ServiceAccount' && metadata.name === layout.serviceAccount;
    const renamed = {
      ...(isCrd ? rest : (names.deep(rest) as object)),
      metadata: {
        ...(names.deep(metadata) as object),
        ...(account ? { name: names.helper('serviceAccountName') } : {}),
        ...(metadata.labels || !isCrd ? { labels: names.labels(metadata.labels) } : {}),
        ...(metadata.namespace ? { namespace: tpl.value('{{ .Release.Namespace }}') } : {}),
      },
    } as Record<string, unknown>;
    // A CRD's schema is the user's text; only its conversion webhook names release objects.
    const conversion = (rest as { spec?: { conversion?: unknown } }).spec?.conversion;
    if (isCrd && conversion)
      renamed['spec'] = { ...((rest as { spec?: object }).spec ?? {}), conversion: names.deep(conversion) };
    return [{ path: file, content: tpl.render(ordered(renamed), rule.condition?.(features)) }];
  });
}

/** cert-manager's CA injection only makes sense while cert-manager issues the certificates. */
function certManagerAnnotation(o: KubeObject, tpl: HelmTemplate, names: ReleaseNames): void {
  const key = 'cert-manager.io/inject-ca-from';
  const value = o.metadata.annotations?.[key];
  if (value === undefined) return;
  const rest = Object.fromEntries(Object.entries(o.metadata.annotations ?? {}).filter(([k]) => k !== key));
  const renamed = names.string(value);
  o.metadata.annotations = {
    ...rest,
    [tpl.block(() => ['{{- if .Values.certManager.enabled }}', `${key}: ${renamed}`, '{{- end }}'])]: '',
  };
}

/** apiVersion, kind, metadata first, as kubectl prints objects. */
function ordered(o: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion, kind, metadata, ...rest } = o;
  return { apiVersion, kind, metadata, ...rest };
}
