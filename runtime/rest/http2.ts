/**
 * Streams (watches) over HTTP/2, so a dead connection is found the way client-go finds it: a
 * session that has carried no frame for `readIdleMs` (30 s) is sent a PING, and one that does not
 * answer within `pingTimeoutMs` (15 s) is closed with every stream on it, which then fail and are
 * re-opened on a new connection — at most 45 s after the last frame. This is the only probe that
 * travels on the watch's own connection: a NAT or load balancer that forgot the connection (no
 * FIN, no RST) swallows the PING, while a probe on a new connection passes and TCP keep-alive is
 * answered by whatever kernel is nearest (a proxy's). A healthy server answers the PING however
 * quiet its watches are, so there is no false alarm.
 *
 * HTTP/2 is asked for with ALPN on a TLS connection of its own (`h2`, then `http/1.1`). A server
 * or proxy that answers `http/1.1` is remembered for the connection's life and `open` answers
 * undefined: the caller sends over HTTP/1.1 (see liveness.ts for what then finds a dead watch).
 * Streams share a session up to the server's SETTINGS_MAX_CONCURRENT_STREAMS, then a new session
 * is opened; a session is closed when its last stream closes, as an HTTP/1.1 stream's socket is. Each stream's and the
 * session's flow-control windows are 4 MiB and 16 MiB (client-go: 4 MiB and 1 GiB), so a large
 * initial list is not slowed to one 64 KiB window per round trip.
 */
import type { IncomingHttpHeaders } from 'node:http';
import * as http2 from 'node:http2';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import * as tls from 'node:tls';

/** client-go's ReadIdleTimeout and PingTimeout (k8s.io/client-go/transport). */
export const HTTP2_READ_IDLE_MS = 30_000;
export const HTTP2_PING_TIMEOUT_MS = 15_000;
/** TCP keep-alive idle time of stream sockets; Node's libuv then probes every 1 s, 10 times (Linux). */
export const STREAM_KEEPALIVE_MS = 30_000;
/** A new connection's TCP connect and TLS handshake (client-go's TLSHandshakeTimeout is 10 s). */
const HANDSHAKE_TIMEOUT_MS = 10_000;
const STREAM_WINDOW = 4 * 1024 * 1024;
const SESSION_WINDOW = 16 * 1024 * 1024;

/** The connection stopped answering: it did not acknowledge a PING in time. */
export class DeadConnectionError extends Error {
  override readonly name = 'DeadConnectionError';
}

export interface Http2Health {
  /** silence on a session after which it is pinged */
  readIdleMs: number;
  /** how long the PING may go unanswered before the session is closed */
  pingTimeoutMs: number;
}

/** A stream's answer once its headers are in; `body` is read (or destroyed) by the caller. */
export interface StreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
  protocol: 'h2' | 'http/1.1';
}

export interface Http2Request {
  path: string;
  method: string;
  headers: Record<string, string | number>;
  payload: Buffer | undefined;
  /** no data on the stream for this long destroys it */
  idleTimeoutMs: number | undefined;
  /** checked synchronously right before the stream is sent; an Error refuses it */
  refusal: () => Error | undefined;
  /** called once per stream: when it is sent, and when it closes */
  onOpen: () => void;
  onClose: () => void;
}

/** One HTTP/2 connection, with its health check and the number of streams on it. */
class Session {
  open = 0;
  usable = true;
  private pingTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly h2: http2.ClientHttp2Session,
    private readonly socket: tls.TLSSocket,
    private readonly health: Http2Health,
    private readonly host: string,
    private readonly answered: () => void,
    private readonly fenced: () => boolean,
  ) {
    h2.on('goaway', () => (this.usable = false));
    h2.on('close', () => {
      this.usable = false;
      if (this.pingTimer) clearTimeout(this.pingTimer);
    });
    h2.on('error', () => undefined); // its streams fail with it, and their callers are told
    // Frames of its streams re-arm it (in or out; sent here are only new streams), a PING's answer
    // does not: it is re-armed then, so it measures the time since the last frame read.
    h2.on('timeout', () => this.idle());
    h2.setTimeout(health.readIdleMs);
  }

  get capacity(): number {
    return this.h2.remoteSettings.maxConcurrentStreams ?? 100;
  }

  /**
   * Closes the connection without another byte: no RST_STREAM, no GOAWAY, no PING. For a fenced
   * process (a gate refuses its requests: its lease may be another replica's), which sends nothing
   * more at all, as its HTTP/1.1 sockets do when destroyed.
   */
  drop(): void {
    this.usable = false;
    this.socket.destroy();
  }

  /** The idle tick: a session with streams is pinged. */
  private idle(): void {
    if (this.h2.destroyed || this.pingTimer || this.open === 0) return;
    if (this.fenced()) {
      this.drop();
      return;
    }
    this.pingTimer = setTimeout(() => {
      const err = new DeadConnectionError(
        `HTTP/2 connection to ${this.host} did not answer a PING within ${this.health.pingTimeoutMs} ms ` +
          `after ${this.health.readIdleMs} ms without a frame: closed with its ${this.open} stream(s), which are re-opened on a new connection`,
      );
      this.usable = false;
      this.h2.destroy(err);
    }, this.health.pingTimeoutMs);
    this.pingTimer.unref();
    const sent = this.h2.ping((err) => {
      if (err || !this.pingTimer) return;
      clearTimeout(this.pingTimer);
      this.pingTimer = undefined;
      this.answered();
      this.h2.setTimeout(this.health.readIdleMs);
    });
    if (!sent && this.pingTimer) {
      clearTimeout(this.pingTimer);
      this.pingTimer = undefined;
      this.h2.setTimeout(this.health.readIdleMs);
    }
  }

  took(): void {
    this.open++;
    if (this.open === 1) this.h2.ref();
  }

  /** A session whose last stream closed is closed too, as an HTTP/1.1 stream's socket is: nothing lingers. */
  released(): void {
    this.open--;
    if (this.open > 0) return;
    if (this.fenced()) {
      this.drop();
      return;
    }
    this.usable = false;
    this.h2.close();
  }
}

