import { afterEach, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { LeaderElector } from '../leaderelection/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { RING_LABEL, SHARD_NAME_LABEL, shardLeaseName } from './names.js';
import { ShardReaper } from './reaper.js';
import { LEASE_GVK, RingView, type LeaseObject } from './ring-view.js';

const RING = 'reaped';
const quiet = createLogger({ level: 'silent' });
const TIMING = { leaseDurationMs: 6_000, renewDeadlineMs: 4_000, retryPeriodMs: 500 };

describeWithControlPlane('the assigner’s hold on a gone shard’s Lease', { shared: true }, (env) => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  const api = () => createClient(env.cp.kubeConfig);

  /** A shard Lease as a shard leaves it when it stops cleanly: no holder. */
  const released = async (shard: string) => {
    const stamp = new Date().toISOString().replace(/Z$/, '000Z');
    await api().create<LeaseObject>({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: shardLeaseName(RING, shard),
        namespace: env.namespace,
        labels: { [RING_LABEL]: RING, [SHARD_NAME_LABEL]: shard },
      },
      spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: stamp, renewTime: stamp, leaseTransitions: 1 },
    });
  };

  const start = async () => {
    const view = new RingView({ kubeConfig: env.cp.kubeConfig, ring: RING, namespace: env.namespace });
    const ac = new AbortController();
    const run = view.run(ac.signal);
    stops.push(async () => (ac.abort(), await run));
    await view.waitForSync();
    const reaper = new ShardReaper({
      ring: RING,
      namespace: env.namespace,
      client: api(),
      view,
      ...TIMING,
      log: quiet,
    });
    return { view, reaper };
  };

  /** A process of shard `shard` waiting for its Lease, as Sharding.hold runs one. */
  const shardProcess = (shard: string) => {
    const p = { startedAt: undefined as number | undefined, elector: undefined as unknown as LeaderElector };
    p.elector = new LeaderElector({
      kubeConfig: env.cp.kubeConfig,
      lease: {
        namespace: env.namespace,
        name: shardLeaseName(RING, shard),
        labels: { [RING_LABEL]: RING, [SHARD_NAME_LABEL]: shard },
      },
      identity: `${shard}_returning`,
      ...TIMING,
      releaseOnCancel: true,
      logger: quiet,
      callbacks: {
        onStartedLeading: () => {
          p.startedAt ??= Date.now();
        },
        onStoppedLeading: () => undefined,
      },
    });
    const ac = new AbortController();
    const run = p.elector.run(ac.signal);
    stops.push(async () => (ac.abort(), await run));
    return p;
  };

  const holder = async (shard: string) =>
    (await api().get<LeaseObject>(LEASE_GVK, { namespace: env.namespace, name: shardLeaseName(RING, shard) })).spec
      ?.holderIdentity;

  it('takes a released Lease; a process of that shard waits while it is held and takes it once it is given up', async () => {
    await released('x');
    const { view, reaper } = await start();
    expect(await reaper.take('x')).toBe(true);
    expect(reaper.holds('x')).toBe(true);
    expect(await holder('x')).toBe(reaper.identity);
    await waitFor(
      'the ring sees the shard held by the assigner, not live',
      async () => view.members().some((m) => m.shard === 'x' && m.heldByAssigner === true && !m.live),
      10_000,
    );
    expect(view.live().has('x')).toBe(false);

    const returning = shardProcess('x');
    // Several of its retry periods: it sees a held Lease and waits.
    await new Promise((r) => setTimeout(r, 4 * TIMING.retryPeriodMs));
    expect(returning.startedAt).toBeUndefined();
    // A renewal keeps it held.
    expect(await reaper.take('x')).toBe(true);

    await reaper.giveUp('x');
    expect(reaper.holds('x')).toBe(false);
    await waitFor('the shard process holds its Lease', async () => returning.startedAt !== undefined, 10_000);
    expect(await holder('x')).toBe(returning.elector.identity);
    await waitFor('the ring sees the shard live again', async () => view.live().has('x'), 10_000);
    // Now the shard is back: the assigner cannot take its Lease.
    expect(await reaper.take('x')).toBe(false);
  });

  it('of a process of the shard and the assigner racing for a released Lease, exactly one gets it', async () => {
    await released('y');
    const { reaper } = await start();
    const returning = shardProcess('y');
    const took = await reaper.take('y');
    const winner = await holder('y');
    if (took) {
      expect(winner).toBe(reaper.identity);
      expect(returning.startedAt).toBeUndefined();
      await reaper.giveUp('y');
    } else {
      expect(winner).toBe(returning.elector.identity);
      expect(reaper.holds('y')).toBe(false);
    }
    await waitFor('the shard process holds its Lease', async () => returning.startedAt !== undefined, 10_000);
  });

  it('creates the Lease of a gone shard that has none (its process deleted it on a clean stop); past the renew deadline it sends no more moves', async () => {
    const { reaper } = await start();
    expect(await reaper.take('z')).toBe(true);
    expect(await holder('z')).toBe(reaper.identity);
    const lease = await api().get<LeaseObject>(LEASE_GVK, {
      namespace: env.namespace,
      name: shardLeaseName(RING, 'z'),
    });
    expect(lease.metadata?.labels).toEqual({ [RING_LABEL]: RING, [SHARD_NAME_LABEL]: 'z' });
    expect(lease.spec?.leaseDurationSeconds).toBe(TIMING.leaseDurationMs / 1000);
    // Not renewed: past the renew deadline no move away from the shard may be sent.
    await waitFor('the renew deadline passed', async () => !reaper.holds('z'), TIMING.renewDeadlineMs + 2_000);
    await reaper.giveUp('z');
    await waitFor('the Lease is deleted', async () => (await holder('z').catch(() => 'gone')) === 'gone', 10_000);
  });
});
