/**
 * The one HTTP layer between a process and its API server: discovery, the informers' lists and
 * watches, the client and the metrics filter all send through the `ApiConnection` of their
 * KubeConfig (one per KubeConfig object, as client-go shares one transport per rest.Config).
 * Leader election makes a connection of its own, so a renewal never queues behind the cap.
 *
 * It owns two pools with the kubeconfig's TLS (CA, client certificate, server name, skip-verify)
 * or its proxy-url: requests share kept-alive sockets, at most `maxSockets` at once (default 25,
 * client-go's idle-connection count per host), so a burst of writes queues instead of opening a
 * socket per call; streams (watches, liveness probes) get a socket each outside that cap,
 * because a watch holds its socket for minutes and must never wait behind requests, nor starve
 * them. `http://` servers (kubectl proxy) are spoken to in plain HTTP.
 *
 * Every request gets the current credential (kubeconfig/credentials.ts); a 401 reloads it and,
 * when it changed, sends the request once more — the server refused it before acting on it. As
 * client-go: 429 and 5xx answers with Retry-After are retried after that wait (at most 10 times);
 * a request that fails on a reused kept-alive socket before any answer is resent only when it is
 * a GET, because a write may already have been applied. Each attempt is counted and timed
 * through the caller's RequestMetrics. Gates (`addGate`) may refuse a request synchronously as it
 * leaves.
 */
import { readFileSync } from 'node:fs';
import type * as http from 'node:http';
import * as https from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import type { Cluster, User } from '@kubernetes/client-node';
// From apimachinery's file, not its index: until 0.3.0 the index re-exports this module (deprecated), so it would import itself.
import { onAbort } from '../apimachinery/model.js';
import { Credentials, type KubeConfigSource } from '../kubeconfig/index.js';
import { realClock } from '../queue/clock.js';
import {
  HTTP2_PING_TIMEOUT_MS,
  HTTP2_READ_IDLE_MS,
  type Http2Health,
  Http2Streams,
  STREAM_KEEPALIVE_MS,
  type StreamAnswer,
} from './http2.js';
import { nodeHttp } from './node-http.js';

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
  /** sent as is when a string, as JSON otherwise */
  body?: unknown;
  contentType?: string;
  /** The Accept header (default application/json); see METADATA_ACCEPT for metadata-only reads. */
  accept?: string;
  signal?: AbortSignal;
  /**
   * Destroy the request when its connection carries no data for this long. Catches peers that
   * vanished without closing the connection (a watch would otherwise wait forever).
   */
  idleTimeoutMs?: number;
  metrics?: RequestMetrics;
  /** Called with each `Warning` header text (deprecations, unknown fields dropped, …). */
  onWarning?: (text: string) => void;
  /** Keep the answer's bytes (`Answer.bytes`), for a binary answer such as protobuf. */
  bytes?: boolean;
}

/**
 * Accept headers that ask the API server for metadata only (meta.k8s.io/v1 PartialObjectMetadata
 * and its list), as client-go's metadata client does; plain JSON after them, so a server that
 * cannot transform answers with whole objects rather than 406.
 */
export const METADATA_ACCEPT = {
  object: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
  list: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
} as const;

/** A request's path on the server: `pathname` for messages, `path` (with the query) to send. */
interface Target {
  pathname: string;
  path: string;
}

/** Characters a URL path keeps as they are (RFC 3986 pchar and '/', with %-escapes as given). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/** A complete answer, whatever its status. */
export interface Answer {
  status: number;
  body: string;
  /** the body's bytes, when the request asked for them */
  bytes?: Buffer;
  /** the answer's Content-Type header */
  contentType?: string;
}

/**
 * Asked synchronously as each request is about to leave the process (before it is created, and
 * again when it gets its socket, which may be later for a request queued behind the cap): an
 * Error refuses it, and nothing of it is sent. Leader election uses it so that a leader whose
 * lease may have passed to another replica sends nothing more, even when its event loop was
 * blocked and no timer could tell it so.
 */
export type RequestGate = () => Error | undefined;

/** A gate refused the request; nothing was sent. */
class RefusedError extends Error {
  constructor(override readonly cause: Error) {
    super(`refused: ${cause.message}`);
  }
}

