import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { controllerFor, BuilderError } from '../builder/index.js';
import { createClient, type Client } from '../client/index.js';
import type { Manager } from '../manager/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { testManager } from '../testing/manager.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, createGizmos, httpGet, isConverged, metricValue, waitFor } from '../test-fixtures/helpers.js';
import { ConcurrencyProbe } from '../test-fixtures/probe.js';
import { HashRing } from './hash-ring.js';
import { drainLabel, shardLabel } from './names.js';
import { shardingEngine, type RingDebugInfo } from './sharding.js';

const RING = 'gizmos';
const SHARD = shardLabel(RING);
const DRAIN = drainLabel(RING);
const COUNT = 40;
/**
 * controller-runtime's lease timings: a shard that misses renewals for the renew deadline fences
 * itself and stops (as it must), and on a machine busy enough to delay a renewal by seconds a
 * tighter deadline made a replica leave in the middle of the test.
 */
const LEASE = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 1_000 };

interface Replica {
  name: string;
  mgr: Manager;
  registry: Registry;
  /** Why the manager stopped on its own (a lost Lease), once it has. */
  failure?: unknown;
  stop(): Promise<void>;
}

describeWithControlPlane('sharding within one process', { shared: true, crdDirectoryPaths: [CRD_DIR] }, (env) => {
  const replicas: Replica[] = [];
  afterEach(async () => {
    for (const r of replicas.splice(0)) await r.stop();
  });

  /** A sharded manager on a kubeconfig of its own (its own connection, gates and fence). */
  const start = (
    name: string,
    probe: ConcurrencyProbe,
    objects: string,
    opts: { shardName?: string } = {},
  ): Replica => {
    const kc = new KubeConfig();
    kc.loadFromFile(env.cp.kubeconfigPath);
    const registry = new Registry();
    const mgr = testManager(
      { cp: { kubeConfig: kc } },
      {
        namespace: objects,
        healthProbeBindAddress: ':0',
        debugControllers: true,
        registry,
        sharding: {
          ring: RING,
          namespace: env.namespace,
          shardName: opts.shardName ?? name,
          ...LEASE,
        },
        shardingEngine,
      },
    );
    controllerFor(mgr, GIZMO)
      .owns(DEPLOYMENT)
      .withOptions({ maxConcurrentReconciles: 4 })
      .complete(gizmoReconciler(mgr.client, { probe, delayMs: 20 }));
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    const r: Replica = { name, mgr, registry, stop: async () => (ac.abort(), await run) };
    // A manager that stops on its own is reported by the next wait (below) and by stop(), not
    // as an unhandled rejection after a wait that could only time out.
    run.catch((err: unknown) => {
      r.failure = err;
    });
    replicas.push(r);
    return r;
  };

  const gizmos = async (api: Client, ns: string) => (await api.list<Gizmo>(GIZMO, { namespace: ns })).items;
  const deployments = async (api: Client, ns: string) => (await api.list(DEPLOYMENT, { namespace: ns })).items;
  const ring = async (r: Replica) =>
    (JSON.parse((await httpGet(r.mgr.healthProbePort!, '/debug/controllers')).body) as { ring: RingDebugInfo }).ring;
  /** Every Gizmo converged, on the shard the ring wants for `shards`, no drain left, each Deployment with its owner. */
  const settled = async (api: Client, ns: string, shards: string[]) => {
    for (const r of replicas) if (r.failure) throw new Error(`replica ${r.name} stopped: ${String(r.failure)}`);
    const want = new HashRing(shards);
    const gs = await gizmos(api, ns);
    if (
      gs.length !== COUNT ||
      !gs.every(
        (g) =>
          isConverged(g) &&
          g.metadata?.labels?.[SHARD] === want.shardFor(`${ns}/${g.metadata!.name}`) &&
          !g.metadata?.labels?.[DRAIN],
      )
    )
      return false;
    const owner = new Map(gs.map((g) => [g.metadata!.name, g.metadata!.labels![SHARD]]));
    const ds = await deployments(api, ns);
    return ds.length === COUNT && ds.every((d) => d.metadata?.labels?.[SHARD] === owner.get(d.metadata!.name!));
  };

  it('splits the objects between replicas, rebalances by drain when one joins and hands a leaving one’s share on; never one key on two at once', async () => {
    const api = createClient(env.cp.kubeConfig);
    const ns = await env.newNamespace();
    const probe = new ConcurrencyProbe();
    const a = start('shard-a', probe, ns);
    const b = start('shard-b', probe, ns);
    await waitFor(
      'both shards in the ring',
      async () => (await ring(a)).shards.filter((s) => s.live).length === 2,
      60_000,
    );
    await createGizmos(api, ns, 'g', COUNT);
    await waitFor('the Gizmos converged on shards a and b', () => settled(api, ns, ['shard-a', 'shard-b']), 60_000);

    // Each replica caches exactly its share of both kinds: the Gizmos and what they own.
    for (const r of [a, b]) {
      const mine = (await gizmos(api, ns))
        .filter((g) => g.metadata?.labels?.[SHARD] === r.name)
        .map((g) => g.metadata!.name)
        .sort();
      expect(mine.length).toBeGreaterThan(5);
      expect(
        (await r.mgr.client.list<Gizmo>(GIZMO, { namespace: ns })).items.map((g) => g.metadata!.name).sort(),
      ).toEqual(mine);
      expect(
        (await r.mgr.client.list(DEPLOYMENT, { namespace: ns })).items.map((d) => d.metadata!.name).sort(),
      ).toEqual(mine);
      const metrics = await r.registry.metrics();
      expect(
        metricValue(metrics, 'tsop_sharding_objects', {
          ring: RING,
          shard: r.name,
          kind: 'fixtures.tsop.dev/v1/Gizmo',
        }),
      ).toBe(mine.length);
    }
    const info = await ring(a);
    expect(info.shards.map((s) => [s.shard, s.live, s.lease])).toEqual([
      ['shard-a', true, `${RING}-shard-a`],
      ['shard-b', true, `${RING}-shard-b`],
    ]);
    expect(info.shards.reduce((n, s) => n + (s.share ?? 0), 0)).toBeCloseTo(1, 2);
    expect(info.kinds).toEqual([
      expect.objectContaining({ kind: 'fixtures.tsop.dev/v1/Gizmo', role: 'reconciled' }),
      expect.objectContaining({ kind: 'apps/v1/Deployment', role: 'owned' }),
    ]);
    // One of them leads and runs the assigner.
    const leaders = [info, await ring(b)].filter((i) => i.assigner);
    expect(leaders).toHaveLength(1);
    expect(leaders[0]!.assigner!.passes).toBeGreaterThan(0);

    // A third replica joins: its share drains to it from the shard that had each object.
    const c = start('shard-c', probe, ns);
    await waitFor(
      'the Gizmos rebalanced onto three shards',
      () => settled(api, ns, ['shard-a', 'shard-b', 'shard-c']),
      60_000,
    );
    const drained = async (r: Replica) =>
      metricValue(await r.registry.metrics(), 'tsop_sharding_moves_total', {
        ring: RING,
        kind: 'fixtures.tsop.dev/Gizmo',
        mode: 'drain',
        from: r.name,
        to: 'shard-c',
      }) ?? 0;
    expect((await drained(a)) + (await drained(b))).toBeGreaterThan(3);
    // Each acknowledged drain is timed by the shard that let go; every replica counts three live shards.
    const drainsTimed = async (r: Replica) =>
      metricValue(await r.registry.metrics(), 'tsop_sharding_drain_duration_seconds_count', {
        ring: RING,
        shard: r.name,
      }) ?? 0;
    expect((await drainsTimed(a)) + (await drainsTimed(b))).toBeGreaterThanOrEqual(
      (await drained(a)) + (await drained(b)),
    );
    for (const r of [a, b, c])
      expect(metricValue(await r.registry.metrics(), 'tsop_sharding_shards', { ring: RING })).toBe(3);
    expect((await c.mgr.client.list<Gizmo>(GIZMO, { namespace: ns })).items.length).toBeGreaterThan(3);

    // b stops cleanly: it releases its Lease after its last reconcile, and its share moves at once.
    const stoppedAt = performance.now();
    const bIndex = replicas.indexOf(b);
    replicas.splice(bIndex, 1);
    await b.stop();
    await waitFor('b’s share reassigned to a and c', () => settled(api, ns, ['shard-a', 'shard-c']), 30_000);
    // Sooner than its Lease could have expired: released, not waited out.
    expect(performance.now() - stoppedAt).toBeLessThan(LEASE.leaseDurationMs);
    expect(probe.overlaps).toBe(0);
  });

  it('a second process given the same shard name waits for the Lease, lets none of the shard’s objects go meanwhile, and takes over when the holder stops', async () => {
    const api = createClient(env.cp.kubeConfig);
    const ns = await env.newNamespace();
    const probe = new ConcurrencyProbe();
    const a = start('shard-a', probe, ns);
    await waitFor('shard a holds its Lease', async () => (await ring(a)).holding, 60_000);
    const twin = start('shard-a-twin', probe, ns, { shardName: 'shard-a' });
    await createGizmos(api, ns, 'g', COUNT);
    await waitFor('the Gizmos converged on shard a', () => settled(api, ns, ['shard-a']), 60_000);
    await waitFor(
      'the twin caches the shard',
      async () => (await ring(twin)).kinds.some((k) => k.role === 'reconciled' && k.objects === COUNT),
      30_000,
    );

    // b joins: the twin sees the drain labels arrive as a does, but only a, which holds the Lease, acknowledges them.
    start('shard-b', probe, ns);
    await waitFor('the Gizmos rebalanced onto a and b', () => settled(api, ns, ['shard-a', 'shard-b']), 60_000);
    const drained = async (r: Replica) =>
      metricValue(await r.registry.metrics(), 'tsop_sharding_moves_total', {
        ring: RING,
        kind: 'fixtures.tsop.dev/Gizmo',
        mode: 'drain',
        from: 'shard-a',
        to: 'shard-b',
      }) ?? 0;
    expect(await drained(a)).toBeGreaterThan(3);
    expect(await drained(twin)).toBe(0);
    expect((await ring(twin)).holding).toBe(false);

    // a stops: the twin takes the Lease over and shard a's share is reconciled again.
    replicas.splice(replicas.indexOf(a), 1);
    await a.stop();
    await waitFor('the twin holds the Lease', async () => (await ring(twin)).holding, 30_000);
    await waitFor('the Gizmos back on shards a and b', () => settled(api, ns, ['shard-a', 'shard-b']), 60_000);
    expect(probe.overlaps).toBe(0);
  });

  it('refuses, at complete(), an unsharded controller on a sharded kind', async () => {
    const r = start('shard-x', new ConcurrencyProbe(), await env.newNamespace(), { shardName: 'shard-x' });
    expect(() =>
      controllerFor(r.mgr, { group: 'apps', version: 'v1', kind: 'ReplicaSet' })
        .owns(DEPLOYMENT)
        .named('rs')
        .withOptions({ sharded: false })
        .complete({ reconcile: async () => undefined }),
    ).toThrow(BuilderError);
    expect(() =>
      controllerFor(r.mgr, DEPLOYMENT)
        .named('dep')
        .withOptions({ sharded: false })
        .complete({ reconcile: async () => undefined }),
    ).toThrow(/apps\/v1\/Deployment is sharded \(by controller "gizmo"\)/);
  });
});
