/**
 * The thinnest HTTP layer over a KubeConfig: one request, auth and TLS applied by client-node,
 * non-2xx answers turned into `HttpStatusError`. Discovery and the cache's list/watch use it;
 * streaming callers get the raw response and own its lifetime.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** The body of a failed request when the server sent a metav1.Status. */
export interface ApiStatus {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: unknown;
}

/** A response with a non-2xx status code. `code` is the HTTP status (410 for Gone, 404, …). */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly code: number,
    readonly reason: string | undefined,
    message: string,
    readonly status?: ApiStatus,
  ) {
    super(message);
  }
}

/** The request never produced an HTTP status (refused, reset, TLS failure, aborted). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
}

/** Counts requests for `rest_client_requests_total{code,method,host}` (code '<error>' when none came back). */
export interface RequestMetrics {
  observe(code: string, method: string, host: string): void;
  /** rest_client_request_duration_seconds{verb,host}: from send to the whole answer (or failure). */
  duration?(seconds: number, method: string, host: string): void;
}

export interface KubeRequest {
  method?: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /**
   * Destroy the request when its connection carries no data for this long. Catches peers that
   * vanished without closing the connection (a watch would otherwise wait forever).
   */
  idleTimeoutMs?: number;
  metrics?: RequestMetrics;
}

let inFlight = 0;

/** Requests sent through `openRequest` whose connection is not closed yet (for leak checks). */
export function openRequestCount(): number {
  return inFlight;
}

function buildUrl(kc: KubeConfig, req: KubeRequest): URL {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new TransportError('kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/+$/, '') + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (v !== undefined) url.searchParams.set(k, String(v));
  }
  return url;
}

/**
 * Sends one request and resolves with the response once headers arrive, whatever the status.
 * The caller must consume or destroy the response; aborting `signal` destroys it.
 */
export async function openRequest(kc: KubeConfig, req: KubeRequest): Promise<http.IncomingMessage> {
  const url = buildUrl(kc, req);
  const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const opts: https.RequestOptions = {
    method: req.method ?? 'GET',
    headers: {
      Accept: 'application/json',
      ...(payload ? { 'Content-Type': req.contentType ?? 'application/json', 'Content-Length': payload.length } : {}),
    },
  };
  await kc.applyToHTTPSOptions(opts);
  // client-node builds a fresh agent per call; destroy it when done so no socket outlives us.
  const agent = opts.agent instanceof http.Agent ? opts.agent : undefined;
  const send = url.protocol === 'http:' ? http.request : https.request;
  return new Promise((resolve, reject) => {
    if (req.signal?.aborted) {
      agent?.destroy();
      reject(new TransportError('aborted'));
      return;
    }
    const request = send(url, opts);
    inFlight++;
    if (req.idleTimeoutMs !== undefined) {
      const ms = req.idleTimeoutMs;
      request.setTimeout(ms, () => request.destroy(new TransportError(`no data for ${ms} ms`)));
    }
    // Keep-alive probes let the kernel notice a dead peer on long-lived streams.
    request.on('socket', (socket) => socket.setKeepAlive(true, 30_000));
    const onAbort = (): void => {
      request.destroy(new TransportError('aborted'));
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const method = opts.method ?? 'GET';
    request.on('error', (err) => {
      if (!req.signal?.aborted) req.metrics?.observe('<error>', method, url.host);
      reject(err instanceof TransportError ? err : new TransportError(err.message, { cause: err }));
    });
    request.on('close', () => {
      inFlight--;
      req.signal?.removeEventListener('abort', onAbort);
      agent?.destroy();
    });
    request.on('response', (res) => {
      req.metrics?.observe(String(res.statusCode ?? 0), method, url.host);
      resolve(res);
    });
    request.end(payload);
  });
}

async function readBody(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of res) chunks.push(chunk as Buffer);
  } catch (err) {
    throw new TransportError(`reading response: ${(err as Error).message}`, { cause: err });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Turns a failed response body into a typed error, keeping the server's Status when there is one. */
export function statusError(code: number, body: string): HttpStatusError {
  let status: ApiStatus | undefined;
  try {
    const parsed = JSON.parse(body) as ApiStatus;
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // not JSON: keep the raw text as the message
  }
  const message = status?.message ?? (body.trim() || http.STATUS_CODES[code] || `HTTP ${code}`);
  return new HttpStatusError(code, status?.reason, message, status);
}

/** One request with a JSON answer; throws `HttpStatusError` on non-2xx, `TransportError` otherwise. */
export async function requestJSON<T>(kc: KubeConfig, req: KubeRequest): Promise<T> {
  const res = await openRequest(kc, req);
  const body = await readBody(res);
  const code = res.statusCode ?? 0;
  if (code < 200 || code >= 300) throw statusError(code, body);
  return (body ? JSON.parse(body) : undefined) as T;
}

export { readBody };