export interface ConnectionOptions {
  /** Sockets requests may use at once (streams are not counted); default 25. */
  maxSockets?: number;
  /**
   * Streams (watches) over HTTP/2 where the server offers it, with PING health checks (default
   * true); false keeps them on HTTP/1.1.
   */
  http2?: boolean;
  /** When an HTTP/2 connection is pinged, and how long the PING may take (client-go's 30 s and 15 s). */
  http2Health?: Partial<Http2Health>;
}

export const DEFAULT_MAX_SOCKETS = 25;
/** Retries on Retry-After answers, as client-go's default maxRetries. */
const MAX_RETRIES = 10;
/** Idle kept-alive sockets are closed after this long (Go's IdleConnTimeout in client-go). */
const IDLE_SOCKET_MS = 90_000;
/** A request with no data for this long fails, unless its caller says otherwise. */
const REQUEST_IDLE_MS = 60_000;

let inFlight = 0;

/** Requests whose connection is not closed yet, over every ApiConnection (for leak checks). */
export function openRequestCount(): number {
  return inFlight;
}

/** Texts of RFC 7234 warnings: `299 - "text"`, several joined by commas. */
export function parseWarnings(header: string | string[]): string[] {
  const joined = Array.isArray(header) ? header.join(', ') : header;
  const texts: string[] = [];
  for (const m of joined.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) texts.push((m[1] ?? '').replace(/\\(.)/g, '$1'));
  return texts;
}

/** A reused keep-alive socket turned out to be closed before any answer. */
class StaleSocketError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

interface Pools {
  requests: http.Agent;
  streams: http.Agent;
  /** streams over HTTP/2 where the server offers it (TLS, no proxy-url) */
  h2?: Http2Streams;
}

const shared = new WeakMap<KubeConfigSource, ApiConnection>();

/** The connection every part of this process uses for `kc`, created on first use. */
export function connectionFor(kc: KubeConfigSource): ApiConnection {
  let c = shared.get(kc);
  if (!c) {
    c = new ApiConnection(kc);
    shared.set(kc, c);
  }
  return c;
}

/** Accepts either, so APIs can take a KubeConfig (the common case) or a connection. */
export function connectionOf(source: KubeConfigSource | ApiConnection): ApiConnection {
  return source instanceof ApiConnection ? source : connectionFor(source);
}

export class ApiConnection {
  readonly base: URL;
  /** The server URL's path without its trailing slashes ('' for most servers). */
  private readonly basePath: string;
  /** Host, port and protocol of every request, taken from `base` once. */
  private readonly baseOptions: http.RequestOptions;
  private pools: Pools | undefined;
  private creating: Promise<Pools> | undefined;
  private maxSockets: number;
  private credentials: Credentials | undefined;
  private gates: RequestGate[] = [];
  private readonly http2: boolean;
  private readonly http2Health: Http2Health;

  constructor(
    private readonly kc: KubeConfigSource,
    opts: ConnectionOptions = {},
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new TransportError('kubeconfig has no current cluster');
    this.base = new URL(cluster.server);
    this.basePath = this.base.pathname.replace(/\/+$/, '');
    const { protocol, hostname, port, auth } = urlToHttpOptions(this.base);
    this.baseOptions = { protocol, hostname, port, ...(auth ? { auth } : {}) };
    this.maxSockets = checkedMax(opts.maxSockets ?? DEFAULT_MAX_SOCKETS);
    // client-go's switch (k8s.io/apimachinery's SetTransportDefaults), honoured the same way.
    this.http2 = opts.http2 ?? !process.env['DISABLE_HTTP2'];
    this.http2Health = {
      readIdleMs: opts.http2Health?.readIdleMs ?? HTTP2_READ_IDLE_MS,
      pingTimeoutMs: opts.http2Health?.pingTimeoutMs ?? HTTP2_PING_TIMEOUT_MS,
    };
  }

  /**
   * What streams are sent over: 'h2' once the server answered ALPN with it, 'http/1.1' when it
   * did not (or HTTP/2 is off, or there is a proxy-url or no TLS), undefined before the first stream.
   */
  get streamProtocol(): 'h2' | 'http/1.1' | undefined {
    if (!this.pools) return undefined;
    return this.pools.h2 ? this.pools.h2.protocol : 'http/1.1';
  }

