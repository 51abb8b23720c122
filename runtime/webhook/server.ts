/**
 * The webhook server: HTTPS on port 9443 by default, controller-runtime's webhook.Server. Paths
 * are registered before (or while) it runs; each request body is read up to a size limit, parsed
 * as JSON and handed to the path's handler. Malformed or oversized bodies are answered 400 and
 * the server keeps serving. The certificate comes from certDir (tls.crt / tls.key, reloaded when
 * the files change) or from the self-provisioner; every request is counted in
 * controller-runtime's webhook metrics.
 */
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertWatcher, type CertificateSource } from '../certs/index.js';
import { rootLogger, type Logger } from '../log/index.js';
import {
  setDefaultWebhookServer,
  type ManagedWebhookServer,
  type WebhookHandler,
  type WebhookServerDeps,
  type WebhookServerOptions,
} from '../manager/index.js';
import { registry } from '../metrics/index.js';
import { devConsoleReporter } from './dev-console.js';
import { WebhookMetrics } from './metrics.js';
import { MalformedReviewError } from './review.js';
import { SelfProvisioner } from './self-provision.js';

/** controller-runtime's limit on a review body: 7 MiB (etcd's 1.5 MiB object, twice, plus slack). */
export const DEFAULT_MAX_BODY_BYTES = 7 * 1024 * 1024;
export const DEFAULT_WEBHOOK_PORT = 9443;
/** Names the host to listen on when the options name none (`tsop dev` sets 127.0.0.1); unset, every interface. */
export const WEBHOOK_BIND_HOST_ENV = 'TSOP_WEBHOOK_BIND_HOST';

/** Two registrations for one path. */
export class DuplicateWebhookPathError extends Error {
  override readonly name = 'DuplicateWebhookPathError';
}

// The types the manager declares (its flags produce the options), kept importable from here.
export type {
  WebhookHandler,
  WebhookReply,
  WebhookRequestContext,
  WebhookServerDeps,
  WebhookServerOptions,
} from '../manager/index.js';

/**
 * A webhook server, made in main.ts and given to the manager (`webhookServer`), which passes it
 * its logger, registry and client (useManager) and starts it once a webhook is registered.
 */
export class WebhookServer implements ManagedWebhookServer {
  private readonly handlers = new Map<string, WebhookHandler>();
  private server: https.Server | undefined;
  private watcher: CertWatcher | undefined;
  private provisioner: SelfProvisioner | undefined;
  private boundPort: number | undefined;
  private deps: WebhookServerDeps;
  private metrics: WebhookMetrics;
  private log: Logger;
  private stopCtl = new AbortController();
  /** Set only under `tsop dev` with its console (dev-console.ts). */
  private readonly devReport = devConsoleReporter();
  /** Runs start(signal) standalone; the manager uses listen() and close() instead. */
  readonly needLeaderElection = false;

  /** Without `deps`, the root logger and the process-wide registry until a manager passes its own. */
  constructor(
    readonly options: WebhookServerOptions = {},
    deps?: WebhookServerDeps,
  ) {
    this.deps = deps ?? { logger: rootLogger(), registry };
    this.metrics = WebhookMetrics.of(this.deps.registry);
    this.log = this.deps.logger.child({ component: 'webhook' });
  }

  useManager(deps: WebhookServerDeps): void {
    this.deps = deps;
    this.metrics = WebhookMetrics.of(deps.registry);
    this.log = deps.logger.child({ component: 'webhook' });
  }

  register(path: string, handler: WebhookHandler): void {
    if (!path.startsWith('/'))
      throw new DuplicateWebhookPathError(`webhook path ${JSON.stringify(path)} must start with "/"`);
    if (this.handlers.has(path))
      throw new DuplicateWebhookPathError(`a webhook is already registered at ${path}; register each path once`);
    this.handlers.set(path, handler);
    this.log.info({ path }, 'registered webhook');
  }

  /** The registered paths, in registration order. */
  paths(): string[] {
    return [...this.handlers.keys()];
  }

  /** The bound port once listening (differs from the option with port 0). */
  get port(): number | undefined {
    return this.boundPort;
  }

  /** The self-provisioner when `selfProvision` is set (to rotate by hand or read the CA). */
  get selfProvisioner(): SelfProvisioner | undefined {
    return this.provisioner;
  }

  /** A readiness check: fails until the server listens (controller-runtime's StartedChecker). */
  startedChecker(): () => void {
    return () => {
      if (this.boundPort === undefined) throw new Error('webhook server has not started yet');
    };
  }

