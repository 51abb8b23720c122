/**
 * Conflicts are expected, not errors worth a stack: under a burst of 200 Gizmos whose status is
 * written concurrently by someone else between the controller's read and its write, every 409
 * is logged as one info line ("requeued: object changed") with no stack, and retried until the
 * controller's write lands.
 */
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient, mergePatch } from '../client/index.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { CRD_DIR, createGizmos, ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { testManager } from '../testing/manager.js';

const NS = 'conflict-burst';
const COUNT = 200;

describeWithControlPlane(
  'controller: conflicts under a burst',
  { shared: true, crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    it('logs each 409 as one info line without a stack, and retries until the write lands', async () => {
      const client = createClient(env.cp.kubeConfig, { fieldOwner: 'someone-else' });
      await ensureNamespace(client, NS);
      await ensureNamespace(client, NS); // a namespace that exists is fine (the fixture is idempotent)
      const logs = memoryDestination();
      const mgr = testManager(env, {
        namespace: NS,
        logger: createLogger({ level: 'info', destination: logs }),
      });
      const interfered = new Set<string>();
      const done = new Set<string>();
      controllerFor(mgr, GIZMO)
        .withOptions({ maxConcurrentReconciles: 4 })
        .complete({
          async reconcile(req, ctx) {
            const g = await mgr.client.get<Gizmo>(GIZMO, req, { signal: ctx.signal });
            if (g.status?.observedGeneration === 42) {
              done.add(req.name);
              return;
            }
            if (!interfered.has(req.name)) {
              // Someone else writes the status between this read and the write below.
              interfered.add(req.name);
              await client.status().patch(g, mergePatch({ status: { observedGeneration: 1 } }));
            }
            await mgr.client
              .status()
              .update({ ...g, status: { ...g.status, observedGeneration: 42 } }, { signal: ctx.signal });
          },
        });
      const stop = new AbortController();
      const running = mgr.start(stop.signal);
      try {
        await createGizmos(client, NS, 'g', COUNT);
        await waitFor('every Gizmo written by the controller', () => done.size === COUNT, 90_000, 200);
      } finally {
        stop.abort();
        await running;
      }
      const records = logs.records();
      const conflicts = records.filter((r) => r['msg'] === 'requeued: object changed');
      expect(conflicts.length).toBeGreaterThanOrEqual(COUNT);
      expect(conflicts.every((r) => r['level'] === 'info' && !('err' in r))).toBe(true);
      expect(records.filter((r) => JSON.stringify(r).includes('ConflictError'))).toEqual([]);
      expect(records.filter((r) => r['level'] === 'error')).toEqual([]);
    });
  },
);