  /** HTTP/2 PINGs the server answered in time so far (each sent after 30 s without a frame). */
  get http2PingsAnswered(): number {
    return this.pools?.h2?.pingsAnswered ?? 0;
  }

  get host(): string {
    return this.base.host;
  }

  /** Changes the socket cap of requests; takes effect for the next request that needs a socket. */
  setMaxSockets(n: number): void {
    this.maxSockets = checkedMax(n);
    if (this.pools) this.pools.requests.maxSockets = this.maxSockets;
  }

  /** Checks `gate` before every request from now on (see RequestGate); returns its removal. */
  addGate(gate: RequestGate): () => void {
    this.gates = [...this.gates, gate];
    return () => void (this.gates = this.gates.filter((g) => g !== gate));
  }

  /** The first gate's refusal, if any. */
  private refusal(): Error | undefined {
    for (const gate of this.gates) {
      const err = gate();
      if (err) return err;
    }
    return undefined;
  }

  url(req: Pick<KubeRequest, 'path' | 'query'>): URL {
    const url = new URL(this.base.href.replace(/\/+$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /**
   * Where a request goes, as `url()` would say it, without building a URL object per request:
   * a path of plain URL characters is joined to the server's as is (API paths always are);
   * anything else (spaces, non-ASCII, dot segments) goes through URL's own normalisation.
   */
  private target(req: Pick<KubeRequest, 'path' | 'query'>): Target {
    if (!PLAIN_PATH.test(req.path) || req.path.includes('/.')) {
      const url = this.url(req);
      return { pathname: url.pathname, path: url.pathname + url.search };
    }
    const pathname = this.basePath + req.path;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) params.set(k, String(v));
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return { pathname, path: pathname + search };
  }

  /** Sends one request and reads the whole answer, retrying as the module comment says. */
  async request(req: KubeRequest): Promise<Answer> {
    const method = req.method ?? 'GET';
    const target = this.target(req);
    const payload = bodyOf(req);
    let cred = await this.credential(req, target);
    let reauthenticated = false;
    for (let retries = 0; ; retries++) {
      const started = performance.now();
      let res: http.IncomingMessage;
      let body: string;
      let bytes: Buffer | undefined;
      try {
        const send = (): Promise<http.IncomingMessage> =>
          this.send(
            target,
            method,
            req,
            payload,
            cred.headers,
            cred.pools.requests,
            req.idleTimeoutMs ?? REQUEST_IDLE_MS,
          );
        res = await send().catch((err: unknown) => {
          // Go's net/http rule, which client-go inherits: only a read is safe to send again.
          if (err instanceof StaleSocketError && method === 'GET' && !req.signal?.aborted) return send();
          throw err;
        });
        if (req.bytes) {
          bytes = await readBytes(res);
          body = bytes.toString('utf8');
        } else body = await readBody(res);
      } catch (err) {
        this.observe(req, '<error>', method, started);
        throw this.failure(method, target, req.signal, err);
      }
      const status = res.statusCode ?? 0;
      this.observe(req, String(status), method, started);
      if (status === 401 && !reauthenticated && cred.rotating && (await this.credentials!.refresh(cred.generation))) {
        reauthenticated = true;
        cred = await this.credential(req, target);
        continue;
      }
      const wait = retryAfter(res.headers['retry-after']);
      if (wait !== undefined && retries < MAX_RETRIES && (status === 429 || status >= 500)) {
        // The server did not process the request and said when to come back (client-go's checkWait).
        if (await pause(wait, req.signal)) continue;
        throw this.failure(method, target, req.signal, undefined);
      }
      const contentType = res.headers['content-type'];
      return bytes ? { status, body, bytes, ...(contentType ? { contentType } : {}) } : { status, body };
    }
  }

  /**
   * Sends one request on its own socket (outside the request cap) and resolves with the response
   * once its headers arrive, whatever the status. The caller consumes or destroys it; aborting
   * `signal` destroys it.
   */
  async open(req: KubeRequest): Promise<http.IncomingMessage> {
    const method = req.method ?? 'GET';
    const target = this.target(req);
    const payload = bodyOf(req);
    let cred = await this.credential(req, target);
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let res: http.IncomingMessage;
      try {
        res = await this.send(target, method, req, payload, cred.headers, cred.pools.streams, req.idleTimeoutMs);
      } catch (err) {
        this.observe(req, '<error>', method, started);
        throw this.failure(method, target, req.signal, err);
      }
      const status = res.statusCode ?? 0;
      this.observe(req, String(status), method, started);
      if (status === 401 && attempt === 0 && cred.rotating && (await this.credentials!.refresh(cred.generation))) {
        res.destroy();
        cred = await this.credential(req, target);
        continue;
      }
      return res;
    }
  }

  /**
   * Like `open`, for streams read to their end or for minutes (watches): over HTTP/2 where the
   * server offers it, so the stream's connection is health-checked with PINGs (http2.ts), over
   * HTTP/1.1 otherwise. The caller reads or destroys `body`; aborting `signal` destroys it.
   */
  async openStream(req: KubeRequest): Promise<StreamAnswer> {
    const method = req.method ?? 'GET';
    const target = this.target(req);
    const payload = bodyOf(req);
    let cred = await this.credential(req, target);
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let answer: StreamAnswer;
      try {
        answer = (await this.sendH2(target, method, req, payload, cred.headers, cred.pools)) ?? {
          ...(await this.send(target, method, req, payload, cred.headers, cred.pools.streams, req.idleTimeoutMs).then(
            (res) => ({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
          )),
          protocol: 'http/1.1',
        };
      } catch (err) {
        this.observe(req, '<error>', method, started);
        throw this.failure(method, target, req.signal, err);
      }
      this.observe(req, String(answer.status), method, started);
      if (
        answer.status === 401 &&
        attempt === 0 &&
        cred.rotating &&
        (await this.credentials!.refresh(cred.generation))
      ) {
        answer.body.destroy();
        cred = await this.credential(req, target);
        continue;
      }
      return answer;
    }
  }

  /** Closes idle kept-alive sockets; busy ones finish their request first. */
  closeIdle(): void {
    for (const agent of [this.pools?.requests, this.pools?.streams]) {
      for (const list of Object.values(agent?.freeSockets ?? {})) for (const s of list ?? []) s.destroy();
    }
    this.pools?.h2?.closeIdle();
  }

  /** Closes every socket, busy or not; the next request opens new ones. */
  close(): void {
    this.pools?.requests.destroy();
    this.pools?.streams.destroy();
    this.pools?.h2?.close();
    this.pools = undefined;
  }

  /** The pools and the credential to send a request with (both set up on first use). */
  private async credential(
    req: KubeRequest,
    target: Target,
  ): Promise<{ pools: Pools; headers: Record<string, string>; generation: number; rotating: boolean }> {
    if (req.signal?.aborted) throw this.failure(req.method ?? 'GET', target, req.signal, undefined);
    let pools: Pools;
    try {
      // One creation for concurrent first requests; a failure (a CA file not there yet) is retried next time.
      if (!this.pools) {
        this.creating ??= this.createPools().finally(() => (this.creating = undefined));
        this.pools = await this.creating;
      }
      pools = this.pools;
    } catch (err) {
      throw new TransportError(`${req.method ?? 'GET'} ${target.pathname}: ${(err as Error).message}`, { cause: err });
    }
    try {
      this.credentials ??= new Credentials(this.kc);
      const c = await this.credentials.get();
      return { pools, ...c, rotating: this.credentials.rotating };
    } catch (err) {
      throw new TransportError(`${req.method ?? 'GET'} ${target.pathname}: ${(err as Error).message}`, { cause: err });
    }
  }

  private observe(req: KubeRequest, code: string, method: string, started: number): void {
    req.metrics?.observe(code, method, this.host);
    req.metrics?.duration?.((performance.now() - started) / 1000, method, this.host);
  }

  /** One line: the request, then why it failed (or the caller's reason for cancelling it). */
  private failure(method: string, target: Target, signal: AbortSignal | undefined, err: unknown): TransportError {
    if (signal?.aborted) {
      const reason: unknown = signal.reason;
      const why = reason instanceof Error ? reason.message : 'aborted';
      return new TransportError(`${method} ${target.pathname}: cancelled: ${why}`, { cause: reason });
    }
    if (err instanceof TransportError) return err;
    if (err instanceof RefusedError)
      return new TransportError(`${method} ${target.pathname}: ${err.message}`, { cause: err.cause });
    const e = err instanceof StaleSocketError ? err.cause : err instanceof Error ? err : new Error(String(err));
    return new TransportError(`${method} ${target.pathname}: ${e.message}`, { cause: e });
  }

  /** A stream over HTTP/2; undefined when there is none to the server (the caller uses HTTP/1.1). */
  private async sendH2(
    target: Target,
    method: string,
    req: KubeRequest,
    payload: Buffer | undefined,
    auth: Record<string, string>,
    pools: Pools,
  ): Promise<StreamAnswer | undefined> {
    if (!pools.h2) return undefined;
    const headers: Record<string, string | number> = { ...auth, Accept: req.accept ?? 'application/json' };
    if (payload) headers['Content-Type'] = req.contentType ?? 'application/json';
    const answer = await pools.h2.open(
      {
        path: target.path,
        method,
        headers,
        payload,
        idleTimeoutMs: req.idleTimeoutMs,
        refusal: () => {
          const refused = this.gates.length > 0 ? this.refusal() : undefined;
          return refused && new RefusedError(refused);
        },
        onOpen: () => void inFlight++,
        onClose: () => void inFlight--,
      },
      req.signal,
    );
    const warning = answer?.headers.warning;
    if (warning && req.onWarning) for (const w of parseWarnings(warning)) req.onWarning(w);
    return answer;
  }

  private send(
    target: Target,
    method: string,
    req: KubeRequest,
    payload: Buffer | undefined,
    auth: Record<string, string>,
    agent: http.Agent,
    idleTimeoutMs: number | undefined,
  ): Promise<http.IncomingMessage> {
    const headers: Record<string, string | number> = { ...auth, Accept: req.accept ?? 'application/json' };
    if (payload) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = payload.length;
    }
    const request = this.base.protocol === 'http:' ? nodeHttp.request : https.request;
    return new Promise((resolve, reject) => {
      const refused = this.gates.length > 0 ? this.refusal() : undefined;
      if (refused) return reject(new RefusedError(refused));
      if (req.signal?.aborted) return reject(new TransportError('aborted'));
      let responded = false;
      const r = request({ ...this.baseOptions, path: target.path, method, headers, agent });
      inFlight++;
      // Asked again once the socket is there, right before the request is written to it.
      if (this.gates.length > 0) {
        r.on('socket', () => {
          const late = this.refusal();
          if (late) r.destroy(new RefusedError(late));
        });
      }
      if (idleTimeoutMs !== undefined) {
        r.setTimeout(idleTimeoutMs, () => r.destroy(new TransportError(`no data for ${idleTimeoutMs} ms`)));
      }
      // Keep-alive probes let the kernel notice a dead peer on long-lived streams (the request
      // pool's agent sets them on its own sockets).
      if (agent === this.pools?.streams) r.on('socket', (socket) => socket.setKeepAlive(true, STREAM_KEEPALIVE_MS));
      // One listener per signal, however many requests share it (a manager's fence does).
      const stopWaiting = req.signal
        ? onAbort(req.signal, () => void r.destroy(new TransportError('aborted')))
        : undefined;
      r.on('error', (err: NodeJS.ErrnoException) => {
        const stale = r.reusedSocket && !responded && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        reject(stale ? new StaleSocketError(err) : err);
      });
      r.on('close', () => {
        inFlight--;
        stopWaiting?.();
      });
      r.on('response', (res) => {
        responded = true;
        if (res.headers.warning && req.onWarning) for (const w of parseWarnings(res.headers.warning)) req.onWarning(w);
        resolve(res);
      });
      r.end(payload);
    });
  }

  private async createPools(): Promise<Pools> {
    const cluster = this.kc.getCurrentCluster()!;
    if (cluster.proxyUrl) return this.proxyPools();
    const tls = tlsOptions(cluster, this.kc.getCurrentUser());
    const plain = this.base.protocol === 'http:';
    const make = (o: http.AgentOptions): http.Agent =>
      plain ? new nodeHttp.Agent(o) : new https.Agent({ ...tls, ...o });
    return {
      requests: make({
        keepAlive: true,
        maxSockets: this.maxSockets,
        maxFreeSockets: this.maxSockets,
        timeout: IDLE_SOCKET_MS,
        scheduling: 'lifo',
      }),
      streams: make({ keepAlive: false }),
      ...(plain || !this.http2
        ? {}
        : {
            h2: new Http2Streams(
              this.base,
              tls,
              this.http2Health,
              () => this.gates.length > 0 && this.refusal() !== undefined,
            ),
          }),
    };
  }

  /** client-node builds HTTP CONNECT / SOCKS agents for a proxy-url; one for each pool. */
  private async proxyPools(): Promise<Pools> {
    const agent = async (): Promise<http.Agent> => {
      const opts: https.RequestOptions = {};
      await this.kc.applyToHTTPSOptions(opts);
      if (!(opts.agent instanceof nodeHttp.Agent))
        throw new TransportError(`proxy-url of the kubeconfig gave no agent`);
      return opts.agent;
    };
    const requests = await agent();
    requests.maxSockets = this.maxSockets;
    return { requests, streams: await agent() };
  }
}

function checkedMax(n: number): number {
  if (!(Number.isInteger(n) && n >= 1) && n !== Infinity) {
    throw new RangeError(`maxSockets must be a whole number of at least 1 (or Infinity), got ${n}`);
  }
  return n;
}

/** TLS settings of the kubeconfig's current cluster and user (data fields are base64, as in YAML). */
function tlsOptions(cluster: Cluster, user: User | null): https.AgentOptions {
  const pick = (file: string | undefined, data: string | undefined): Buffer | undefined =>
    file ? readFileSync(file) : data ? Buffer.from(data, 'base64') : undefined;
  const opts: https.AgentOptions = {};
  const ca = pick(cluster.caFile, cluster.caData);
  const cert = pick(user?.certFile, user?.certData);
  const key = pick(user?.keyFile, user?.keyData);
  // One context for every connection, built once: given as ca/cert/key, Node parses the PEMs
  // again for each new connection, and its agent keys the socket pool by a name that holds their
  // whole text, built and hashed on every request (secureContext is not part of that name).
  if (ca || cert || key)
    opts.secureContext = createSecureContext({ ...(ca && { ca }), ...(cert && { cert }), ...(key && { key }) });
  if (cluster.skipTLSVerify) opts.rejectUnauthorized = false;
  if (cluster.tlsServerName) opts.servername = cluster.tlsServerName;
  return opts;
}

function bodyOf(req: KubeRequest): Buffer | undefined {
  if (req.body === undefined) return undefined;
  return Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
}

/** The Retry-After header in ms (whole seconds, as client-go reads it), when present. */
function retryAfter(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

/**
 * Waits `ms`; false when `signal` aborts first. On the runtime's clock, which re-arms past
 * Node's 24.8-day timer limit: a longer Retry-After would otherwise fire after 1 ms.
 */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const stopWaiting = signal
      ? onAbort(signal, () => {
          realClock.clearTimeout(timer);
          resolve(false);
        })
      : undefined;
    const timer = realClock.setTimeout(() => {
      stopWaiting?.();
      resolve(true);
    }, ms);
  });
}

/**
 * Reads a response to the end (events, not async iteration: this runs once per request): an
 * HTTP/1.1 response, or the body of an HTTP/2 stream.
 */
export function readBody(res: Readable & { complete?: boolean }): Promise<string> {
  return readBytes(res).then((bytes) => bytes.toString('utf8'));
}

/** Reads a response to the end, as bytes. */
export function readBytes(res: Readable & { complete?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', (err) => reject(new TransportError(`reading response: ${err.message}`, { cause: err })));
    // Destroyed before the end (an abort, a reset): no 'end' follows.
    res.on('close', () => {
      if (!(res.complete ?? res.readableEnded))
        reject(new TransportError('reading response: the connection closed before the answer was complete'));
    });
  });
}
