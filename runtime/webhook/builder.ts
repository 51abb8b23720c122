/**
 * webhookFor / conversionFor: controller-runtime's `ctrl.NewWebhookManagedBy(mgr).For(&T{})`
 * in TypeScript. The builder only collects; complete() registers the handlers on the manager's
 * webhook server at the paths controller-gen and kubebuilder use:
 * `/mutate-<group with . as ->-<version>-<lowercase kind>` and `/validate-<same>`.
 */
import { gvkFromApiVersion, type ClientObject, type KubeObject } from '../apimachinery/model.js';
import { defaultingHandler, validatingHandler, type CustomDefaulter, type CustomValidator } from './admission.js';
import {
  apiVersionOfRef,
  ConversionRegistry,
  type HubAndSpokes,
  type KindRefLike,
  type TypedHubAndSpokes,
} from './conversion.js';
import type { ManagedWebhookServer } from '../manager/index.js';
import { admissionPath } from '../shapes/index.js';

/** What the builders need from a manager. */
export interface WebhookHost {
  getWebhookServer(): ManagedWebhookServer;
}

/** The path controller-gen generates for a kind: `/mutate-cache-example-com-v1alpha1-memcached`. */
export function webhookPath(kind: KindRefLike, type: 'mutate' | 'validate'): string {
  const gvk = gvkFromApiVersion(apiVersionOfRef(kind), kind.kind);
  return admissionPath(type, gvk.group, gvk.version, gvk.kind);
}

export const CONVERSION_PATH = '/convert';

/** complete() was called without a defaulter or validator. */
export class WebhookBuilderError extends Error {
  override readonly name = 'WebhookBuilderError';
}

export class WebhookBuilder<T extends ClientObject = KubeObject> {
  private defaulter: CustomDefaulter<T> | undefined;
  private validator: CustomValidator<T> | undefined;
  private paths: { mutate?: string; validate?: string } = {};

  constructor(
    private readonly host: WebhookHost,
    private readonly kind: KindRefLike,
  ) {}

  withDefaulter(d: CustomDefaulter<T>): this {
    this.defaulter = d;
    return this;
  }

  withValidator(v: CustomValidator<T>): this {
    this.validator = v;
    return this;
  }

  /** Serve the defaulter at a custom path (controller-runtime's WithDefaulterCustomPath). */
  withDefaulterCustomPath(path: string): this {
    this.paths.mutate = path;
    return this;
  }

  withValidatorCustomPath(path: string): this {
    this.paths.validate = path;
    return this;
  }

  complete(): void {
    if (!this.defaulter && !this.validator) {
      throw new WebhookBuilderError(
        `webhookFor(${this.kind.kind}): no defaulter or validator given; call withDefaulter() and/or withValidator() before complete()`,
      );
    }
    const server = this.host.getWebhookServer();
    if (this.defaulter)
      server.register(this.paths.mutate ?? webhookPath(this.kind, 'mutate'), defaultingHandler(this.defaulter));
    if (this.validator)
      server.register(this.paths.validate ?? webhookPath(this.kind, 'validate'), validatingHandler(this.validator));
  }
}

export function webhookFor<T extends ClientObject = KubeObject>(
  host: WebhookHost,
  kind: KindRefLike,
): WebhookBuilder<T> {
  return new WebhookBuilder<T>(host, kind);
}

const registries = new WeakMap<ManagedWebhookServer, ConversionRegistry>();

/** Registers hub-and-spoke conversion for one kind; /convert is served once for every kind. */
export function conversionFor(host: WebhookHost, def: HubAndSpokes): void;
export function conversionFor(host: WebhookHost, def: TypedHubAndSpokes): void;
export function conversionFor(host: WebhookHost, def: HubAndSpokes | TypedHubAndSpokes): void {
  const server = host.getWebhookServer();
  let registry = registries.get(server);
  if (!registry) {
    registry = new ConversionRegistry();
    server.register(CONVERSION_PATH, registry.handler());
    registries.set(server, registry);
  }
  registry.add(def);
}
