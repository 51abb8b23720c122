/**
 * `@Webhook(...)` on a defaulter or validator class and `@Hub()` on the hub version of a kind:
 * what `tsop manifests` turns into config/webhook/manifests.yaml (controller-gen's
 * `+kubebuilder:webhook`) and what marks the version others convert through (a Go type's `Hub()`).
 */
import { marker, type ClassMarker } from './decorator.js';

export type WebhookVerb = 'create' | 'update' | 'delete' | 'connect' | '*';

/** A label selector, as in metav1.LabelSelector. */
export interface WebhookLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

export interface WebhookOptions {
  /**
   * The path the manager serves it on, e.g. `/mutate-cache-example-com-v1alpha1-memcached`,
   * reached through the webhook Service. Give this or `url`.
   */
  path?: string;
  /** Instead of `path`: the API server calls this https URL directly (`clientConfig.url`). */
  url?: string;
  /** The Service in front of the manager, when not kustomize's `webhook-service` (with `path`). */
  serviceName?: string;
  /** Its namespace, when not the `system` kustomize replaces (with `path`). */
  serviceNamespace?: string;
  /** Its port, when not 443 (with `path`). */
  servicePort?: number;
  /** The admissionregistration.k8s.io versions to write; only `['v1']`. */
  webhookVersions?: Array<'v1'>;
  /** true: a MutatingWebhookConfiguration entry (defaulting); false: a Validating one. */
  mutating: boolean;
  failurePolicy: 'fail' | 'ignore' | 'Fail' | 'Ignore';
  sideEffects: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
  /** API groups; `''` is the core group. */
  groups: string[];
  resources: string[];
  verbs: WebhookVerb[];
  versions: string[];
  /** Unique name of the webhook, e.g. `mmemcached-v1alpha1.kb.io`. */
  name: string;
  admissionReviewVersions: string[];
  matchPolicy?: 'Exact' | 'Equivalent';
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  timeoutSeconds?: number;
  namespaceSelector?: WebhookLabelSelector;
  objectSelector?: WebhookLabelSelector;
}

/** `@Webhook({ path, mutating, failurePolicy, sideEffects, groups, resources, verbs, versions, name, admissionReviewVersions })`. */
export const Webhook = (_options: WebhookOptions): ClassMarker => marker;

export interface WebhookConfigurationOptions {
  /** true: names the MutatingWebhookConfiguration; false: the ValidatingWebhookConfiguration. */
  mutating: boolean;
  /** Its name, instead of `mutating-webhook-configuration` / `validating-webhook-configuration`. */
  name: string;
}

/** `@WebhookConfiguration({ mutating, name })` beside an `@Webhook`: names that configuration object. */
export const WebhookConfiguration = (_options: WebhookConfigurationOptions): ClassMarker => marker;

/** `@Hub()` on the kind class of the version other versions convert to and from. */
export const Hub = (): ClassMarker => marker;