  /** Loads the certificate and listens; resolves once requests are served. */
  async listen(): Promise<void> {
    if (this.server) return;
    this.stopCtl = new AbortController();
    const tls = await this.certificates();
    const server = https.createServer({ ...tls.current() }, (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        // A client gone mid-answer must not take the process down.
        this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'webhook request failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    const unsubscribe = tls.onChange((pair) => {
      server.setSecureContext({ ...pair });
      this.log.info({}, 'webhook serving certificate reloaded');
    });
    server.on('close', unsubscribe);
    const port = this.options.port ?? DEFAULT_WEBHOOK_PORT;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const host = this.options.host ?? (process.env[WEBHOOK_BIND_HOST_ENV] || undefined);
      server.listen(port, host, () => {
        server.removeListener('error', reject);
        resolve();
      });
    }).catch((err: unknown) => {
      this.stopCertificates();
      throw err;
    });
    this.server = server;
    this.boundPort = (server.address() as AddressInfo).port;
    this.log.info({ port: this.boundPort, paths: this.paths() }, 'serving webhooks');
  }

  async close(): Promise<void> {
    this.stopCtl.abort();
    this.stopCertificates();
    const server = this.server;
    this.server = undefined;
    this.boundPort = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Runnable: serves until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    await this.listen();
    await new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await this.close();
  }

  private async certificates(): Promise<CertificateSource> {
    const o = this.options;
    if (o.selfProvision) {
      if (!this.deps.client) throw new Error('webhookServer.selfProvision needs the manager client');
      this.provisioner = new SelfProvisioner(o.selfProvision, this.deps.client, this.log);
      await this.provisioner.start();
      return this.provisioner;
    }
    const dir = o.certDir ?? join(tmpdir(), 'k8s-webhook-server', 'serving-certs');
    const certPath = join(dir, o.certName || 'tls.crt');
    this.watcher = new CertWatcher({
      certPath,
      keyPath: join(dir, o.keyName || 'tls.key'),
      onError: (err) =>
        this.log.error(
          { err: err.message },
          'webhook certificate changed but cannot be loaded; still serving the previous one',
        ),
    });
    await this.watcher.start(); // a missing pair fails the start, naming the file
    return this.watcher;
  }

  private stopCertificates(): void {
    this.watcher?.stop();
    this.watcher = undefined;
    this.provisioner?.stop();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    const handler = this.handlers.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const started = process.hrtime.bigint();
    const arrivedAt = Date.now();
    this.metrics.inFlight.inc({ webhook: path });
    const reply = (status: number, body: unknown, close = false): void => {
      const text = JSON.stringify(body);
      res
        .writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) })
        .end(text);
      this.metrics.requests.inc({ webhook: path, code: String(status) });
      this.metrics.latency.observe({ webhook: path }, Number(process.hrtime.bigint() - started) / 1e9);
      this.metrics.inFlight.dec({ webhook: path });
    };
    const badRequest = (message: string, close = false): void => {
      this.log.info({ path, reason: message }, 'bad webhook request');
      reply(
        400,
        { apiVersion: 'v1', kind: 'Status', status: 'Failure', message, reason: 'BadRequest', code: 400 },
        close,
      );
    };
    if (req.method !== 'POST') return badRequest(`${req.method ?? ''} is not allowed; webhooks take POST`);
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (type !== 'application/json') return badRequest(`content-type ${JSON.stringify(type)} is not application/json`);
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const body = await readBody(req, limit);
    if (body === 'too-large') {
      // The rest of the body is drained, not kept; the connection closes after the answer.
      req.resume();
      return badRequest(`request entity is too large; limit is ${limit} bytes`, true);
    }
    if (body === 'aborted') {
      this.metrics.inFlight.dec({ webhook: path });
      return;
    }
    if (body.length === 0) return badRequest('request body is empty');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (err) {
      return badRequest(`request body is not JSON: ${(err as Error).message}`);
    }
    const ctl = new AbortController();
    const onClose = (): void => ctl.abort();
    res.on('close', onClose);
    const onStop = (): void => ctl.abort();
    this.stopCtl.signal.addEventListener('abort', onStop, { once: true });
    try {
      const answer = await handler(parsed, { log: this.log.child({ webhook: path }), signal: ctl.signal });
      reply(answer.status, answer.body);
      this.devReport?.({
        path,
        at: arrivedAt,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        status: answer.status,
        request: parsed,
        response: answer.body,
      });
    } catch (err) {
      if (err instanceof MalformedReviewError) return badRequest(err.message);
      this.log.error({ path, err: err instanceof Error ? err.message : String(err) }, 'webhook handler failed');
      reply(500, {
        apiVersion: 'v1',
        kind: 'Status',
        status: 'Failure',
        message: 'internal error in the webhook handler',
        reason: 'InternalError',
        code: 500,
      });
    } finally {
      res.off('close', onClose);
      this.stopCtl.signal.removeEventListener('abort', onStop);
    }
  }
}

/** The whole body, or 'too-large' as soon as it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('aborted', () => resolve('aborted'));
    req.once('error', () => resolve('aborted'));
  });
}

// Code of tsop ≤ 0.2 passes the manager no server (or only its options); the manager makes this one then.
setDefaultWebhookServer((options) => new WebhookServer(options));
