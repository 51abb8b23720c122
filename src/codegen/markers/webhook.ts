/**
 * `@Webhook` on a defaulter or validator class (`+kubebuilder:webhook`), `@WebhookConfiguration`
 * beside it (`+kubebuilder:webhookconfiguration`), and `@Hub()` on the hub version of a kind (a Go
 * type's `Hub()` method): the admission webhooks `tsop manifests` writes to
 * config/webhook/manifests.yaml, the names of their two configurations, and the version
 * conversion goes through.
 */
import type { JSONValue, WebhookOptions } from '../../../runtime/shapes/index.js';
import type { LabelSelector, WebhookEntry } from '../marker-outputs.js';
import { none, options, type ArgShape } from './args.js';
import { kindMarker, webhookMarker, type MarkerDef } from './define.js';

/** `@Webhook`'s argument as written (runtime/shapes), before the checks below: any verbs and versions. */
interface WebhookArgs extends Omit<WebhookOptions, 'verbs' | 'webhookVersions'> {
  verbs: string[];
  webhookVersions?: string[];
}

const SCALARS = options<WebhookArgs>({
  path: { type: 'string' },
  url: { type: 'string' },
  serviceName: { type: 'string' },
  serviceNamespace: { type: 'string' },
  servicePort: { type: 'integer' },
  webhookVersions: { type: 'string[]' },
  mutating: { type: 'boolean', required: true },
  failurePolicy: { type: ['fail', 'ignore', 'Fail', 'Ignore'], required: true },
  sideEffects: { type: ['None', 'NoneOnDryRun', 'Some', 'Unknown'], required: true },
  groups: { type: 'string[]', required: true },
  resources: { type: 'string[]', required: true },
  verbs: { type: 'string[]', required: true },
  versions: { type: 'string[]', required: true },
  name: { type: 'string', required: true },
  admissionReviewVersions: { type: 'string[]', required: true },
  matchPolicy: { type: ['Exact', 'Equivalent'] },
  reinvocationPolicy: { type: ['Never', 'IfNeeded'] },
  timeoutSeconds: { type: 'integer' },
  namespaceSelector: { type: 'selector' as never },
  objectSelector: { type: 'selector' as never },
});

/** The options object; the two selectors are label selectors, checked here, the rest by `options`. */
const webhookArgs: ArgShape<WebhookArgs> = {
  usage: SCALARS.usage.replace(/: selector/g, ': LabelSelector'),
  parse(args) {
    const v = args[0];
    if (args.length !== 1 || typeof v !== 'object' || v === null || Array.isArray(v))
      return { ok: false, error: `takes one options object ${webhookArgs.usage.slice(1, -1)}` };
    const rest: Record<string, JSONValue> = { ...v };
    const selectors: Partial<Record<'namespaceSelector' | 'objectSelector', LabelSelector>> = {};
    for (const key of ['namespaceSelector', 'objectSelector'] as const) {
      if (rest[key] === undefined) continue;
      const s = selector(rest[key]);
      if (typeof s === 'string') return { ok: false, error: `option '${key}' ${s}` };
      selectors[key] = s;
      delete rest[key];
    }
    const parsed = SCALARS.parse([rest]);
    return parsed.ok ? { ok: true, value: { ...parsed.value, ...selectors } } : parsed;
  },
};

function selector(v: JSONValue | undefined): LabelSelector | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'must be a label selector { matchLabels?, matchExpressions? }';
  for (const key of Object.keys(v))
    if (key !== 'matchLabels' && key !== 'matchExpressions')
      return `has unknown key '${key}'; a label selector has matchLabels and matchExpressions`;
  const labels = v['matchLabels'];
  if (
    labels !== undefined &&
    (typeof labels !== 'object' ||
      labels === null ||
      Array.isArray(labels) ||
      Object.values(labels).some((x) => typeof x !== 'string'))
  ) {
    return 'matchLabels must map label keys to strings';
  }
  const exprs = v['matchExpressions'];
  if (exprs !== undefined) {
    const good =
      Array.isArray(exprs) &&
      exprs.every(
        (e) =>
          typeof e === 'object' &&
          e !== null &&
          !Array.isArray(e) &&
          typeof e['key'] === 'string' &&
          ['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(e['operator'] as string),
      );
    if (!good)
      return "matchExpressions must be a list of { key, operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist', values? }";
  }
  return v as LabelSelector;
}

