/**
 * The manager Deployment as a chart template: what values.yaml offers (replicas, image by tag or
 * digest, resources, security contexts, scheduling, priority class, extra volumes, leader election,
 * metrics, webhook port and certificates, the namespace it watches) is read from values; everything
 * else (the command, probes, environment such as deploy-image's `<KIND>_IMAGE`, other volumes)
 * stays as the kustomize output has it. Its pods carry the release's instance label, which NOTES.txt
 * and the PodDisruptionBudget select on.
 */
import type { ChartFeatures, KubeObject } from './manifests.js';
import type { ReleaseNames } from './names.js';
import { yamlLines, type HelmTemplate } from './template.js';

type Obj = Record<string, unknown>;

/** Flags the chart writes from values; the manager's other arguments are kept as they are. */
const MANAGED_ARGS = /^--(metrics-bind-address|metrics-secure|leader-elect|webhook-cert-path)(=|$)|^--sharding=/;
const CERT_VOLUME = 'webhook-certs';

/**
 * The manager's image: `repository@digest` when a digest is set; a repository that already holds a
 * tag or digest (`--set manager.image.repository=$IMG`) as it is; else `repository:tag`, the tag
 * defaulting to the chart's appVersion. (`repository` ending in `@sha256` with the digest's hex as
 * tag is what an older helm-deploy script passed for a digest.)
 */
const IMAGE =
  '"{{ $i := .Values.manager.image }}{{ if $i.digest }}{{ $i.repository }}@{{ $i.digest }}' +
  '{{ else if regexMatch `@[A-Za-z0-9_+.-]+$` $i.repository }}{{ $i.repository }}:{{ $i.tag }}' +
  '{{ else if regexMatch `@|:[^/]*$` $i.repository }}{{ $i.repository }}' +
  '{{ else }}{{ $i.repository }}:{{ $i.tag | default $.Chart.AppVersion }}{{ end }}"';

export interface ManagerOptions {
  /** The project watches every namespace, so the chart may install it namespaced (rbac.namespaced). */
  namespacedOption: boolean;
}

