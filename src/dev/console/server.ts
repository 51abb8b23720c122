/**
 * The console's HTTP server (node:http, loopback only): the page and its script, the live stream
 * (Server-Sent Events: a snapshot, then each thing the store learns), one object's detail, the
 * trigger button, and the doors the operator reports through — its spans at /dev/spans (OTLP/HTTP
 * JSON at /v1/traces from an older embedded runtime), its informers' objects at /dev/objects and
 * webhook calls at /dev/webhooks. A request whose Host is not loopback is refused, so a web page
 * elsewhere cannot reach it through a rebound DNS name.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { PAGE_HTML, PAGE_JS, PAGE_CSS } from './page.js';
import { devSpansOf, spansOf } from './spans.js';
import type { ConsoleStore, KubeEvent, ObjectRef } from './store.js';
import type { ReportedWebhookCall } from './webhook-calls.js';
import type { ReportedObjects } from './reported-objects.js';

/** A page whose stream falls this far behind is cut off; it reconnects and starts from a fresh snapshot. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/**
 * Events are written to the streams at most this often, many to one write: a burst of a thousand
 * objects tells the page thousands of things, and one socket write each cost the dev process more
 * than everything else the console does with them. Well under the second a page may trail by.
 */
const FLUSH_MS = 25;

/**
 * What a later event of the same batch replaces: the page keeps objects by uid, reconciles by span
 * and restarts by their time, so within one batch only the latest of each is worth sending. Webhook calls and chart points are each new.
 */
function supersedes(type: string, data: unknown): string | undefined {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (type === 'object') return `object ${String(d['uid'])}`;
  if (type === 'reconcile') return `reconcile ${String(d['spanId'])}`;
  if (type === 'restart') return `restart ${String(d['at'])}`;
  return undefined;
}
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

export interface ConsoleServerOptions {
  store: ConsoleStore;
  /** Asks for a reconcile of the object; resolves with a line to show. */
  trigger: (ref: ObjectRef) => Promise<string>;
  /** The Events about an object, for its detail; none when unset. */
  events?: (ref: ObjectRef) => Promise<KubeEvent[]>;
  /** What the operator's informers delivered (posted to /dev/objects); ignored when unset. */
  objects?: (report: ReportedObjects) => void;
  port?: number;
}

export class ConsoleServer {
  private server: Server | undefined;
  private readonly streams = new Set<ServerResponse>();
  private unsubscribe: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /**
   * Events told since the last write to the streams, in the order first told; one that supersedes
   * another (see supersedes) takes its place. Serialized only when written.
   */
  private pending = new Map<string, { type: string; data: unknown }>();
  private told = 0;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ConsoleServerOptions) {}

  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(err instanceof Error ? err.message : String(err));
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.unsubscribe = this.opts.store.subscribe((e) => this.broadcast(e.type, e.data));
    // Comments keep idle streams open through anything that times them out.
    this.heartbeat = setInterval(() => this.broadcastRaw(': keep-alive\n\n'), 15_000);
    this.heartbeat.unref();
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.flush();
    for (const s of this.streams) s.end();
    this.streams.clear();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private broadcast(type: string, data: unknown): void {
    if (this.streams.size === 0) return;
    this.pending.set(supersedes(type, data) ?? `#${this.told++}`, { type, data });
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.size === 0) return;
    let text = '';
    for (const { type, data } of this.pending.values()) text += `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    this.pending.clear();
    this.broadcastRaw(text);
  }

  private broadcastRaw(text: string): void {
    for (const s of this.streams) {
      if (s.writableLength > MAX_BUFFERED_BYTES) {
        this.streams.delete(s);
        s.end();
        continue;
      }
      s.write(text);
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!LOOPBACK_HOST.test(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('the console answers on loopback only\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'GET') {
      if (path === '/') return send(res, 200, 'text/html; charset=utf-8', PAGE_HTML);
      if (path === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', PAGE_JS);
      if (path === '/app.css') return send(res, 200, 'text/css; charset=utf-8', PAGE_CSS);
      if (path === '/events') return this.stream(res);
      const m = /^\/api\/objects\/([^/]+)$/.exec(path);
      if (m) {
        const uid = decodeURIComponent(m[1] ?? '');
        const ref = this.opts.store.find(uid);
        const events = ref && this.opts.events ? await this.opts.events(ref) : [];
        const detail = this.opts.store.detail(uid, events);
        return detail ? json(res, 200, detail) : json(res, 404, { error: 'no such object in the history' });
      }
      if (path === '/api/snapshot') return json(res, 200, this.opts.store.snapshot());
      return send(res, 404, 'text/plain', 'not found\n');
    }
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'method not allowed\n');
    const body = await readJson(req);
    if (path === '/v1/traces') {
      this.opts.store.addSpans(spansOf(body));
      return json(res, 200, {});
    }
    if (path === '/dev/spans') {
      this.opts.store.addSpans(devSpansOf(body));
      return json(res, 200, {});
    }
    if (path === '/dev/objects') {
      this.opts.objects?.(body as ReportedObjects);
      return json(res, 200, {});
    }
    if (path === '/dev/webhooks') {
      this.opts.store.addWebhookCall(body as ReportedWebhookCall);
      return json(res, 200, {});
    }
    const m = /^\/api\/objects\/([^/]+)\/reconcile$/.exec(path);
    if (m) {
      const ref = this.opts.store.find(decodeURIComponent(m[1] ?? ''));
      if (!ref) return json(res, 404, { error: 'no such object in the history' });
      return json(res, 200, { message: await this.opts.trigger(ref) });
    }
    return send(res, 404, 'text/plain', 'not found\n');
  }

  private stream(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    // What the open pages have not been sent yet is in the snapshot: it goes to them alone.
    this.flush();
    res.write(`event: snapshot\ndata: ${JSON.stringify(this.opts.store.snapshot())}\n\n`);
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  let raw = Buffer.concat(chunks);
  if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
  return raw.length === 0 ? {} : (JSON.parse(raw.toString('utf8')) as unknown);
}