const VERBS = new Set(['create', 'update', 'delete', 'connect', '*']);
/** The API server wants a fully qualified name: at least three DNS labels (`mpod-v1.kb.io`). */
const QUALIFIED = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?){2,}$/;

/** A Service name (RFC 1035 label) and a namespace (RFC 1123 label), as the API server checks them. */
const SERVICE_NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** An object name: an RFC 1123 subdomain of at most 253 characters. */
const OBJECT_NAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Where the API server calls the webhook: `path` behind a Service, or `url`; why not, as a message. */
function clientConfig(v: WebhookArgs): Pick<WebhookEntry, 'path' | 'url' | 'service'> | string {
  if ((v.path === undefined) === (v.url === undefined)) {
    return v.path === undefined
      ? "@Webhook: give path (served by the manager behind the webhook Service, e.g. '/mutate-cache-example-com-v1alpha1-memcached') or url (called at that address)"
      : '@Webhook: path and url exclude each other: path is served behind the webhook Service, url is called directly; keep one';
  }
  if (v.url !== undefined) {
    const extra = (['serviceName', 'serviceNamespace', 'servicePort'] as const).find((k) => v[k] !== undefined);
    if (extra)
      return `@Webhook: ${extra} applies to a webhook reached through a Service (path), not to one called at url; drop ${extra} or use path`;
    let url: URL;
    try {
      url = new URL(v.url);
    } catch {
      return `@Webhook: url '${v.url}' is not a URL; write it as https://host[:port]/path`;
    }
    // The API server's own rules for clientConfig.url.
    if (url.protocol !== 'https:')
      return `@Webhook: url '${v.url}' must use https (the API server calls webhooks over TLS only)`;
    if (url.username || url.password)
      return `@Webhook: url '${v.url}' must not carry a user or password; the API server refuses them`;
    if (url.search || url.hash || v.url.includes('?') || v.url.includes('#'))
      return `@Webhook: url '${v.url}' must not have a query or a fragment; the API server refuses them`;
    return { url: v.url };
  }
  const path = v.path!;
  if (!path.startsWith('/')) return `@Webhook: path '${path}' must start with '/'`;
  if (v.serviceName !== undefined && !SERVICE_NAME.test(v.serviceName))
    return `@Webhook: serviceName '${v.serviceName}' is not a Service name (lowercase letters, digits and '-', starting with a letter, at most 63)`;
  if (v.serviceNamespace !== undefined && !NAMESPACE.test(v.serviceNamespace))
    return `@Webhook: serviceNamespace '${v.serviceNamespace}' is not a namespace name (lowercase letters, digits and '-', at most 63)`;
  if (v.servicePort !== undefined && (v.servicePort < 1 || v.servicePort > 65535))
    return `@Webhook: servicePort ${v.servicePort} must be between 1 and 65535`;
  const service = { name: v.serviceName, namespace: v.serviceNamespace, port: v.servicePort };
  return v.serviceName === undefined && v.serviceNamespace === undefined && v.servicePort === undefined
    ? { path }
    : { path, service };
}

