/**
 * The manager's two small HTTP servers on node:http: metrics (`/metrics` in Prometheus text
 * format) and probes (`/healthz`, `/readyz`, and `/healthz/<check>`, `/readyz/<check>`).
 * Anything else is 404. `?verbose` lists every check also on success. A server may speak TLS
 * (its certificate replaced while it runs when the source changes) and may run a filter before
 * routing, so that an unauthenticated request learns nothing, not even which paths exist.
 */

import type * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { nodeHttp } from '../rest/node-http.js';
import type { CertificateSource } from '../certs/index.js';
import type { MetricsFilter } from '../metrics/index.js';
import type { BindAddress } from './bind-address.js';
import type { Checks } from './health.js';

export type Route = (
  req: http.IncomingMessage,
  url: URL,
) => Promise<{ status: number; type: string; body: string }> | undefined;

export function metricsRoute(registry: Registry): Route {
  return (_req, url) => {
    if (url.pathname !== '/metrics') return undefined;
    return registry.metrics().then((body) => ({ status: 200, type: registry.contentType, body }));
  };
}

export function checksRoute(prefix: '/healthz' | '/readyz', checks: Checks): Route {
  return (_req, url) => {
    const path = url.pathname;
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
    const only = path === prefix ? undefined : decodeURIComponent(path.slice(prefix.length + 1));
    return checks.run(only).then((r) => {
      const verbose = url.searchParams.has('verbose') || !r.ok;
      const body = verbose
        ? `${r.lines.join('\n')}\n${prefix.slice(1)} ${r.ok ? 'check passed' : 'check failed'}\n`
        : 'ok';
      return { status: r.ok ? 200 : 500, type: 'text/plain; charset=utf-8', body };
    });
  };
}

export interface RunningServer {
  /** The port actually bound (differs from the requested one for ':0'). */
  readonly port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Serve HTTPS with this certificate (new connections get a changed one); plain HTTP without. */
  tls?: CertificateSource;
  /** Runs before routing; an answer from it ends the request (401, 403, …). */
  filter?: MetricsFilter;
}

/** Listens on `addr` and serves the first route that claims each request. */
export async function serve(addr: BindAddress, routes: Route[], opts: ServeOptions = {}): Promise<RunningServer> {
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const filtered = opts.filter ? opts.filter(req, url) : Promise.resolve(undefined);
    filtered.then(
      (denied) => {
        if (denied) {
          res.writeHead(denied.status, { 'content-type': 'text/plain; charset=utf-8' }).end(denied.body);
          return;
        }
        const answer =
          req.method === 'GET' || req.method === 'HEAD' ? routes.map((r) => r(req, url)).find(Boolean) : undefined;
        if (!answer) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
          return;
        }
        answer.then(
          (a) => res.writeHead(a.status, { 'content-type': a.type }).end(a.body),
          (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
        );
      },
      // A filter reports its own failures; one that throws anyway must not leave the request hanging.
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error\n'),
    );
  };
  let unsubscribe = (): void => undefined;
  let server: http.Server | https.Server;
  if (opts.tls) {
    const source = opts.tls;
    const tlsServer = https.createServer({ ...source.current() }, handler);
    unsubscribe = source.onChange((pair) => tlsServer.setSecureContext({ ...pair }));
    server = tlsServer;
  } else {
    server = nodeHttp.createServer(handler);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => {
      unsubscribe();
      reject(err);
    });
    server.listen(addr.port, addr.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
