/**
 * One HTTP layer for the whole manager, against the real API server behind a loopback TCP proxy
 * that counts connections: discovery, the informer's watch-list and eight workers' writes share
 * kept-alive sockets within `maxSockets` (the watch has its own), and every request is on the
 * manager's /metrics as client-go names it.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { controllerFor } from '../builder/index.js';
import { createClient, mergePatch } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, httpGet, metricValue, waitFor } from '../test-fixtures/helpers.js';
import { createManager } from './index.js';

/** Pipes loopback connections to `target`, counting them and the most open at once. */
async function countingProxy(
  target: number,
): Promise<{ port: number; accepted: () => number; peak: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let open = 0;
  let peak = 0;
  const server = net.createServer((client) => {
    accepted++;
    peak = Math.max(peak, ++open);
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.once('close', () => open--);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    peak: () => peak,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describeWithControlPlane('manager: one HTTP layer', { shared: true }, (env) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('sends discovery, the informer and 8 workers through at most maxSockets kept-alive sockets plus the watch, all counted', async () => {
    const proxy = await countingProxy(Number(new URL(env.cp.server).port));
    cleanups.push(proxy.close);
    const kc = new KubeConfig();
    kc.loadFromString(env.cp.kubeConfig.exportConfig());
    const cluster = kc.getCurrentCluster()!;
    const server = `https://127.0.0.1:${proxy.port}`;
    kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server } : c));

    const admin = createClient(env.cp.kubeConfig);
    await ensureNamespace(admin, 'one-layer');
    const count = 40;
    for (let i = 0; i < count; i++) {
      await admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: 'one-layer' },
      });
    }
    const registry = new Registry();
    const mgr = createManager({
      kubeConfig: kc,
      namespace: 'one-layer',
      metricsBindAddress: '127.0.0.1:0',
      registry,
      logger: createLogger({ level: 'silent' }),
      maxSockets: 2,
    });
    controllerFor(mgr, { apiVersion: 'v1', kind: 'ConfigMap' })
      .named('stamp')
      .withOptions({ maxConcurrentReconciles: 8 })
      .complete({
        async reconcile(req, ctx) {
          const cm = await mgr.client.get<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap' }, req, {
            signal: ctx.signal,
          });
          if (cm.metadata?.annotations?.['stamped']) return;
          // A write per object: all eight workers send at once.
          await mgr.client.patch(cm, mergePatch({ metadata: { annotations: { stamped: 'yes' } } }), {
            signal: ctx.signal,
          });
        },
      });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      await waitFor(
        'every ConfigMap stamped',
        async () => {
          const list = await admin.list<KubeObject>(
            { apiVersion: 'v1', kind: 'ConfigMap' },
            { namespace: 'one-layer' },
          );
          return list.items.filter((o) => o.metadata?.annotations?.['stamped']).length === count;
        },
        60_000,
        200,
      );
      console.info(`connections: ${proxy.accepted()} opened, at most ${proxy.peak()} at once`);
      // Two sockets for requests, one for the watch-list stream; nothing else was opened.
      expect(proxy.peak()).toBeLessThanOrEqual(3);
      expect(proxy.accepted()).toBeLessThanOrEqual(3);

      const text = (await httpGet(mgr.metricsPort!, '/metrics')).body;
      const host = `127.0.0.1:${proxy.port}`;
      expect(metricValue(text, 'rest_client_requests_total', { code: '200', method: 'PATCH', host })).toBe(count);
      // Discovery of ConfigMap and the watch-list request.
      expect(
        metricValue(text, 'rest_client_requests_total', { code: '200', method: 'GET', host }),
      ).toBeGreaterThanOrEqual(2);
      expect(metricValue(text, 'rest_client_request_duration_seconds_count', { verb: 'PATCH', host })).toBe(count);
      expect(text).toContain('# TYPE rest_client_request_duration_seconds histogram');
    } finally {
      ac.abort();
      await run;
    }
  });
});