export function managerTemplate(
  o: KubeObject,
  tpl: HelmTemplate,
  names: ReleaseNames,
  f: ChartFeatures,
  opts: ManagerOptions = { namespacedOption: false },
): string {
  const spec = o['spec'] as Obj;
  const pod = spec['template'] as { metadata?: Obj; spec: Obj };
  const podSpec = pod.spec;
  const containers = podSpec['containers'] as Obj[];
  const manager = containers.find((c) => c['name'] === 'manager') ?? containers[0]!;
  const certs = f.webhooks && f.certManager;
  const certsOn = 'and .Values.webhook.enabled .Values.certManager.enabled';
  // Your own certificate: a Secret named in values, when neither cert-manager nor the manager itself makes one.
  const ownCert = f.webhooks && !f.selfProvision;
  const ownCertOn = `and .Values.webhook.enabled .Values.webhook.certSecret${f.certManager ? ' (not .Values.certManager.enabled)' : ''}`;

  spec['replicas'] = tpl.value('{{ .Values.manager.replicas }}');
  spec[
    tpl.block((indent) => [
      '{{- with .Values.manager.strategy }}',
      `strategy: {{- toYaml . | nindent ${indent + 2} }}`,
      '{{- end }}',
    ])
  ] = '';
  // Extra pod labels and annotations; the selector's labels stay as they are (it is immutable). The
  // instance label lets `kubectl get pods -l app.kubernetes.io/instance=<release>` find the pods.
  const podMeta = (pod.metadata ??= {});
  for (const [field, value] of [
    ['labels', 'podLabels'],
    ['annotations', 'podAnnotations'],
  ] as const) {
    const own = (podMeta[field] as Obj | undefined) ?? {};
    const instance = field === 'labels' ? { 'app.kubernetes.io/instance': tpl.value('{{ .Release.Name }}') } : {};
    podMeta[field] = {
      ...own,
      ...instance,
      [tpl.block((indent) => [`{{- with .Values.manager.${value} }}{{ toYaml . | nindent ${indent} }}{{- end }}`])]: '',
    };
  }
  const args = ((manager['args'] as string[] | undefined) ?? []).filter((a) => !MANAGED_ARGS.test(a));
  delete manager['args'];
  manager[
    tpl.block(() => [
      'args:',
      '{{- if .Values.metrics.enabled }}',
      '- --metrics-bind-address=:{{ .Values.metrics.port }}',
      '{{- if not .Values.metrics.secure }}',
      '- --metrics-secure=false',
      '{{- end }}',
      '{{- end }}',
      // Kept arguments may name release objects (--webhook-service-name=<prefix>webhook-service).
      ...args.map((a) => `- ${JSON.stringify(names.string(a))}`),
      '{{- if .Values.leaderElection.enabled }}',
      '- --leader-elect',
      '{{- end }}',
      // A chart written before the sharding value existed may lack the section.
      '{{- with .Values.sharding }}{{- with .ring }}',
      '- --sharding={{ . }}',
      '{{- end }}{{- end }}',
      ...(certs
        ? [`{{- if ${certsOn} }}`, '- --webhook-cert-path=/tmp/k8s-webhook-server/serving-certs', '{{- end }}']
        : []),
      ...(ownCert
        ? [`{{- if ${ownCertOn} }}`, '- --webhook-cert-path=/tmp/k8s-webhook-server/serving-certs', '{{- end }}']
        : []),
      '{{- range .Values.manager.args }}',
      '- {{ . | quote }}',
      '{{- end }}',
    ])
  ] = '';
  manager['image'] = tpl.value(IMAGE);
  manager['imagePullPolicy'] = tpl.value('{{ .Values.manager.image.pullPolicy }}');
  // Environment of the scaffold (deploy-image's <KIND>_IMAGE, WATCH_NAMESPACE) first, then the user's.
  const envVars = (manager['env'] as Obj[] | undefined) ?? [];
  delete manager['env'];
  // A cluster-wide project installed namespaced watches the release namespace only (WATCH_NAMESPACE).
  const watchNamespace = opts.namespacedOption
    ? [
        '{{- if .Values.rbac.namespaced }}',
        '- name: WATCH_NAMESPACE',
        '  value: {{ .Release.Namespace | quote }}',
        '{{- end }}',
      ]
    : [];
  const envCondition = ['.Values.manager.env', ...(opts.namespacedOption ? ['.Values.rbac.namespaced'] : [])];
  manager[
    tpl.block((indent) => [
      ...(envVars.length > 0
        ? ['env:', ...yamlLines(names.deep(envVars))]
        : [
            `{{- if ${envCondition.length > 1 ? `or ${envCondition.join(' ')}` : envCondition[0]} }}`,
            'env:',
            '{{- end }}',
          ]),
      ...watchNamespace,
      `{{- with .Values.manager.env }}{{ toYaml . | nindent ${indent} }}{{- end }}`,
    ])
  ] = '';

  // The webhook server's port follows values; other ports stay.
  const ports = ((manager['ports'] as Obj[] | undefined) ?? []).filter((p) => p['name'] !== 'webhook-server');
  delete manager['ports'];
  if (ports.length > 0 || f.webhooks) {
    manager[
      tpl.block(() => [
        'ports:',
        ...(ports.length > 0 ? yamlLines(ports) : []),
        ...(f.webhooks
          ? [
              '{{- if .Values.webhook.enabled }}',
              '- containerPort: {{ .Values.webhook.port }}',
              '  name: webhook-server',
              '  protocol: TCP',
              '{{- end }}',
            ]
          : []),
      ])
    ] = '';
  }
  for (const [field, value] of [
    ['resources', 'resources'],
    ['securityContext', 'securityContext'],
  ] as const) {
    delete manager[field];
    manager[tpl.block((indent) => [`${field}:`, `{{- toYaml .Values.manager.${value} | nindent ${indent + 2} }}`])] =
      '';
  }
  // The kustomize output's mounts and volumes, the webhook certificate's (cert-manager's Secret or
  // your own), then extraVolumeMounts / extraVolumes from values.
  const certConditions = [...(certs ? [certsOn] : []), ...(ownCert ? [ownCertOn] : [])];
  const certCondition = certConditions.length > 1 ? `or (${certConditions.join(') (')})` : certConditions[0];
  const mounts = ((manager['volumeMounts'] as Obj[] | undefined) ?? []).filter((m) => m['name'] !== CERT_VOLUME);
  delete manager['volumeMounts'];
  manager[
    tpl.block((indent) =>
      listBlock(
        'volumeMounts',
        indent,
        mounts.length > 0 ? yamlLines(names.deep(mounts)) : [],
        certCondition,
        ['- mountPath: /tmp/k8s-webhook-server/serving-certs', `  name: ${CERT_VOLUME}`, '  readOnly: true'],
        '.Values.manager.extraVolumeMounts',
      ),
    )
  ] = '';

  const volumes = ((podSpec['volumes'] as Obj[] | undefined) ?? []).filter((v) => v['name'] !== CERT_VOLUME);
  delete podSpec['volumes'];
  const secretName = [
    ...(certs ? [`{{- if ${certsOn} }}`, '    secretName: webhook-server-cert'] : []),
    ...(ownCert
      ? [certs ? '{{- else }}' : `{{- if ${ownCertOn} }}`, '    secretName: {{ .Values.webhook.certSecret | quote }}']
      : []),
    '{{- end }}',
  ];
  podSpec[
    tpl.block((indent) =>
      listBlock(
        'volumes',
        indent,
        volumes.length > 0 ? yamlLines(names.deep(volumes)) : [],
        certCondition,
        [`- name: ${CERT_VOLUME}`, '  secret:', ...secretName],
        '.Values.manager.extraVolumes',
      ),
    )
  ] = '';
  delete podSpec['securityContext'];
  podSpec[
    tpl.block((indent) => [
      'securityContext:',
      `{{- toYaml .Values.manager.podSecurityContext | nindent ${indent + 2} }}`,
    ])
  ] = '';
  for (const field of ['nodeSelector', 'affinity', 'tolerations', 'topologySpreadConstraints', 'imagePullSecrets']) {
    delete podSpec[field];
    podSpec[
      tpl.block((indent) => [
        `{{- with .Values.manager.${field} }}`,
        `${field}: {{- toYaml . | nindent ${indent + 2} }}`,
        '{{- end }}',
      ])
    ] = '';
  }
  delete podSpec['priorityClassName'];
  podSpec[
    tpl.block(() => [
      '{{- with .Values.manager.priorityClassName }}',
      'priorityClassName: {{ . | quote }}',
      '{{- end }}',
    ])
  ] = '';
  podSpec['terminationGracePeriodSeconds'] = tpl.value('{{ .Values.manager.terminationGracePeriodSeconds }}');

  const { apiVersion, kind, metadata, ...rest } = o;
  const labels = names.labels(metadata.labels);
  const meta = { ...(names.deep(metadata) as Obj), labels, namespace: tpl.value('{{ .Release.Namespace }}') };
  return tpl.render({ apiVersion, kind, metadata: meta, ...(names.deep(rest) as Obj) }, '.Values.manager.enabled');
}

