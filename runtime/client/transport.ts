/**
 * HTTP transport of the client: one keep-alive agent per client (TLS and client certificates
 * from the KubeConfig via client-node), auth headers refreshed per request only for token
 * plugins, every request counted and timed through RequestMetrics, non-2xx answers mapped to
 * typed errors. As client-go: an answer of 429 or 5xx with Retry-After is retried after that
 * wait (up to 10 times); a connection reset is resent only for GET, never for a write the
 * server may already have applied.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { TransportError, type RequestMetrics } from '../apimachinery/index.js';
import { errorFromResponse } from './errors.js';

export type { RequestMetrics };

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: string;
  contentType?: string;
  /** Cancels the request (and fails it with a TransportError) when aborted. */
  signal?: AbortSignal;
}

export interface TransportOptions {
  metrics?: RequestMetrics;
  /** Called with each `Warning` header text (deprecations, unknown fields dropped, …). */
  onWarning?: (text: string) => void;
  /** Abort a request with no answer after this long (default 60 s). */
  timeoutMs?: number;
  /**
   * Once aborted, every request in flight is cancelled and no new one is sent. The manager
   * aborts it when the lease is lost, so a deposed leader cannot write.
   */
  fence?: AbortSignal;
}

interface Prepared {
  agent: http.Agent;
  headers: Record<string, string>;
}

/** Texts of RFC 7234 warnings: `299 - "text"`, several joined by commas. */
export function parseWarnings(header: string | string[]): string[] {
  const joined = Array.isArray(header) ? header.join(', ') : header;
  const texts: string[] = [];
  for (const m of joined.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) texts.push((m[1] ?? '').replace(/\\(.)/g, '$1'));
  return texts;
}

/** Retries on Retry-After answers, as client-go's default maxRetries. */
const MAX_RETRIES = 10;

interface Answer {
  status: number;
  body: string;
  /** the Retry-After header in ms (whole seconds, as client-go reads it), when present */
  retryAfterMs?: number;
}