/** The HTTP/2 sessions of one ApiConnection. */
export class Http2Streams {
  /** what the server answered ALPN with; undefined until the first connection */
  protocol: 'h2' | 'http/1.1' | undefined;
  private readonly sessions = new Set<Session>();
  private connecting: Promise<Session | undefined> | undefined;
  /** the socket of `connecting`, until its handshake is done */
  private handshaking: tls.TLSSocket | undefined;
  /** PINGs answered in time, over every session so far (for tests and diagnostics) */
  pingsAnswered = 0;

  constructor(
    private readonly base: URL,
    private readonly tlsOptions: tls.ConnectionOptions,
    private readonly health: Http2Health,
    /** true once the connection's gates refuse requests: streams then end by dropping the socket */
    private readonly fenced: () => boolean = () => false,
  ) {}

  /**
   * Sends one stream; resolves once its headers are in, or with undefined when the server does
   * not speak HTTP/2 (nothing was sent then).
   */
  async open(req: Http2Request, signal: AbortSignal | undefined): Promise<StreamAnswer | undefined> {
    if (this.protocol === 'http/1.1') return undefined;
    const session = await untilAborted(this.session(), signal);
    if (!session) return undefined;
    return new Promise((resolve, reject) => {
      const refused = req.refusal();
      if (refused) return reject(refused);
      if (signal?.aborted) return reject(new Error('aborted'));
      const headers: http2.OutgoingHttpHeaders = { ':method': req.method, ':path': req.path };
      for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.h2.request(headers, { endStream: req.payload === undefined });
      } catch (err) {
        return reject(err);
      }
      session.took();
      req.onOpen();
      const onAbort = (): void => (this.fenced() ? session.drop() : void stream.destroy(new Error('aborted')));
      signal?.addEventListener('abort', onAbort, { once: true });
      stream.once('close', () => {
        session.released();
        signal?.removeEventListener('abort', onAbort);
        req.onClose();
      });
      if (req.idleTimeoutMs !== undefined) {
        const ms = req.idleTimeoutMs;
        stream.setTimeout(ms, () => stream.destroy(new Error(`no data for ${ms} ms`)));
      }
      stream.once('error', reject);
      stream.once('response', (h) => {
        stream.off('error', reject);
        resolve({ status: Number(h[':status']), headers: h as IncomingHttpHeaders, body: stream, protocol: 'h2' });
      });
      if (req.payload !== undefined) stream.end(req.payload);
    });
  }

  /** Closes every session, busy or not. */
  close(): void {
    this.handshaking?.destroy(new Error('the connection was closed'));
    for (const s of this.sessions) s.h2.destroy();
    this.sessions.clear();
  }

  /** Closes sessions with no stream on them. */
  closeIdle(): void {
    for (const s of this.sessions) if (s.open === 0) s.h2.close();
  }

  /** A session with room for one more stream, connecting one if none has it. */
  private async session(): Promise<Session | undefined> {
    for (;;) {
      for (const s of this.sessions) if (s.usable && !s.h2.destroyed && s.open < s.capacity) return s;
      this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
      const s = await this.connecting;
      if (!s) return undefined;
      if (s.usable && s.open < s.capacity) return s;
    }
  }

  private connect(): Promise<Session | undefined> {
    const host = this.base.hostname.replace(/^\[|\]$/g, '');
    const port = Number(this.base.port || 443);
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        ...this.tlsOptions,
        host,
        port,
        ...(this.tlsOptions.servername === undefined && !isIP(host) ? { servername: host } : {}),
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      this.handshaking = socket;
      socket.once('close', () => {
        if (this.handshaking === socket) this.handshaking = undefined;
      });
      socket.once('error', reject);
      socket.setTimeout(HANDSHAKE_TIMEOUT_MS, () =>
        socket.destroy(new Error(`no TLS connection to ${this.base.host} within ${HANDSHAKE_TIMEOUT_MS} ms`)),
      );
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        socket.setTimeout(0);
        this.handshaking = undefined;
        if (socket.alpnProtocol !== 'h2') {
          // A server or proxy that speaks only HTTP/1.1 (or no ALPN): its streams go over HTTP/1.1.
          socket.destroy();
          this.protocol = 'http/1.1';
          return resolve(undefined);
        }
        this.protocol = 'h2';
        socket.setKeepAlive(true, STREAM_KEEPALIVE_MS);
        const h2 = http2.connect(this.base.origin, {
          createConnection: () => socket,
          settings: { enablePush: false, initialWindowSize: STREAM_WINDOW },
        });
        const session = new Session(h2, socket, this.health, this.base.host, () => this.pingsAnswered++, this.fenced);
        this.sessions.add(session);
        h2.once('close', () => this.sessions.delete(session));
        h2.once('connect', () => {
          h2.setLocalWindowSize(SESSION_WINDOW);
          h2.unref();
          resolve(session);
        });
        h2.once('error', (err) => reject(err));
      });
    });
  }
}

/** `work`, or a rejection as soon as `signal` aborts (the work goes on for whoever else waits for it). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
