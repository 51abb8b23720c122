import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection, HttpStatusError, openRequestCount, requestJSON, statusError, TransportError } from './index.js';

// A loopback HTTP server standing in for a peer that misbehaves in ways a real API server
// cannot be made to: it answers some paths normally and never answers on /silent.
let server: http.Server;
let kc: KubeConfig;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/silent')) return; // accept, then say nothing
    if (req.url?.startsWith('/missing')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          status: 'Failure',
          reason: 'NotFound',
          code: 404,
          message: 'configmaps "x" not found',
        }),
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, auth: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('http layer', () => {
  it('sends the query and the kubeconfig credentials', async () => {
    const got = await requestJSON<{ path: string; auth: string }>(kc, {
      path: '/api/v1/pods',
      query: { limit: 5, continue: undefined },
    });
    expect(got).toEqual({ path: '/api/v1/pods?limit=5', auth: 'Bearer secret-token' });
  });

  it('sends each path and query exactly as the URL built by connection.url() says, with and without a path on the server', async () => {
    const { port } = server.address() as AddressInfo;
    const cases: { path: string; query?: Record<string, string | number | boolean | undefined> }[] = [
      { path: '/apis/apps/v1/namespaces/bench/deployments/m1' },
      {
        path: '/api/v1/pods',
        query: { labelSelector: 'app in (a,b),tier!=x', fieldSelector: 'metadata.name=m 1', watch: true },
      },
      { path: '/api/v1/namespaces/a b/configmaps/café' },
      { path: '/api/v1/namespaces/x/../y' },
      { path: "/api/v1/x:y@z/!$&'()*+,;=%41~" },
      { path: '/api/v1/pods', query: { continue: 'eyJ2Ijoi+/=', limit: undefined } },
    ];
    for (const server of [
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}/k8s/clusters/c1//`,
    ]) {
      const withPath = new KubeConfig();
      withPath.loadFromOptions({
        clusters: [{ name: 'c', server }],
        users: [{ name: 'u' }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      const connection = new ApiConnection(withPath);
      for (const c of cases) {
        const url = connection.url(c);
        const got = await requestJSON<{ path: string }>(connection, c);
        expect(got.path, `${server} ${c.path}`).toBe(url.pathname + url.search);
      }
      connection.close();
    }
  });

  it('turns a Status answer into HttpStatusError with code and reason', async () => {
    const err = await requestJSON(kc, { path: '/missing' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ code: 404, reason: 'NotFound', message: 'configmaps "x" not found' });
    expect(statusError(502, 'bad gateway')).toMatchObject({ code: 502, reason: undefined, message: 'bad gateway' });
  });

  it('gives up on a silent peer after the idle timeout, and on abort', async () => {
    const started = Date.now();
    const idle = await requestJSON(kc, { path: '/silent', idleTimeoutMs: 200 }).catch((e: unknown) => e);
    expect(idle).toBeInstanceOf(TransportError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);

    const ac = new AbortController();
    const pending = requestJSON(kc, { path: '/silent', signal: ac.signal }).catch((e: unknown) => e);
    setTimeout(() => ac.abort(), 50);
    expect(await pending).toBeInstanceOf(TransportError);
    // 'close' follows 'error' once the socket is torn down
    for (let i = 0; i < 100 && openRequestCount() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openRequestCount()).toBe(0);
  });
});
