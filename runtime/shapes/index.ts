/**
 * Shapes the runtime and the tsop CLI both hold: the arguments users give markers (a CEL rule, a
 * JSON value, `@Webhook`'s options) and the conventions the two must agree on (a webhook's path).
 * Types and small pure functions only, so the CLI can import this without loading the runtime;
 * tsop's build compiles it with the CLI (tsconfig.build.json), and projects get it with the rest of
 * the runtime.
 */

/** Any JSON value: what a default, an example or an enum member can be. */
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };

/** A CEL validation rule (`x-kubernetes-validations`). */
export interface ValidationRule {
  /** CEL expression over `self` (and `oldSelf` for transition rules). */
  rule: string;
  /** Message shown when the rule fails (no line breaks). */
  message?: string;
  /** CEL expression that evaluates to the message. */
  messageExpression?: string;
  /** Reason reported to the client. */
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /** Path of the field the error is reported on, relative to this node, e.g. `.spec.replicas`. */
  fieldPath?: string;
  /** Evaluate the transition rule even when there is no old value. */
  optionalOldSelf?: boolean;
}

export type WebhookVerb = 'create' | 'update' | 'delete' | 'connect' | '*';

/** A label selector, as in metav1.LabelSelector. */
export interface WebhookLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

/** `@Webhook(...)`'s argument (controller-gen's `+kubebuilder:webhook`). */
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

/** `@WebhookConfiguration(...)`'s argument: the name of one of the two configuration objects. */
export interface WebhookConfigurationOptions {
  /** true: names the MutatingWebhookConfiguration; false: the ValidatingWebhookConfiguration. */
  mutating: boolean;
  /** Its name, instead of `mutating-webhook-configuration` / `validating-webhook-configuration`. */
  name: string;
}

/**
 * The path controller-runtime (and controller-gen's markers) serve a kind's admission webhook
 * at: `/mutate-cache-example-com-v1alpha1-memcached`.
 */
export function admissionPath(type: 'mutate' | 'validate', group: string, version: string, kind: string): string {
  return `/${type}-${group.replace(/\./g, '-')}-${version}-${kind.toLowerCase()}`;
}
