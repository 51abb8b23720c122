/**
 * The shard Lease's side of "the reconcile knows when it lost", against a real API server: a
 * sharded leader whose reconcile blocks the event loop past its shard Lease's renew deadline —
 * but well within its leader Lease's — finds ctx.signal aborted (with ShardLeaseLostError) on the
 * line after the block, before any timer could run, so a side effect outside Kubernetes guarded
 * by it is not made. The leader elector's connection is fenced by the shard Lease too: once the
 * shard is lost it neither renews the leader Lease nor releases it (releaseOnCancel is on), so
 * the leader Lease is left exactly as it was before the block.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { testManager } from '../testing/manager.js';
import { GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, waitFor } from '../test-fixtures/helpers.js';
import { shardingEngine } from '../sharding/index.js';
import { ShardLeaseLostError } from './index.js';

const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } as const;
const SHARD_TIMING = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
const LEADER_TIMING = { leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 1_000 };
/** Past the shard Lease's renew deadline and duration, far within the leader Lease's. */
const SPIN_MS = 5_000;

interface LeaseSpec {
  holderIdentity?: string;
  renewTime?: string;
}

describeWithControlPlane(
  'manager: a reconcile blocked past its shard Lease',
  { shared: true, crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    it('finds ctx.signal aborted on its next line, and the elector neither renews nor releases the leader Lease after', async () => {
      const NS = env.namespace;
      const client = createClient(env.cp.kubeConfig);
      // A kubeconfig of its own: its own connection, gates and fence.
      const kc = new KubeConfig();
      kc.loadFromFile(env.cp.kubeconfigPath);
      const mgr = testManager(
        { cp: { kubeConfig: kc } },
        {
          namespace: NS,
          leaderElection: {
            id: 'stalled-shard',
            namespace: NS,
            identity: 'a',
            releaseOnCancel: true,
            ...LEADER_TIMING,
          },
          sharding: { ring: 'stalled-shard', namespace: NS, shardName: 'a', ...SHARD_TIMING },
          shardingEngine,
        },
      );
      let spun: { aborted: boolean; reason: unknown; startWall: number } | undefined;
      let sideEffects = 0;
      controllerFor(mgr, GIZMO).complete({
        reconcile: async (req, ctx) => {
          if (req.name !== 'spin' || spun) return;
          const startWall = Date.now();
          const until = performance.now() + SPIN_MS;
          while (performance.now() < until); // nothing else in this process runs meanwhile, timers included
          // What user code with a side effect outside Kubernetes checks before making it.
          spun = { aborted: ctx.signal.aborted, reason: ctx.signal.reason, startWall };
          if (!ctx.signal.aborted) sideEffects++;
        },
      });
      const ac = new AbortController();
      const run = mgr.start(ac.signal).then(
        () => undefined,
        (err: unknown) => err,
      );
      cleanups.push(async () => {
        ac.abort();
        await run;
      });
      await mgr.elected();
      await waitFor('the shard Lease held', () => mgr.sharding?.isHolding() === true, 30_000);
      await client.create<Gizmo>({ ...GIZMO, metadata: { name: 'spin', namespace: NS }, spec: { replicas: 1 } });
      await waitFor('the blocked reconcile', () => spun !== undefined, 60_000);

      expect(spun!.aborted).toBe(true);
      expect(spun!.reason).toBeInstanceOf(ShardLeaseLostError);
      expect(sideEffects).toBe(0);
      expect(await run).toBeInstanceOf(ShardLeaseLostError);
      // Longer than the elector's retry period: a renewal or a release would have been sent by now.
      await new Promise((r) => setTimeout(r, 3 * LEADER_TIMING.retryPeriodMs));
      const leader = await client.get<KubeObject & { spec?: LeaseSpec }>(LEASE, {
        namespace: NS,
        name: 'stalled-shard',
      });
      expect(leader.spec?.holderIdentity).toBe('a');
      expect(Date.parse(leader.spec!.renewTime!)).toBeLessThan(spun!.startWall);
    });
  },
);