function retryAfter(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

/** Waits `ms`; false when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The one-line error of a request its caller cancelled: the reason (e.g. a reconcile timeout) is the cause. */
function aborted(req: HttpRequest, signal: AbortSignal): TransportError {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : 'aborted';
  return new TransportError(`${req.method} ${req.path}: cancelled: ${why}`, { cause: reason });
}

/** A reused keep-alive socket turned out to be closed before any answer. */
class StaleSocketError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

export class Transport {
  private prepared: Promise<Prepared> | undefined;
  private readonly base: URL;
  // Exec and auth-provider users get short-lived tokens; client-node caches and refreshes them.
  private readonly dynamicAuth: boolean;

  constructor(
    private readonly kc: KubeConfig,
    private readonly opts: TransportOptions = {},
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new TransportError('kubeconfig has no current cluster');
    this.base = new URL(cluster.server);
    const user = kc.getCurrentUser();
    this.dynamicAuth = Boolean(user?.exec || user?.authProvider);
  }

  get host(): string {
    return this.base.host;
  }

  /** Sends one request; resolves with the parsed JSON body of a 2xx answer. */
  async request<T>(given: HttpRequest): Promise<T> {
    const fence = this.opts.fence;
    const req = fence ? { ...given, signal: given.signal ? AbortSignal.any([given.signal, fence]) : fence } : given;
    if (req.signal?.aborted) throw aborted(req, req.signal);
    const { agent, headers } = await this.prepare();
    const url = new URL(this.base.href.replace(/\/+$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const payload = req.body === undefined ? undefined : Buffer.from(req.body);
    const reqHeaders: Record<string, string | number> = { ...headers, Accept: 'application/json' };
    if (payload) {
      reqHeaders['Content-Type'] = req.contentType ?? 'application/json';
      reqHeaders['Content-Length'] = payload.length;
    }
    for (let retries = 0; ; retries++) {
      const started = performance.now();
      let answer: Answer;
      try {
        answer = await this.exchange(url, req.method, reqHeaders, agent, payload, req.signal).catch((err: unknown) => {
          // A kept-alive socket that fails before any answer may or may not have delivered the
          // request: only a read is safe to send again (Go's net/http rule; client-go follows it).
          if (err instanceof StaleSocketError && req.method === 'GET' && !req.signal?.aborted) {
            return this.exchange(url, req.method, reqHeaders, agent, payload, req.signal);
          }
          throw err;
        });
      } catch (err) {
        this.observe('<error>', req.method, started);
        if (req.signal?.aborted) throw aborted(req, req.signal);
        const e = err instanceof StaleSocketError ? err.cause : err instanceof Error ? err : new Error(String(err));
        throw new TransportError(`${req.method} ${url.pathname}: ${e.message}`, { cause: e });
      }
      const { status, body, retryAfterMs } = answer;
      this.observe(String(status), req.method, started);
      if (retryAfterMs !== undefined && retries < MAX_RETRIES && (status === 429 || status >= 500)) {
        // The server did not process the request and said when to come back (client-go's checkWait).
        if (await pause(retryAfterMs, req.signal)) continue;
        throw aborted(req, req.signal!);
      }
      if (status < 200 || status >= 300) throw errorFromResponse(status, body, { method: req.method, path: url.pathname });
      return (body ? JSON.parse(body) : undefined) as T;
    }
  }

  private observe(code: string, method: string, started: number): void {
    this.opts.metrics?.observe(code, method, this.host);
    this.opts.metrics?.duration?.((performance.now() - started) / 1000, method, this.host);
  }

  private exchange(
    url: URL,
    method: string,
    headers: Record<string, string | number>,
    agent: http.Agent,
    payload: Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const send = url.protocol === 'http:' ? http.request : https.request;
    return new Promise<Answer>((resolve, reject) => {
      let responded = false;
      const r = send(url, { method, headers, agent, timeout: this.opts.timeoutMs ?? 60_000, signal });
      r.on('timeout', () => r.destroy(new Error('request timed out')));
      r.on('error', (err: NodeJS.ErrnoException) => {
        const stale = r.reusedSocket && !responded && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        reject(stale ? new StaleSocketError(err) : err);
      });
      r.on('response', (res) => {
        responded = true;
        if (res.headers.warning && this.opts.onWarning) for (const w of parseWarnings(res.headers.warning)) this.opts.onWarning(w);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            retryAfterMs: retryAfter(res.headers['retry-after']),
          }),
        );
      });
      r.end(payload);
    });
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    void this.prepared?.then((p) => p.agent.destroy(), () => undefined);
    this.prepared = undefined;
  }

  private async prepare(): Promise<Prepared> {
    this.prepared ??= this.resolve();
    const prepared = await this.prepared.catch((err: unknown) => {
      this.prepared = undefined; // retry resolution next time (e.g. a cert file appeared)
      throw err;
    });
    if (!this.dynamicAuth) return prepared;
    return { agent: prepared.agent, headers: (await this.resolveOptions()).headers };
  }

  private async resolve(): Promise<Prepared> {
    // A kubeconfig proxy-url (HTTP CONNECT or SOCKS) needs client-node's proxy agent; keep it.
    const proxied = Boolean(this.kc.getCurrentCluster()?.proxyUrl);
    const { opts, headers } = await this.resolveOptions(proxied);
    if (proxied && opts.agent instanceof http.Agent) return { agent: opts.agent, headers };
    const agentOptions: https.AgentOptions = {
      keepAlive: true,
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      pfx: opts.pfx,
      passphrase: opts.passphrase,
      servername: opts.servername,
    };
    if (opts.rejectUnauthorized !== undefined) agentOptions.rejectUnauthorized = opts.rejectUnauthorized;
    const agent = this.base.protocol === 'http:' ? new http.Agent({ keepAlive: true }) : new https.Agent(agentOptions);
    return { agent, headers };
  }

  private async resolveOptions(keepAgent = false): Promise<{ opts: https.RequestOptions; headers: Record<string, string> }> {
    const opts: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    // client-node also built an agent for us; we keep our own keep-alive agent instead.
    if (!keepAgent && opts.agent instanceof http.Agent) opts.agent.destroy();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (typeof v === 'string' || typeof v === 'number') headers[k] = String(v);
      else if (Array.isArray(v)) headers[k] = v.join(', ');
    }
    if (opts.auth) headers['Authorization'] = 'Basic ' + Buffer.from(opts.auth).toString('base64');
    return { opts, headers };
  }
}