export const WEBHOOK_MARKERS: MarkerDef[] = [
  webhookMarker<WebhookArgs>({
    name: 'Webhook',
    controllerGen: '+kubebuilder:webhook',
    args: webhookArgs,
    doc:
      'An admission webhook served at path behind the webhook Service (serviceName, ' +
      "serviceNamespace and servicePort override kustomize's webhook-service in system on 443), " +
      'or called at url; written to config/webhook/manifests.yaml (mutating: true for a ' +
      'defaulter, false for a validator).',
    example:
      "@Webhook({ path: '/mutate-cache-example-com-v1alpha1-memcached', mutating: true, " +
      "failurePolicy: 'fail', sideEffects: 'None', groups: ['cache.example.com'], resources: " +
      "['memcacheds'], verbs: ['create', 'update'], versions: ['v1alpha1'], name: " +
      "'mmemcached-v1alpha1.kb.io', admissionReviewVersions: ['v1'] })",
    apply(set, v) {
      const target = clientConfig(v);
      if (typeof target === 'string') return target;
      const badVersion = v.webhookVersions?.find((x) => x !== 'v1');
      if (badVersion !== undefined)
        return `@Webhook: webhookVersions '${badVersion}' is not supported; admissionregistration.k8s.io/v1 is the only version written (drop webhookVersions or say ['v1'])`;
      if (!QUALIFIED.test(v.name))
        return `@Webhook: name '${v.name}' must be a fully qualified DNS name of three labels or more, e.g. 'mmemcached-v1alpha1.kb.io'`;
      if (v.sideEffects === 'Some' || v.sideEffects === 'Unknown')
        return `@Webhook: sideEffects '${v.sideEffects}' is not allowed by admissionregistration.k8s.io/v1; use 'None' or 'NoneOnDryRun'`;
      const badVerb = v.verbs.find((x) => !VERBS.has(x.toLowerCase()));
      if (badVerb !== undefined)
        return `@Webhook: verb '${badVerb}' is not an admission operation; use create, update, delete, connect or '*'`;
      for (const key of ['groups', 'resources', 'verbs', 'versions', 'admissionReviewVersions'] as const) {
        if (v[key].length === 0) return `@Webhook: ${key} must not be empty`;
      }
      if (v.timeoutSeconds !== undefined && (v.timeoutSeconds < 1 || v.timeoutSeconds > 30))
        return `@Webhook: timeoutSeconds ${v.timeoutSeconds} must be between 1 and 30`;
      if (!v.mutating && v.reinvocationPolicy !== undefined)
        return '@Webhook: reinvocationPolicy applies to mutating webhooks only; drop it or set mutating: true';
      const entry: WebhookEntry = {
        ...target,
        mutating: v.mutating,
        failurePolicy: v.failurePolicy.toLowerCase() === 'fail' ? 'Fail' : 'Ignore',
        sideEffects: v.sideEffects,
        groups: v.groups.map((g) => (g === 'core' ? '' : g)),
        resources: [...v.resources],
        verbs: v.verbs.map((x) => x.toLowerCase()),
        versions: [...v.versions],
        name: v.name,
        admissionReviewVersions: [...v.admissionReviewVersions],
      };
      if (v.matchPolicy !== undefined) entry.matchPolicy = v.matchPolicy;
      if (v.reinvocationPolicy !== undefined) entry.reinvocationPolicy = v.reinvocationPolicy;
      if (v.timeoutSeconds !== undefined) entry.timeoutSeconds = v.timeoutSeconds;
      if (v.namespaceSelector !== undefined) entry.namespaceSelector = v.namespaceSelector;
      if (v.objectSelector !== undefined) entry.objectSelector = v.objectSelector;
      set.entries.push(entry);
      return undefined;
    },
  }),
  webhookMarker<{ mutating: boolean; name: string }>({
    name: 'WebhookConfiguration',
    controllerGen: '+kubebuilder:webhookconfiguration',
    args: options({ mutating: { type: 'boolean', required: true }, name: { type: 'string', required: true } }),
    doc:
      'Names the MutatingWebhookConfiguration (mutating: true) or ValidatingWebhookConfiguration ' +
      "(false) that holds the project's webhooks, instead of mutating-webhook-configuration / " +
      'validating-webhook-configuration; kustomize patches and the cert-manager or ' +
      'self-provisioned CA injection that refer to the old name need the new one.',
    example: "@WebhookConfiguration({ mutating: true, name: 'memcached-operator-defaulting' })",
    apply(set, v) {
      if (!OBJECT_NAME.test(v.name))
        return `@WebhookConfiguration: name '${v.name}' is not an object name (lowercase letters, digits, '-' and '.', at most 253)`;
      set.configurations.push({ mutating: v.mutating, name: v.name });
      return undefined;
    },
  }),
  kindMarker<true>({
    name: 'Hub',
    controllerGen: '+kubebuilder Hub() method (conversion.Hub)',
    args: none,
    doc: 'Marks this version as the hub of its kind: the conversion webhook converts every other version to and from it (one hub per kind).',
    example: '@Hub() @Resource() export class Memcached { ... }  // in src/api/v2',
    // Read by the webhook manifests check (one hub per kind); nothing in the CRD changes.
    apply: () => undefined,
  }),
];
