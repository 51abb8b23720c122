/**
 * Lease lost → stop now, against a real API server. Replica A reaches the API server through
 * a loopback TCP proxy that can stall (a network partition: bytes are swallowed both ways);
 * replica B connects directly. When A's renewals stall, A must give up leadership at its renew
 * deadline — cancelling the renewal and the writes in flight, starting no reconcile, sending
 * nothing more — and reject start() at once instead of waiting out the graceful shutdown;
 * B then takes the lease and reconciles.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger, memoryDestination, type MemoryDestination } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { StallingProxy, viaPort } from '../test-fixtures/stalling-proxy.js';
import { createManager, LeaderElectionLostError, type Manager } from './index.js';

const NS = 'lease-loss';
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const TIMING = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };

interface Replica {
  mgr: Manager;
  ac: AbortController;
  run: Promise<unknown>;
  starts: number[];
  writeErrors: string[];
  logs: MemoryDestination;
}

describeWithControlPlane('manager: a lost lease stops at once', { shared: true }, (env) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function replica(name: string, kubeConfig: KubeConfig): Replica {
    const logs = memoryDestination();
    const mgr = createManager({
      kubeConfig,
      metricsBindAddress: '0',
      registry: new Registry(),
      logger: createLogger({ level: 'info', destination: logs }),
      namespace: NS,
      fieldOwner: name,
      leaderElection: { id: 'lease-loss', namespace: NS, identity: name, ...TIMING },
    });
    const r: Replica = { mgr, ac: new AbortController(), run: Promise.resolve(), starts: [], writeErrors: [], logs };
    controllerFor(mgr, CM).complete({
      async reconcile(req, ctx) {
        r.starts.push(performance.now());
        const cm = await mgr.client.get(CM, req, { signal: ctx.signal });
        const annotations = { ...cm.metadata?.annotations, writer: name, at: String(Date.now()) };
        try {
          await mgr.client.update({ ...cm, metadata: { ...cm.metadata, annotations } }, { signal: ctx.signal });
        } catch (err) {
          r.writeErrors.push((err as Error).message);
          throw err;
        }
        return { requeueAfter: 100 };
      },
    });
    r.run = mgr.start(r.ac.signal).then(
      () => 'stopped',
      (err: unknown) => err,
    );
    cleanups.push(async () => {
      r.ac.abort();
      await r.run;
    });
    return r;
  }

  it('stops reconciling and writing at the renew deadline, rejects start() at once, and the other replica takes over', async () => {
    const client = createClient(env.cp.kubeConfig);
    await ensureNamespace(client, NS);
    await client.create({ ...CM, metadata: { name: 'busy', namespace: NS } });
    const proxy = new StallingProxy(Number(new URL(env.cp.server).port));
    const port = await proxy.listen();
    cleanups.push(() => proxy.close());

    const a = replica('a', viaPort(env.cp.kubeConfig, port));
    await a.mgr.elected();
    const b = replica('b', env.cp.kubeConfig);
    await waitFor('a to reconcile a few times', () => a.starts.length >= 5, 30_000);

    const stalledAt = proxy.stall();
    const outcome = await a.run;
    const lostAt = performance.now();
    expect(outcome).toBeInstanceOf(LeaderElectionLostError);
    expect((outcome as Error).message).toBe(`lost the lease ${NS}/lease-loss`);
    // Leadership ends within one retry period plus the renew deadline of the stall, however
    // long the stalled requests would have hung; 1 s of slack for this shared machine.
    expect(lostAt - stalledAt).toBeLessThan(TIMING.retryPeriodMs + TIMING.renewDeadlineMs + 1_000);
    // start() did not wait for the in-flight reconcile: its write was cancelled by the fence.
    expect(a.writeErrors.some((m) => m.includes('cancelled: lost the lease lease-loss/lease-loss'))).toBe(true);
    // Nothing started and nothing was sent once the lease was gone.
    expect(a.starts.filter((t) => t >= lostAt)).toEqual([]);
    // The reconcile cut off by the loss is one info line without a stack, not a 'Reconciler error'.
    const lines = a.logs.records();
    expect(lines.filter((l) => l['msg'] === 'reconcile cancelled: lost leadership').length).toBeGreaterThanOrEqual(1);
    expect(
      lines.filter((l) => l['msg'] === 'reconcile cancelled: lost leadership').every((l) => l['level'] === 'info'),
    ).toBe(true);
    expect(lines.filter((l) => l['msg'] === 'Reconciler error')).toEqual([]);
    expect(lines.filter((l) => JSON.stringify(l).includes('"stack"'))).toEqual([]);
    const startsAtLoss = a.starts.length;
    const bytesAtLoss = proxy.fromClientAt.length;
    await new Promise((r) => setTimeout(r, TIMING.retryPeriodMs * 2));
    expect(a.starts.length).toBe(startsAtLoss);
    expect(proxy.fromClientAt.length).toBe(bytesAtLoss);

    // B takes the lease once A's has expired, and reconciles.
    await Promise.race([b.mgr.elected(), b.run.then((e) => Promise.reject(new Error(`b stopped: ${String(e)}`)))]);
    const electedAt = performance.now();
    expect(electedAt - stalledAt).toBeLessThan(TIMING.leaseDurationMs + 2 * TIMING.retryPeriodMs + 2_000);
    await waitFor('b to write the ConfigMap', async () => {
      const cm = await client.get(CM, { namespace: NS, name: 'busy' });
      return cm.metadata?.annotations?.['writer'] === 'b';
    });
  });
});
