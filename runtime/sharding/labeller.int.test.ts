/**
 * New objects while the assigner is down: three replicas (separate processes, default Lease
 * timing of 15 s / 10 s / 2 s) share a ring, the leader — which runs the assigner — is killed
 * with SIGKILL, and Gizmos are created at once. Those the ring gives a surviving shard are
 * labelled by that shard and reconciled well within one lease duration, before any survivor is
 * elected leader (so no assigner ran meanwhile). Those the ring gives the dead leader's shard
 * wait for its Lease to expire, as nobody may reconcile them before; they are reconciled after.
 */
import { afterEach, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { spawnManager, type ManagerChild } from '../test-fixtures/child.js';
import { GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, createGizmos, isConverged, waitFor } from '../test-fixtures/helpers.js';
import { HashRing } from './hash-ring.js';
import { shardLabel } from './names.js';

const LEASE_MS = 15_000;
const COUNT = 30;

describeWithControlPlane(
  'labelling new objects while the assigner is down',
  { crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    const children: ManagerChild[] = [];
    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.proc.exitCode === null && c.proc.signalCode === null) {
          c.kill('SIGKILL');
          await c.exited;
        }
      }
    });

    it('a Gizmo created right after the leader is killed is labelled by its shard and reconciled within a fraction of the lease duration', async () => {
      const api = createClient(env.cp.kubeConfig);
      const ns = await env.newNamespace();
      const ring = 'failover';
      const start = (name: string): ManagerChild => {
        const c = spawnManager(name, {
          KUBECONFIG_PATH: env.cp.kubeconfigPath,
          RING: ring,
          LEASE_ID: `${ring}-leader`,
          LEASE_NAMESPACE: env.namespace,
          NAMESPACE: ns,
          MAX_CONCURRENT: '4',
          LOG_LEVEL: 'warn',
        });
        children.push(c);
        return c;
      };
      const replicas = ['a', 'b', 'c'].map(start);
      await Promise.all(replicas.map((r) => r.waitFor((e) => e.event === 'holding', 90_000)));
      const elected = (r: ManagerChild) => r.events.some((e) => e.event === 'elected');
      await waitFor('a leader', () => replicas.some(elected), 60_000);
      const leader = replicas.find(elected)!;
      const survivors = replicas.filter((r) => r !== leader);

      const killedAt = Date.now();
      leader.kill('SIGKILL');
      await leader.exited;
      await createGizmos(api, ns, 'g', COUNT);
      const createdAt = Date.now();
      const ring3 = new HashRing(replicas.map((r) => r.name));
      const onSurvivors = Array.from({ length: COUNT }, (_, i) => `g-${i}`).filter(
        (name) => ring3.shardFor(`${ns}/${name}`) !== leader.name,
      );
      expect(onSurvivors.length).toBeGreaterThan(COUNT / 3);
      const gizmos = async () =>
        new Map((await api.list<Gizmo>(GIZMO, { namespace: ns })).items.map((g) => [g.metadata!.name!, g]));
      await waitFor(
        'the Gizmos of surviving shards reconciled',
        async () => {
          const gs = await gizmos();
          return onSurvivors.every((name) => {
            const g = gs.get(name);
            return (
              g !== undefined &&
              isConverged(g) &&
              g.metadata?.labels?.[shardLabel(ring)] === ring3.shardFor(`${ns}/${name}`)
            );
          });
        },
        LEASE_MS,
        100,
      );
      const reconciledMs = Date.now() - createdAt;
      console.info(
        `${onSurvivors.length} Gizmos of surviving shards reconciled ${reconciledMs} ms after their creation, ${Date.now() - killedAt} ms after the leader's SIGKILL`,
      );
      // No assigner ran meanwhile: the leader Lease had not expired, nobody had taken it.
      expect(survivors.some(elected)).toBe(false);
      expect(reconciledMs).toBeLessThan(LEASE_MS / 2);

      // The dead leader's share waits for its Lease, then goes to the survivors.
      await waitFor(
        'every Gizmo reconciled',
        async () => [...(await gizmos()).values()].every(isConverged),
        4 * LEASE_MS,
      );
      const names = new Set(survivors.map((r) => r.name));
      expect([...(await gizmos()).values()].every((g) => names.has(g.metadata?.labels?.[shardLabel(ring)] ?? ''))).toBe(
        true,
      );

      for (const r of survivors) r.kill('SIGTERM');
      for (const r of survivors) expect((await r.exited).code).toBe(0);
    }, 240_000);
  },
);