/**
 * A list field (`volumes:`, `volumeMounts:`) of fixed entries, entries under a condition, and the
 * user's extra ones from values; the key is written only when some entry is.
 */
function listBlock(
  key: string,
  indent: number,
  fixed: string[],
  condition: string | undefined,
  conditional: string[],
  extra: string,
): string[] {
  const when = fixed.length > 0 ? [] : [`{{- if or ${[...(condition ? [`(${condition})`] : []), extra].join(' ')} }}`];
  return [
    ...when,
    `${key}:`,
    ...fixed,
    ...(condition ? [`{{- if ${condition} }}`, ...conditional, '{{- end }}'] : []),
    `{{- with ${extra} }}{{ toYaml . | nindent ${indent} }}{{- end }}`,
    ...(when.length > 0 ? ['{{- end }}'] : []),
  ];
}

/** The manager's PodDisruptionBudget (manager.podDisruptionBudget), selecting its pods as its Deployment does. */
export function disruptionBudgetTemplate(o: KubeObject, tpl: HelmTemplate, names: ReleaseNames): string {
  const selector = ((o['spec'] as Obj)['selector'] as Obj | undefined) ?? {};
  const budget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: tpl.value(names.resource('controller-manager')),
      namespace: tpl.value('{{ .Release.Namespace }}'),
      labels: names.labels({}),
    },
    spec: {
      [tpl.block(() => [
        '{{- with .Values.manager.podDisruptionBudget }}',
        '{{- if hasKey . "maxUnavailable" }}',
        'maxUnavailable: {{ .maxUnavailable }}',
        '{{- else }}',
        'minAvailable: {{ .minAvailable | default 1 }}',
        '{{- end }}',
        '{{- end }}',
      ])]: '',
      selector: names.deep(selector),
    },
  };
  return tpl.render(budget, 'and .Values.manager.enabled .Values.manager.podDisruptionBudget.enabled');
}
