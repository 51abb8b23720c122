/**
 * The webhook server a generated main.ts passes to the manager, made from the --webhook-* flags
 * the manager parses (kubebuilder's main.go: `webhook.NewServer(webhook.Options{...})` into
 * `ctrl.Options{WebhookServer: …}`).
 */
import { webhookServerOptionsFromFlags, type ManagerFlags } from '../manager/index.js';
import { WebhookServer } from './server.js';

/** `new WebhookServer(webhookServerOptionsFromFlags(flags))`: port, certificate directory or self-provisioning. */
export function webhookServerFromFlags(flags: ManagerFlags): WebhookServer {
  return new WebhookServer(webhookServerOptionsFromFlags(flags));
}
