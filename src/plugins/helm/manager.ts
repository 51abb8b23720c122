/**
 * The manager Deployment as a chart template: what values.yaml offers (replicas, image, resources,
 * security contexts, scheduling, leader election, metrics, webhook port and certificates) is read
 * from values; everything else (the command, probes, environment such as deploy-image's
 * `<KIND>_IMAGE`, other volumes) stays as the kustomize output has it.
 */
import type { ChartFeatures, KubeObject } from './manifests.js';
import type { ReleaseNames } from './names.js';
import { yamlLines, type HelmTemplate } from './template.js';

type Obj = Record<string, unknown>;

/** Flags the chart writes from values; the manager's other arguments are kept as they are. */
const MANAGED_ARGS = /^--(metrics-bind-address|metrics-secure|leader-elect|webhook-cert-path)(=|$)|^--sharding=/;
const CERT_VOLUME = 'webhook-certs';

export function managerTemplate(o: KubeObject, tpl: HelmTemplate, names: ReleaseNames, f: ChartFeatures): string {
  const spec = o['spec'] as Obj;
  const pod = spec['template'] as { metadata?: Obj; spec: Obj };
  const podSpec = pod.spec;
  const containers = podSpec['containers'] as Obj[];
  const manager = containers.find((c) => c['name'] === 'manager') ?? containers[0]!;
  const certs = f.webhooks && f.certManager;
  const certsOn = 'and .Values.webhook.enabled .Values.certManager.enabled';

  spec['replicas'] = tpl.value('{{ .Values.manager.replicas }}');
  spec[tpl.block((indent) => ['{{- with .Values.manager.strategy }}', `strategy: {{- toYaml . | nindent ${indent + 2} }}`, '{{- end }}'])] = '';
  // Extra pod labels and annotations; the selector's labels stay as they are (it is immutable).
  const podMeta = (pod.metadata ??= {});
  for (const [field, value] of [['labels', 'podLabels'], ['annotations', 'podAnnotations']] as const) {
    const own = (podMeta[field] as Obj | undefined) ?? {};
    podMeta[field] = { ...own, [tpl.block((indent) => [`{{- with .Values.manager.${value} }}{{ toYaml . | nindent ${indent} }}{{- end }}`])]: '' };
  }
  const args = ((manager['args'] as string[] | undefined) ?? []).filter((a) => !MANAGED_ARGS.test(a));
  delete manager['args'];
  manager[tpl.block(() => [
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
    ...(certs ? [`{{- if ${certsOn} }}`, '- --webhook-cert-path=/tmp/k8s-webhook-server/serving-certs', '{{- end }}'] : []),
    '{{- range .Values.manager.args }}',
    '- {{ . | quote }}',
    '{{- end }}',
  ])] = '';
  manager['image'] = tpl.value('"{{ .Values.manager.image.repository }}:{{ .Values.manager.image.tag | default .Chart.AppVersion }}"');
  manager['imagePullPolicy'] = tpl.value('{{ .Values.manager.image.pullPolicy }}');
  // Environment of the scaffold (deploy-image's <KIND>_IMAGE, WATCH_NAMESPACE) first, then the user's.
  const envVars = (manager['env'] as Obj[] | undefined) ?? [];
  delete manager['env'];
  manager[tpl.block((indent) => [
    ...(envVars.length > 0 ? ['env:', ...yamlLines(names.deep(envVars))] : ['{{- if .Values.manager.env }}', 'env:', '{{- end }}']),
    `{{- with .Values.manager.env }}{{ toYaml . | nindent ${indent} }}{{- end }}`,
  ])] = '';

  // The webhook server's port follows values; other ports stay.
  const ports = ((manager['ports'] as Obj[] | undefined) ?? []).filter((p) => p['name'] !== 'webhook-server');
  delete manager['ports'];
  if (ports.length > 0 || f.webhooks) {
    manager[tpl.block(() => [
      'ports:',
      ...(ports.length > 0 ? yamlLines(ports) : []),
      ...(f.webhooks ? ['{{- if .Values.webhook.enabled }}', '- containerPort: {{ .Values.webhook.port }}', '  name: webhook-server', '  protocol: TCP', '{{- end }}'] : []),
    ])] = '';
  }
  for (const [field, value] of [['resources', 'resources'], ['securityContext', 'securityContext']] as const) {
    delete manager[field];
    manager[tpl.block((indent) => [`${field}:`, `{{- toYaml .Values.manager.${value} | nindent ${indent + 2} }}`])] = '';
  }
  const mounts = ((manager['volumeMounts'] as Obj[] | undefined) ?? []).filter((m) => m['name'] !== CERT_VOLUME);
  delete manager['volumeMounts'];
  if (mounts.length > 0 || certs) {
    manager[tpl.block(() => [
      'volumeMounts:',
      ...(mounts.length > 0 ? yamlLines(names.deep(mounts)) : []),
      ...(certs ? [`{{- if ${certsOn} }}`, '- mountPath: /tmp/k8s-webhook-server/serving-certs', `  name: ${CERT_VOLUME}`, '  readOnly: true', '{{- end }}'] : []),
    ])] = '';
  }

  const volumes = ((podSpec['volumes'] as Obj[] | undefined) ?? []).filter((v) => v['name'] !== CERT_VOLUME);
  delete podSpec['volumes'];
  if (volumes.length > 0 || certs) {
    podSpec[tpl.block(() => [
      'volumes:',
      ...(volumes.length > 0 ? yamlLines(names.deep(volumes)) : []),
      ...(certs ? [`{{- if ${certsOn} }}`, `- name: ${CERT_VOLUME}`, '  secret:', '    secretName: webhook-server-cert', '{{- end }}'] : []),
    ])] = '';
  }
  delete podSpec['securityContext'];
  podSpec[tpl.block((indent) => ['securityContext:', `{{- toYaml .Values.manager.podSecurityContext | nindent ${indent + 2} }}`])] = '';
  for (const field of ['nodeSelector', 'affinity', 'tolerations', 'topologySpreadConstraints', 'imagePullSecrets']) {
    delete podSpec[field];
    podSpec[tpl.block((indent) => [`{{- with .Values.manager.${field} }}`, `${field}: {{- toYaml . | nindent ${indent + 2} }}`, '{{- end }}'])] = '';
  }
  delete podSpec['priorityClassName'];
  podSpec[tpl.block(() => ['{{- with .Values.manager.priorityClassName }}', 'priorityClassName: {{ . | quote }}', '{{- end }}'])] = '';
  podSpec['terminationGracePeriodSeconds'] = tpl.value('{{ .Values.manager.terminationGracePeriodSeconds }}');

  const { apiVersion, kind, metadata, ...rest } = o;
  const labels = names.labels(metadata.labels);
  const meta = { ...(names.deep(metadata) as Obj), labels, namespace: tpl.value('{{ .Release.Namespace }}') };
  return tpl.render({ apiVersion, kind, metadata: meta, ...(names.deep(rest) as Obj) }, '.Values.manager.enabled');
}
