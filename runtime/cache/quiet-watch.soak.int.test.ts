/**
 * No false alarm: a healthy watch on which nothing happens for 10 minutes, with the default
 * timings, logs no warning — over HTTP/2, whose connection is pinged after every 30 s without a
 * frame, and over HTTP/1.1, whose only clocks are the probe on a connection of its own and the
 * 150 s silence that the API server's bookmarks (the first ~2 min after a watch opens, then one a
 * minute) keep from running out. At the end both watches still deliver a change within seconds.
 *
 * It takes 10 minutes and almost no CPU (one shared control plane, two idle managers), so it runs
 * beside the other integration tests rather than before or after them.
 */
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { createManager } from '../manager/index.js';
import { connectionFor } from '../rest/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { viaPort } from '../test-fixtures/stalling-proxy.js';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const QUIET_MS = 10 * 60_000;

describeWithControlPlane('cache: a quiet healthy watch', { shared: true }, (env) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('logs no warning over 10 minutes, over HTTP/2 and over HTTP/1.1, and still sees a change', {
    timeout: QUIET_MS + 120_000,
  }, async () => {
    const NS = env.namespace;
    const port = Number(new URL(env.cp.server).port);
    const run = (protocol: 'h2' | 'http/1.1') => {
      // A KubeConfig of its own, so a connection of its own; DISABLE_HTTP2 is read when it is made.
      const kubeConfig = viaPort(env.cp.kubeConfig, port);
      if (protocol === 'http/1.1') process.env['DISABLE_HTTP2'] = '1';
      const connection = connectionFor(kubeConfig);
      delete process.env['DISABLE_HTTP2'];
      const lines: Array<Record<string, unknown>> = [];
      const destination = {
        write: (msg: string): void => {
          for (const l of msg.split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
        },
      };
      const mgr = createManager({
        kubeConfig,
        namespace: NS,
        metricsBindAddress: '0',
        healthProbeBindAddress: '0',
        registry: new Registry(),
        logger: createLogger({ level: 'info', destination }),
      });
      const seen = new Set<string>();
      controllerFor(mgr, CM).complete({ reconcile: async (req) => void seen.add(req.name) });
      const ac = new AbortController();
      const running = mgr.start(ac.signal);
      cleanups.push(async () => {
        ac.abort();
        await running;
      });
      return { protocol, connection, lines, seen, mgr };
    };
    const runs = [run('h2'), run('http/1.1')];
    for (const r of runs)
      await waitFor(
        `the ${r.protocol} manager's caches`,
        () => r.lines.some((l) => l['msg'] === 'caches synced'),
        60_000,
      );
    for (const r of runs) expect(r.connection.streamProtocol).toBe(r.protocol);

    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));

    const client = createClient(env.cp.kubeConfig);
    await client.create({ ...CM, metadata: { name: 'after-the-quiet', namespace: NS } });
    for (const r of runs)
      await waitFor(`the ${r.protocol} manager to see a change`, () => r.seen.has('after-the-quiet'), 10_000);
    for (const r of runs) {
      const warnings = r.lines.filter((l) => l['level'] === 'warn' || l['level'] === 'error');
      console.info(
        `${r.protocol}: ${r.lines.length} log lines, ${warnings.length} warnings, ${r.connection.http2PingsAnswered} PINGs answered`,
      );
      expect(warnings, `${r.protocol} logged warnings`).toEqual([]);
    }
    // The HTTP/2 connection was pinged all along (about one PING per 30 s without a frame) and answered each time.
    expect(runs[0]!.connection.http2PingsAnswered).toBeGreaterThanOrEqual(10);
    expect(runs[1]!.connection.http2PingsAnswered).toBe(0);
  });
});
