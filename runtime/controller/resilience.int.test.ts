import type { V1Deployment } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { apiServerOutage, describeWithControlPlane } from '../testing/control-plane.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import {
  CRD_DIR,
  createGizmos,
  ensureNamespace,
  etcdDelete,
  etcdGetJSON,
  etcdPutJSON,
  gizmoEtcdKey,
  isConverged,
  storedGizmo,
  waitFor,
} from '../test-fixtures/helpers.js';
import { ConcurrencyProbe } from '../test-fixtures/probe.js';
import { testManager } from '../testing/manager.js';

const NS = 'outage';

describeWithControlPlane(
  'controller across API server outages and etcd compaction',
  { crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    it('resumes watches after a 5 s outage and after a compaction-forced relist, reconciling every change made meanwhile', async () => {
      const client = createClient(env.cp.kubeConfig);
      await ensureNamespace(client, NS);
      const logs = memoryDestination();
      const mgr = testManager(env, {
        namespace: NS,
        logger: createLogger({ level: 'debug', destination: logs }),
      });
      const probe = new ConcurrencyProbe();
      controllerFor(mgr, GIZMO)
        .owns(DEPLOYMENT)
        .withOptions({ maxConcurrentReconciles: 2 })
        .complete(gizmoReconciler(mgr.client, { probe }));
      const ac = new AbortController();
      const run = mgr.start(ac.signal);
      const etcd = env.cp.etcdUrl;
      const replicasOf = async (name: string) =>
        (await client.get<V1Deployment & Gizmo>(DEPLOYMENT, { namespace: NS, name }).catch(() => undefined))?.spec
          ?.replicas;
      const allConverged = async (names: string[]) => {
        const items = (await client.list<Gizmo>(GIZMO, { namespace: NS })).items;
        return names.every((n) => items.some((g) => g.metadata?.name === n && isConverged(g)));
      };
      try {
        await createGizmos(client, NS, 'g', 20);
        const first = Array.from({ length: 20 }, (_, i) => `g-${i}`);
        await waitFor('20 converged', () => allConverged(first), 60_000, 300);

        // Outage: the API server is down for 5 s while the cluster changes underneath (via etcd).
        let runsOfG1 = 0;
        const outageMs = await apiServerOutage(env.cp, 5_000, async () => {
          for (let i = 0; i < 5; i++)
            await etcdPutJSON(etcd, gizmoEtcdKey(NS, `during-${i}`), storedGizmo(NS, `during-${i}`, 2));
          const g0 = await etcdGetJSON(etcd, gizmoEtcdKey(NS, 'g-0'));
          expect(g0?.metadata?.name).toBe('g-0');
          await etcdPutJSON(etcd, gizmoEtcdKey(NS, 'g-0'), { ...g0!, spec: { ...g0!.spec, replicas: 4 } });
          await etcdDelete(etcd, gizmoEtcdKey(NS, 'g-1'));
          runsOfG1 = probe.runs.get(`${NS}/g-1`) ?? 0;
        });
        // From the stop call to the first answer; its upper end depends on the machine's load (the
        // stop's speed with watches open is control-plane.int's test).
        expect(outageMs).toBeGreaterThan(2_500);

        const during = Array.from({ length: 5 }, (_, i) => `during-${i}`);
        await waitFor('Gizmos created during the outage to converge', () => allConverged(during), 90_000, 300);
        await waitFor(
          'g-0 change made during the outage to reach its Deployment',
          async () => (await replicasOf('g-0')) === 4,
          60_000,
          300,
        );
        await waitFor(
          'g-1 deletion to be reconciled',
          () => (probe.runs.get(`${NS}/g-1`) ?? 0) > runsOfG1,
          60_000,
          100,
        );
        for (const n of during) expect(await replicasOf(n)).toBe(2);

        // Compaction: changes land while the API server is down, then etcd compacts past the
        // informer's resourceVersion, so resuming the watch gets 410 Gone and must relist.
        logs.clear();
        await env.cp.stopApiServer();
        await etcdPutJSON(etcd, gizmoEtcdKey(NS, 'after-compact'), storedGizmo(NS, 'after-compact', 3));
        const g2 = await etcdGetJSON(etcd, gizmoEtcdKey(NS, 'g-2'));
        await etcdPutJSON(etcd, gizmoEtcdKey(NS, 'g-2'), { ...g2!, spec: { ...g2!.spec, replicas: 5 } });
        await etcdDelete(etcd, gizmoEtcdKey(NS, 'g-3'));
        const runsOfG3 = probe.runs.get(`${NS}/g-3`) ?? 0;
        await env.cp.compactEtcd();
        await env.cp.startApiServer();
        await waitFor('after-compact to converge', () => allConverged(['after-compact']), 90_000, 300);
        await waitFor('g-2 change to reach its Deployment', async () => (await replicasOf('g-2')) === 5, 60_000, 300);
        await waitFor(
          'g-3 deletion to be reconciled',
          () => (probe.runs.get(`${NS}/g-3`) ?? 0) > runsOfG3,
          60_000,
          100,
        );
        expect(await replicasOf('after-compact')).toBe(3);
        const relisted = logs.records().filter((r) => r['component'] === 'cache' && r['relist'] === true);
        expect(relisted.length).toBeGreaterThan(0);
        expect(probe.overlaps).toBe(0);

        // Every log line written inside a reconcile carries controller, namespace, name and reconcileID.
        const reconcileLines = logs.records().filter((r) => r['reconcileID'] !== undefined);
        expect(reconcileLines.some((r) => r['msg'] === 'status updated' && r['name'] === 'after-compact')).toBe(true);
        for (const r of reconcileLines) {
          expect(r).toMatchObject({ controller: 'gizmo', namespace: NS });
          expect(typeof r['name']).toBe('string');
          expect(typeof r['reconcileID']).toBe('string');
        }
      } finally {
        ac.abort();
        await run;
      }
    });
  },
);
