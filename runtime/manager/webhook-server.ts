/**
 * The webhook server as the manager sees it (controller-runtime's webhook.Server): the manager
 * hands it to the webhook builders, starts it before the caches (listing a multi-version kind
 * may need its /convert) and closes it last. webhook/'s WebhookServer is the implementation. A
 * project's main.ts makes it and passes it (`webhookServer: new WebhookServer(...)`), as
 * kubebuilder's main.go passes `webhook.NewServer(...)`, so the manager never imports webhook/ and
 * an operator without webhooks carries no webhook code (src/runtime/webhook/ arrives with the
 * first `tsop create webhook`).
 *
 * The options a server is made from are declared here too: the manager's flags produce them.
 */
import type { Registry } from 'prom-client';
import type { Client } from '../client/index.js';
import type { Logger } from '../log/index.js';
import type { CertificatePair } from '../certs/index.js';
import type { Checker } from './health.js';

/** What a handler answers: the HTTP status and the JSON body. */
export interface WebhookReply {
  status: number;
  body: unknown;
}

export interface WebhookRequestContext {
  readonly log: Logger;
  /** Aborted when the caller goes away or the server stops. */
  readonly signal: AbortSignal;
}

/** Answers one parsed request body; a MalformedReviewError thrown from it is answered 400. */
export type WebhookHandler = (body: unknown, ctx: WebhookRequestContext) => Promise<WebhookReply>;

/** What a webhook server takes from the manager that runs it. */
export interface WebhookServerDeps {
  logger: Logger;
  registry: Registry;
  /** Needed by selfProvision (Secret, webhook configurations, CRDs). */
  client?: Client;
}

/** The manager's side of a webhook server. */
export interface ManagedWebhookServer {
  /** Called once by the manager it is given to, before any path is registered: its logger, registry and client. */
  useManager(deps: WebhookServerDeps): void;
  register(path: string, handler: WebhookHandler): void;
  /** The registered paths, in registration order. */
  paths(): string[];
  /** A readiness check: fails until the server listens (controller-runtime's StartedChecker). */
  startedChecker(): Checker;
  /** Loads the certificate and listens; resolves once requests are served. */
  listen(): Promise<void>;
  close(): Promise<void>;
  /** The bound port once listening. */
  readonly port: number | undefined;
  /** The port asked for (named when it cannot be bound). */
  readonly options: { readonly port?: number | undefined };
  /** The certificate's provisioner when the server makes its own (`selfProvision`): to read the CA or rotate by hand. */
  readonly selfProvisioner?: CertificateProvisioner | undefined;
}

/** What a self-provisioning server's certificate source offers its users (webhook/'s SelfProvisioner). */
export interface CertificateProvisioner {
  /** The DNS names and addresses the certificate covers. */
  hosts(): string[];
  /** The CA, PEM-encoded, as webhook configurations and CRDs get it in caBundle. */
  readonly caPem: string;
  current(): CertificatePair;
  /** Called with each new certificate; returns the function that stops it. */
  onChange(listener: (pair: CertificatePair) => void): () => void;
  /** Makes a new CA and certificate now. */
  rotate(): Promise<void>;
}

/**
 * Has the manager make and renew the webhook serving certificate instead of reading certDir: a
 * CA and a certificate for `<serviceName>.<namespace>.svc`, kept in a Secret every replica shares.
 */
export interface SelfProvisionOptions {
  /** The Service in front of the webhook server (kubebuilder: `<project>-webhook-service`). */
  serviceName: string;
  namespace: string;
  /** Further DNS names or IP addresses the certificate must cover (e.g. 127.0.0.1 for a local run). */
  extraHosts?: string[];
  /** Keep the CA and certificate in this Secret of `namespace` (replicas share it); memory only without. */
  secretName?: string;
  /** Webhook configurations whose every webhook gets the CA as caBundle. */
  mutatingWebhookConfigurations?: string[];
  validatingWebhookConfigurations?: string[];
  /** CRDs (by name) whose conversion webhook gets the CA as caBundle. */
  crds?: string[];
  /** Serving certificate lifetime (default 90 days); the CA lives ten times as long. */
  validForMs?: number;
  /** Renew this long before expiry (default a third of the lifetime). */
  renewBeforeMs?: number;
  /** How often to check expiry and the Secret (default 1 min). */
  checkIntervalMs?: number;
}

/** How a webhook server listens and where its certificate comes from (controller-runtime's webhook.Options). */
export interface WebhookServerOptions {
  /** Default 9443; 0 picks a free port. */
  port?: number;
  /** Default: $TSOP_WEBHOOK_BIND_HOST, else every interface. */
  host?: string;
  /** Default <tmpdir>/k8s-webhook-server/serving-certs, as controller-runtime. */
  certDir?: string;
  certName?: string;
  keyName?: string;
  /** Largest request body accepted (default 7 MiB). */
  maxBodyBytes?: number;
  /** Provision and rotate the serving certificate instead of reading certDir. */
  selfProvision?: SelfProvisionOptions;
}

/** A server object rather than the options of one (which ManagerOptions.webhookServer took before tsop 0.3). */
export function isManagedWebhookServer(
  value: ManagedWebhookServer | WebhookServerOptions,
): value is ManagedWebhookServer {
  return typeof (value as Partial<ManagedWebhookServer>).listen === 'function';
}

type WebhookServerFactory = (options: WebhookServerOptions) => ManagedWebhookServer;
let defaultFactory: WebhookServerFactory | undefined;

/**
 * How the manager makes a webhook server when code passes none, or only its options (main.ts and
 * tests of tsop ≤ 0.2): webhook/ sets it when it loads, which any code registering a webhook does.
 * An operator that never loads webhook/ has no webhook to serve.
 */
export function setDefaultWebhookServer(make: WebhookServerFactory): void {
  defaultFactory = make;
}

/** The default server for `options`, or undefined when webhook/ is not loaded. */
export function defaultWebhookServer(options: WebhookServerOptions): ManagedWebhookServer | undefined {
  return defaultFactory?.(options);
}

/** getWebhookServer() on a manager that was given no server, in a process that never loaded webhook/. */
export class NoWebhookServerError extends Error {
  override readonly name = 'NoWebhookServerError';
}
