import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { ConflictError, createClient, type Client } from '../client/index.js';
import { createLogger } from '../log/index.js';
import type { Manager } from '../manager/index.js';
import { generationChanged } from '../predicate/index.js';
import type { Reconciler } from '../reconcile/index.js';
import { ChannelSource } from './index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, createGizmos, ensureNamespace, isConverged, waitFor } from '../test-fixtures/helpers.js';
import { ConcurrencyProbe } from '../test-fixtures/probe.js';
import { testManager } from '../testing/manager.js';

const silent = createLogger({ level: 'silent' });

async function running(mgr: Manager, body: () => Promise<void>): Promise<void> {
  const ac = new AbortController();
  const run = mgr.start(ac.signal);
  try {
    await body();
  } finally {
    ac.abort();
    await run;
  }
}

const newManager = (env: { cp: { kubeConfig: KubeConfig } }, namespace?: string) =>
  testManager(env, { namespace, logger: silent });

describeWithControlPlane('controller against the API server', { shared: true, crdDirectoryPaths: [CRD_DIR] }, (env) => {
  let shared: Client | undefined;
  const api = () => (shared ??= createClient(env.cp.kubeConfig));

  it('converges 200 Gizmos to one Deployment and a Ready condition each, never one key twice at once', async () => {
    const client = api();
    await ensureNamespace(client, 'converge');
    const mgr = newManager(env, 'converge');
    const probe = new ConcurrencyProbe();
    controllerFor(mgr, GIZMO)
      .owns(DEPLOYMENT)
      .withOptions({ maxConcurrentReconciles: 4 })
      .complete(gizmoReconciler(mgr.client, { probe }));
    await running(mgr, async () => {
      await createGizmos(client, 'converge', 'g', 200);
      const converged = async () =>
        (await client.list<Gizmo>(GIZMO, { namespace: 'converge' })).items.filter(isConverged).length;
      await waitFor('200 converged Gizmos', async () => (await converged()) === 200, 120_000, 500);

      // Level-triggered: a spec change after convergence reaches the child.
      const g7 = await client.get<Gizmo>(GIZMO, { namespace: 'converge', name: 'g-7' });
      await client.update<Gizmo>({ ...g7, spec: { ...g7.spec, replicas: 3 } });
      await waitFor('g-7 deployment scaled', async () => {
        const d = await client.get<V1Deployment & Gizmo>(DEPLOYMENT, { namespace: 'converge', name: 'g-7' });
        return d.spec?.replicas === 3;
      });
    });

    const gizmos = (await client.list<Gizmo>(GIZMO, { namespace: 'converge' })).items;
    const deps = (await client.list<V1Deployment & Gizmo>(DEPLOYMENT, { namespace: 'converge' })).items;
    expect(deps).toHaveLength(200);
    const ownerUids = deps.map((d) => {
      const controllers = (d.metadata?.ownerReferences ?? []).filter((r) => r.controller);
      expect(controllers).toHaveLength(1);
      expect(controllers[0]).toMatchObject({ kind: 'Gizmo', name: d.metadata?.name });
      return controllers[0]!.uid;
    });
    expect(new Set(ownerUids)).toEqual(new Set(gizmos.map((g) => g.metadata?.uid)));
    // Instrumentation, not timing: the probe saw up to 4 keys in flight but never one key twice.
    expect(probe.overlaps).toBe(0);
    expect(probe.peak).toBeGreaterThan(1);
    expect(probe.peak).toBeLessThanOrEqual(4);
    expect(probe.runs.size).toBe(200);
  });

  it('fires requeueAfter within 10% of the delay', async () => {
    const client = api();
    await ensureNamespace(client, 'requeue');
    const mgr = newManager(env, 'requeue');
    const delayMs = 1500;
    const starts: number[] = [];
    const ends: number[] = [];
    const reconciler: Reconciler = {
      async reconcile(req) {
        if (req.name !== 'timer') return;
        starts.push(performance.now());
        await mgr.client.get(GIZMO, req); // a real read, as a reconciler would do
        ends.push(performance.now());
        return starts.length < 4 ? { requeueAfter: delayMs } : undefined;
      },
    };
    controllerFor(mgr, GIZMO).withEventFilter(generationChanged()).complete(reconciler);
    await running(mgr, async () => {
      await client.create<Gizmo>({ ...GIZMO, metadata: { name: 'timer', namespace: 'requeue' } });
      await waitFor('4 timed reconciles', () => starts.length >= 4, 20_000, 50);
    });
    const gaps = [1, 2, 3].map((i) => starts[i]! - ends[i - 1]!);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(delayMs * 0.9);
      expect(gap).toBeLessThanOrEqual(delayMs * 1.1);
    }
  });

  it('backs off exponentially while reconcile keeps failing', async () => {
    const client = api();
    await ensureNamespace(client, 'backoff');
    const mgr = newManager(env, 'backoff');
    const failuresWanted = 10;
    const starts: number[] = [];
    const ends: number[] = [];
    const reconciler: Reconciler = {
      async reconcile(req) {
        if (req.name !== 'failing') return;
        starts.push(performance.now());
        const done = () => ends.push(performance.now());
        if (starts.length <= failuresWanted) {
          done();
          throw new Error(`failure ${starts.length}`);
        }
        done();
      },
    };
    controllerFor(mgr, GIZMO).withEventFilter(generationChanged()).complete(reconciler);
    await running(mgr, async () => {
      await client.create<Gizmo>({ ...GIZMO, metadata: { name: 'failing', namespace: 'backoff' } });
      await waitFor('recovery after 10 failures', () => starts.length > failuresWanted, 30_000, 20);
    });
    // Retry i waits 5 ms · 2^i (controller-runtime's default per-item limiter).
    const gaps = Array.from({ length: failuresWanted }, (_, i) => starts[i + 1]! - ends[i]!);
    for (const [i, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(5 * 2 ** i - 1);
    // Where timer noise is small next to the delay (≥ 80 ms), gaps double. A scheduler stall on a
    // busy machine (tests run two files at once on two cores) only ever lengthens one gap and so
    // skews the two ratios around it; the median of the ratios still shows the doubling.
    const ratios = Array.from({ length: failuresWanted - 5 }, (_, k) => gaps[k + 5]! / gaps[k + 4]!).sort(
      (a, b) => a - b,
    );
    const median = ratios[Math.floor(ratios.length / 2)]!;
    expect(median).toBeGreaterThan(1.7);
    expect(median).toBeLessThan(2.3);
  });

  it('treats a 409 conflict from the client as a requeue with backoff: not an error, not a panic', async () => {
    const client = api();
    await ensureNamespace(client, 'conflict');
    const registry = new Registry();
    const mgr = testManager(env, { namespace: 'conflict', registry, logger: silent });
    const seen: unknown[] = [];
    const reconciler: Reconciler = {
      async reconcile(req) {
        if (req.name !== 'racy') return;
        const g = await mgr.client.get<Gizmo>(GIZMO, req);
        // The first attempt writes with a stale resourceVersion, as after a concurrent change.
        const stale = seen.length === 0 ? { ...g, metadata: { ...g.metadata, resourceVersion: '1' } } : g;
        try {
          await mgr.client.update<Gizmo>({ ...stale, metadata: { ...stale.metadata, labels: { touched: 'yes' } } });
          seen.push('ok');
        } catch (err) {
          seen.push(err);
          throw err;
        }
      },
    };
    controllerFor(mgr, GIZMO).withEventFilter(generationChanged()).complete(reconciler);
    await running(mgr, async () => {
      await client.create<Gizmo>({ ...GIZMO, metadata: { name: 'racy', namespace: 'conflict' } });
      await waitFor('the retry to succeed', () => seen.includes('ok'), 20_000, 20);
    });
    expect(seen[0]).toBeInstanceOf(ConflictError);
    const text = await registry.metrics();
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="gizmo"} 0');
    expect(text).toContain('controller_runtime_reconcile_total{controller="gizmo",result="requeue"} 1');
    expect(text).toContain('controller_runtime_reconcile_panics_total{controller="gizmo"} 0');
    expect(text).toContain('workqueue_retries_total{controller="gizmo",name="gizmo"} 1');
    expect((await client.get<Gizmo>(GIZMO, { namespace: 'conflict', name: 'racy' })).metadata?.labels).toEqual({
      touched: 'yes',
    });
  });

  it('reconciles requests mapped from a raw ChannelSource next to the kind watches', async () => {
    const mgr = newManager(env, 'external');
    const channel = new ChannelSource('alerts');
    const seen: string[] = [];
    controllerFor(mgr, { apiVersion: 'v1', kind: 'ConfigMap' })
      .named('external')
      .watchesRawSource(channel, (alert) => [{ namespace: 'external', name: `cm-for-${alert.metadata?.name}` }])
      .complete({ reconcile: async (req) => void seen.push(`${req.namespace}/${req.name}`) });
    await running(mgr, async () => {
      channel.push({ metadata: { name: 'disk-full' } });
      await waitFor('the mapped request', () => seen.includes('external/cm-for-disk-full'), 20_000, 20);
    });
  });
});
