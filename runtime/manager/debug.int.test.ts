import { beforeAll, expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient, type Client } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, ensureNamespace, httpGet, waitFor } from '../test-fixtures/helpers.js';
import type { ControllerDebugInfo } from './debug.js';
import type { ManagerOptions } from './index.js';
import { testManager } from '../testing/manager.js';

const NS = 'debug-controllers';
const silent = createLogger({ level: 'silent' });

describeWithControlPlane(
  '/debug/controllers on the health port',
  { shared: true, crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    let api: Client;
    beforeAll(async () => {
      api = createClient(env.cp.kubeConfig);
      await ensureNamespace(api, NS);
      for (const name of ['slow', 'later', 'done-1', 'done-2', 'done-3', 'done-4']) {
        await api.create<Gizmo>({ ...GIZMO, metadata: { name, namespace: NS }, spec: { replicas: 1 } });
      }
    });

    const manager = (extra: Partial<ManagerOptions>) =>
      testManager(env, { namespace: NS, healthProbeBindAddress: ':0', logger: silent, ...extra });

    it('shows queue depth, the in-flight key with how long, the next delayed requeue and the last N results with their triggers', async () => {
      const mgr = manager({ debugControllers: { lastResults: 3 } });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let slowStarted = false;
      controllerFor(mgr, GIZMO)
        .withOptions({ maxConcurrentReconciles: 2 })
        .complete({
          async reconcile(req) {
            if (req.name === 'slow') {
              slowStarted = true;
              await held;
            }
            if (req.name === 'later') return { requeueAfter: 600_000 };
            if (req.name === 'done-4') throw new Error('no quota left');
            return {};
          },
        });
      const ac = new AbortController();
      const run = mgr.start(ac.signal);
      try {
        await waitFor('the slow reconcile', () => slowStarted);
        const get = async () =>
          JSON.parse((await httpGet(mgr.healthProbePort!, '/debug/controllers')).body) as {
            controllers: ControllerDebugInfo[];
          };
        let c!: ControllerDebugInfo;
        await waitFor('the other five Gizmos reconciled', async () => {
          c = (await get()).controllers[0]!;
          return (
            c.queue.delayed.some((d) => d.key === `${NS}/later`) &&
            c.lastResults.some((r) => r.key === `${NS}/done-4`) &&
            c.queue.depth === 0
          );
        });
        expect(c.name).toBe('gizmo');
        expect(c.workers).toBe(2);
        expect(c.queue.inFlight).toEqual([
          {
            key: `${NS}/slow`,
            forMs: expect.any(Number),
            trigger: {
              reason: 'event',
              watch: 'for',
              kind: 'fixtures.tsop.dev/v1/Gizmo',
              event: 'add',
              object: { namespace: NS, name: 'slow' },
              folded: 0,
            },
          },
        ]);
        // Soonest first: done-4's backoff comes before later's requeueAfter.
        const later = c.queue.delayed.find((d) => d.key === `${NS}/later`)!;
        expect(later).toMatchObject({ trigger: { reason: 'requeueAfter', delayMs: 600_000, folded: 0 } });
        expect(later.inMs).toBeGreaterThan(500_000);
        expect(c.queue.delayed.map((d) => d.inMs)).toEqual(
          [...c.queue.delayed.map((d) => d.inMs)].sort((x, y) => x - y),
        );
        expect(c.queue.delayedTotal).toBeGreaterThanOrEqual(1);
        // Only the last three are kept, newest first; an error carries its message, a backoff is queued.
        expect(c.lastResults.length).toBe(3);
        const last = c.lastResults.find((r) => r.key === `${NS}/done-4`)!;
        expect(last).toMatchObject({ result: 'error', error: 'no quota left' });
        // Its first run came from the add, the next ones from its own backoff.
        expect(['event', 'backoff']).toContain(last.trigger.reason);
        const times = c.lastResults.map((r) => Date.parse(r.finishedAt));
        expect(times.every((t, i) => !Number.isNaN(t) && (i === 0 || t <= times[i - 1]!))).toBe(true);
        const one = JSON.parse(
          (await httpGet(mgr.healthProbePort!, '/debug/controllers/gizmo')).body,
        ) as ControllerDebugInfo;
        expect(one.name).toBe('gizmo');
        const missing = await httpGet(mgr.healthProbePort!, '/debug/controllers/nope');
        expect(missing.status).toBe(404);
        expect(missing.body).toContain('no controller named \\"nope\\"; known: gizmo');
      } finally {
        release();
        ac.abort();
        await run;
      }
    });

    it('is off by default: 404, while /healthz answers', async () => {
      const mgr = manager({});
      controllerFor(mgr, GIZMO).complete({ reconcile: async () => ({}) });
      const ac = new AbortController();
      const run = mgr.start(ac.signal);
      try {
        await waitFor('the health port', () => mgr.healthProbePort !== undefined);
        await waitFor('/healthz', async () => (await httpGet(mgr.healthProbePort!, '/healthz')).status === 200);
        expect((await httpGet(mgr.healthProbePort!, '/debug/controllers')).status).toBe(404);
      } finally {
        ac.abort();
        await run;
      }
    });
  },
);
