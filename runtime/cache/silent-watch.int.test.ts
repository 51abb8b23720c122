/**
 * A watch connection dropped silently (no FIN, no RST) in front of a healthy API server, against
 * a real one: a loopback proxy stops forwarding the connections open at that moment without
 * closing them, while new connections work — so the liveness probe, which opens one of its own,
 * passes. The watch must still be taken for dead once it has carried no event and no bookmark
 * for the configured silence, re-opened from its last resourceVersion (no relist), and the
 * controller must see the edit made while its watch was blackholed.
 */
import { Registry } from 'prom-client';
import type { KubeObject } from '../apimachinery/index.js';
import { afterEach, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { createManager } from '../manager/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { StallingProxy, viaPort } from '../test-fixtures/stalling-proxy.js';

const NS = 'blackhole';
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const SILENCE_MS = 10_000;

describeWithControlPlane('cache: a silently dropped watch connection', { shared: true }, (env) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('is re-opened within the silence + 15 s without a relist, and the controller sees the edit made meanwhile', async () => {
    const client = createClient(env.cp.kubeConfig);
    await ensureNamespace(client, NS);
    await client.create({ ...CM, metadata: { name: 'watched', namespace: NS }, data: { v: '1' } });
    const proxy = new StallingProxy(Number(new URL(env.cp.server).port));
    const port = await proxy.listen();
    cleanups.push(() => proxy.close());

    const logs: Array<{ t: number; line: Record<string, unknown> }> = [];
    const destination = {
      write: (msg: string): void => {
        for (const l of msg.split('\n'))
          if (l.trim()) logs.push({ t: performance.now(), line: JSON.parse(l) as Record<string, unknown> });
      },
    };
    const mgr = createManager({
      kubeConfig: viaPort(env.cp.kubeConfig, port),
      namespace: NS,
      metricsBindAddress: '0',
      registry: new Registry(),
      logger: createLogger({ level: 'info', destination }),
      cache: { watchSilenceMs: SILENCE_MS },
    });
    const seen: Array<{ t: number; v: string | undefined }> = [];
    controllerFor(mgr, CM).complete({
      reconcile: async (req) => {
        const cm = await mgr.client.get<KubeObject & { data?: Record<string, string> }>(CM, req);
        seen.push({ t: performance.now(), v: cm.data?.['v'] });
      },
    });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    cleanups.push(async () => {
      ac.abort();
      await run;
    });
    await waitFor('the first reconcile', () => seen.some((s) => s.v === '1'), 60_000);

    // Right after the initial list: the watch open now is the one the blackhole swallows.
    const blackholedAt = proxy.blackhole();
    await client.update({ ...(await client.get(CM, { namespace: NS, name: 'watched' })), data: { v: '2' } });
    await waitFor('the controller to see the edit', () => seen.some((s) => s.v === '2'), SILENCE_MS + 30_000, 100);

    const sawEdit = seen.find((s) => s.v === '2')!.t;
    console.info(`edit seen ${Math.round(sawEdit - blackholedAt)} ms after the blackhole (silence ${SILENCE_MS} ms)`);
    expect(sawEdit - blackholedAt).toBeLessThan(SILENCE_MS + 15_000);
    const recycled = logs.filter((l) => String(l.line['msg']).includes('no event or bookmark'));
    expect(recycled.length).toBeGreaterThanOrEqual(1);
    expect(recycled[0]!.t).toBeGreaterThan(blackholedAt);
    expect(recycled[0]!.line).toMatchObject({ level: 'warn', relist: false });
    // Resumed from its resourceVersion: no list was needed, so none of the errors asked for one.
    expect(logs.filter((l) => l.line['relist'] === true)).toEqual([]);
  });
});
