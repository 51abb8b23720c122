import { getEventListeners } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../rest/index.js';
import { NotFoundError } from './errors.js';
import { parseWarnings, Transport } from './transport.js';

/** A loopback HTTP server; `onRequest` sees how many requests the socket has carried. */
async function serve(
  onRequest: (req: http.IncomingMessage, res: http.ServerResponse, nthOnSocket: number) => void,
): Promise<{ kc: KubeConfig; close: () => Promise<void>; sockets: () => number }> {
  let sockets = 0;
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer({ keepAlive: true }, (req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    onRequest(req, res, n);
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return {
    kc,
    sockets: () => sockets,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('Transport', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('reuses one kept-alive connection and sends the bearer token', async () => {
    const auth: string[] = [];
    const srv = await serve((req, res) => {
      auth.push(String(req.headers.authorization));
      res.setHeader('Content-Type', 'application/json');
      res.end('{"ok":true}');
    });
    cleanup = srv.close;
    const t = new Transport(srv.kc);
    for (let i = 0; i < 5; i++) expect(await t.request({ method: 'GET', path: '/x' })).toEqual({ ok: true });
    expect(srv.sockets()).toBe(1);
    expect(new Set(auth)).toEqual(new Set(['Bearer secret-token']));
    t.close();
  });

  it('resends a GET once on a fresh connection when a reused socket dies, but never a write', async () => {
    const codes: string[] = [];
    const received: string[] = [];
    const srv = await serve((req, res, n) => {
      received.push(`${req.method} ${req.url}`);
      if (n > 1) {
        req.socket.destroy(); // the connection dies with the request delivered: no answer at all
        return;
      }
      res.end('{}');
    });
    cleanup = srv.close;
    const t = new Transport(srv.kc, { metrics: { observe: (code) => codes.push(code) } });
    await t.request({ method: 'GET', path: '/a' });
    await t.request({ method: 'GET', path: '/b' }); // dies on the reused socket, resent on a new one
    expect(srv.sockets()).toBe(2);
    expect(codes).toEqual(['200', '200']);
    // The server got this POST before the reset: sending it again could apply it twice.
    await expect(t.request({ method: 'POST', path: '/c', body: '{}' })).rejects.toBeInstanceOf(TransportError);
    expect(received.filter((r) => r === 'POST /c')).toHaveLength(1);
    expect(codes.at(-1)).toBe('<error>');
    t.close();
  });

  it('waits out Retry-After on 429 and retries, for any verb; times every request', async () => {
    const codes: string[] = [];
    const durations: string[] = [];
    let calls = 0;
    const srv = await serve((_req, res) => {
      if (++calls <= 2) {
        res.statusCode = 429;
        res.setHeader('Retry-After', '1');
        res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'TooManyRequests', code: 429 }));
        return;
      }
      res.end('{"ok":true}');
    });
    cleanup = srv.close;
    const t = new Transport(srv.kc, {
      metrics: { observe: (code) => codes.push(code), duration: (s, method) => durations.push(`${method} ${s >= 0}`) },
    });
    const started = Date.now();
    expect(await t.request({ method: 'POST', path: '/busy', body: '{}' })).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(codes).toEqual(['429', '429', '200']);
    expect(durations).toEqual(['POST true', 'POST true', 'POST true']);
    t.close();
  });

  it("does not retry a 429 without Retry-After, nor past the caller's signal", async () => {
    const srv = await serve((req, res) => {
      res.statusCode = 429;
      if (req.url === '/wait') res.setHeader('Retry-After', '30');
      res.end(
        JSON.stringify({
          kind: 'Status',
          status: 'Failure',
          reason: 'TooManyRequests',
          code: 429,
          message: 'slow down',
        }),
      );
    });
    cleanup = srv.close;
    const t = new Transport(srv.kc);
    await expect(t.request({ method: 'GET', path: '/now' })).rejects.toThrow('slow down');
    const err = await t
      .request({ method: 'GET', path: '/wait', signal: AbortSignal.timeout(300) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as Error).message).toMatch(/^GET \/wait: cancelled/);
    t.close();
  });

  it("waits out a Retry-After past Node's 24.8-day timer limit instead of retrying at once, without an overflow warning", async () => {
    let calls = 0;
    const srv = await serve((_req, res) => {
      calls++;
      res.statusCode = 503;
      res.setHeader('Retry-After', String(35 * 24 * 3600)); // 35 days
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503 }));
    });
    cleanup = srv.close;
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const t = new Transport(srv.kc);
      const ac = new AbortController();
      const pending = t.request({ method: 'GET', path: '/later', signal: ac.signal }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 500));
      // Still waiting: one request only, where an overflowing timer fires after 1 ms, 10 times.
      expect(calls).toBe(1);
      ac.abort(new Error('stopping'));
      const err = await pending;
      expect(err).toBeInstanceOf(TransportError);
      expect((err as Error).message).toBe('GET /later: cancelled: stopping');
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
      expect(calls).toBe(1);
      t.close();
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('maps a non-2xx answer to a typed error and counts it', async () => {
    const codes: string[] = [];
    const srv = await serve((_req, res) => {
      res.statusCode = 404;
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'NotFound', message: 'gone', code: 404 }));
    });
    cleanup = srv.close;
    const t = new Transport(srv.kc, { metrics: { observe: (code, method) => codes.push(`${code} ${method}`) } });
    await expect(t.request({ method: 'GET', path: '/y' })).rejects.toBeInstanceOf(NotFoundError);
    expect(codes).toEqual(['404 GET']);
    t.close();
  });

  it('gives up after the timeout with a TransportError counted as <error>', async () => {
    const codes: string[] = [];
    const srv = await serve(() => undefined); // never answers
    cleanup = srv.close;
    const t = new Transport(srv.kc, { timeoutMs: 200, metrics: { observe: (code) => codes.push(code) } });
    const started = Date.now();
    await expect(t.request({ method: 'GET', path: '/slow' })).rejects.toBeInstanceOf(TransportError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(codes).toEqual(['<error>']);
    t.close();
  });

  it('cancels a hung request when its signal aborts, with the reason in one line', async () => {
    const srv = await serve(() => undefined); // never answers
    cleanup = srv.close;
    const t = new Transport(srv.kc);
    const ac = new AbortController();
    const pending = t
      .request({ method: 'POST', path: '/hung', body: '{}', signal: ac.signal })
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    ac.abort(new DOMException('reconcile exceeded its reconciliationTimeout of 100 ms', 'TimeoutError'));
    const err = await pending;
    expect(err).toBeInstanceOf(TransportError);
    expect((err as Error).message).toBe(
      'POST /hung: cancelled: reconcile exceeded its reconciliationTimeout of 100 ms',
    );
    // An already-aborted signal sends nothing.
    await expect(t.request({ method: 'GET', path: '/never', signal: ac.signal })).rejects.toThrow(
      'GET /never: cancelled',
    );
    t.close();
  });

  it('holds one abort listener on a signal shared by many requests in flight', async () => {
    const srv = await serve((_req, res) => void setTimeout(() => res.end('{}'), 50));
    cleanup = srv.close;
    const fence = new AbortController();
    const t = new Transport(srv.kc, { fence: fence.signal });
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const all = Promise.all(Array.from({ length: 40 }, () => t.request({ method: 'GET', path: '/slow' })));
      await new Promise((r) => setTimeout(r, 20));
      expect(getEventListeners(fence.signal, 'abort')).toHaveLength(1);
      await all;
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
      t.close();
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('hands each Warning header text to onWarning', async () => {
    const srv = await serve((_req, res) => {
      res.setHeader('Warning', ['299 - "unknown field \\"spec.bogus\\""', '299 - "v1beta1 is deprecated, use v1"']);
      res.end('{}');
    });
    cleanup = srv.close;
    const warnings: string[] = [];
    const t = new Transport(srv.kc, { onWarning: (w) => warnings.push(w) });
    await t.request({ method: 'GET', path: '/w' });
    expect(warnings).toEqual(['unknown field "spec.bogus"', 'v1beta1 is deprecated, use v1']);
    t.close();
  });
});

describe('parseWarnings', () => {
  it('splits comma-joined warnings and unescapes quotes', () => {
    expect(parseWarnings('299 - "a, b", 299 kube-apiserver "say \\"hi\\""')).toEqual(['a, b', 'say "hi"']);
    expect(parseWarnings('garbage')).toEqual([]);
  });
});
