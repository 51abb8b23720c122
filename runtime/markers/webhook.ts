/**
 * `@Webhook(...)` on a defaulter or validator class and `@Hub()` on the hub version of a kind:
 * what `tsop manifests` turns into config/webhook/manifests.yaml (controller-gen's
 * `+kubebuilder:webhook`) and what marks the version others convert through (a Go type's `Hub()`).
 */
import type {
  WebhookConfigurationOptions,
  WebhookLabelSelector,
  WebhookOptions,
  WebhookVerb,
} from '../shapes/index.js';
import { marker, type ClassMarker } from './decorator.js';

export type { WebhookConfigurationOptions, WebhookLabelSelector, WebhookOptions, WebhookVerb };

/** `@Webhook({ path, mutating, failurePolicy, sideEffects, groups, resources, verbs, versions, name, admissionReviewVersions })`. */
export const Webhook = (_options: WebhookOptions): ClassMarker => marker;

/** `@WebhookConfiguration({ mutating, name })` beside an `@Webhook`: names that configuration object. */
export const WebhookConfiguration = (_options: WebhookConfigurationOptions): ClassMarker => marker;

/** `@Hub()` on the kind class of the version other versions convert to and from. */
export const Hub = (): ClassMarker => marker;
