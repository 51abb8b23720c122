/**
 * What the controller and webhook markers say, checked: the RBAC rules of `@Rbac` and the
 * webhooks of `@Webhook` / `@WebhookConfiguration`. The marker catalog produces them; the
 * manifests stage writes them (src/manifests/rbac.ts, webhook.ts).
 */
import type { WebhookLabelSelector, WebhookOptions } from '../../runtime/shapes/index.js';

/** One `@Rbac(...)`. */
export interface RbacRule {
  groups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
  urls?: string[];
  /** A Role in this namespace instead of the ClusterRole. */
  namespace?: string;
  /** Overrides the role name for this rule (controller-gen's `roleName=`). */
  roleName?: string;
  /** Where the rule was written (e.g. 'src/controllers/ship.ts:12'), for error messages. */
  source?: string;
}

/** A label selector as `@Webhook` takes it (runtime/shapes). */
export type LabelSelector = WebhookLabelSelector;

/**
 * One `@Webhook(...)`, checked (runtime/shapes' WebhookOptions, as written to the manifest):
 * exactly one of `path` (behind a Service) and `url`, the Service in one field, the policies in
 * the API server's spelling.
 */
export interface WebhookEntry
  extends Omit<
    WebhookOptions,
    'serviceName' | 'serviceNamespace' | 'servicePort' | 'webhookVersions' | 'failurePolicy' | 'sideEffects' | 'verbs'
  > {
  /** The Service, when not kustomize's `webhook-service` in `system` on port 443. */
  service?: { name?: string; namespace?: string; port?: number };
  failurePolicy: 'Fail' | 'Ignore';
  sideEffects: 'None' | 'NoneOnDryRun';
  verbs: string[];
  /** Where it was written, for messages. */
  source?: string;
}

/** One `@WebhookConfiguration(...)`: the name of the mutating or the validating configuration. */
export interface WebhookConfigurationName {
  mutating: boolean;
  name: string;
  /** Where it was written, for messages. */
  source?: string;
}

/** What the webhook markers of a project say. */
export interface WebhookSet {
  entries: WebhookEntry[];
  configurations: WebhookConfigurationName[];
}
