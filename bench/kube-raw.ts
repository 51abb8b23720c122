/**
 * A minimal Kubernetes client for the runtime benchmark: plain HTTPS with keep-alive and the
 * admin certificate, no cache, no retries, no rate limiter. It creates the benchmark's objects,
 * watches convergence, reads the API server's request counters, and is the "minimal concurrent
 * client" whose writes give the API server's own ceiling.
 */
import { Agent, request } from 'node:https';
import type { ControlPlane } from '../runtime/envtest/index.js';

export interface Raw {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }>;
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** Calls onEvent for each watch event until stop() is called. */
  watch(path: string, onEvent: (type: string, obj: Record<string, unknown>) => void): { stop(): void };
  close(): void;
}

export async function rawClient(plane: ControlPlane, maxSockets = 64): Promise<Raw> {
  const tls: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer } = {};
  await plane.kubeConfig.applyToHTTPSOptions(tls as Parameters<typeof plane.kubeConfig.applyToHTTPSOptions>[0]);
  const agent = new Agent({ keepAlive: true, maxSockets, ca: tls.ca, cert: tls.cert, key: tls.key });
  const url = new URL(plane.server);
  const base = { hostname: url.hostname, port: url.port, agent };

  const call = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          ...base,
          method,
          path,
          headers: data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {},
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });

  return {
    call,
    async json<T>(method: string, path: string, body?: unknown): Promise<T> {
      const r = await call(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body) as T;
    },
    watch(path, onEvent) {
      let buf = '';
      const req = request(
        { ...base, agent: new Agent({ ca: tls.ca, cert: tls.cert, key: tls.key }), method: 'GET', path },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            buf += c;
            let nl: number;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              if (!line.trim()) continue;
              const ev = JSON.parse(line) as { type: string; object: Record<string, unknown> };
              onEvent(ev.type, ev.object);
            }
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', () => undefined);
      req.end();
      return { stop: () => req.destroy() };
    },
    close: () => agent.destroy(),
  };
}

/** Sum of apiserver_request_total over the given resources (any verb, any code). */
export async function requestCount(raw: Raw, resources: string[]): Promise<number> {
  const text = (await raw.call('GET', '/metrics')).body;
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const res = /resource="([^"]*)"/.exec(line)?.[1] ?? '';
    if (resources.includes(res)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Runs fn over 0..count-1 with at most `concurrency` calls in flight. */
export async function pool(count: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
