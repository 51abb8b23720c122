/**
 * Priority for real changes, against a real API server: with 300 ConfigMaps listed at start
 * and one worker, an edit made while the initial list drains is reconciled next, not after
 * the whole list (controller-runtime's priority queue).
 */
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient, mergePatch } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { testManager } from '../testing/manager.js';

const NS = 'priority';
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const COUNT = 300;

describeWithControlPlane('controller: real changes before the initial list', { shared: true }, (env) => {
  it('reconciles an object edited during the initial list before the rest of the list', async () => {
    const client = createClient(env.cp.kubeConfig);
    await ensureNamespace(client, NS);
    for (let i = 0; i < COUNT; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          client.create({ ...CM, metadata: { name: `cm-${i + j}`, namespace: NS } }),
        ),
      );
    }
    const mgr = testManager(env, { namespace: NS });
    const order: string[] = [];
    let editedSeenAfter = -1;
    controllerFor(mgr, CM).complete({
      async reconcile(req) {
        const cm = await mgr.client.get(CM, req);
        if (cm.metadata?.annotations?.['edited'] === 'yes' && editedSeenAfter < 0)
          editedSeenAfter = new Set(order).size;
        order.push(req.name);
        await new Promise((r) => setTimeout(r, 5)); // some work, so the list takes a while
      },
    });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      await waitFor('the list to start draining', () => order.length >= 20);
      // The API server lists in key order, so this one was queued last.
      const last = Array.from({ length: COUNT }, (_, i) => `cm-${i}`)
        .sort()
        .at(-1)!;
      await client.patch(
        { ...CM, metadata: { name: last, namespace: NS } },
        mergePatch({ metadata: { annotations: { edited: 'yes' } } }),
      );
      await waitFor('the edit to be reconciled', () => editedSeenAfter >= 0);
      // A handful of list keys may run while the edit travels (watch → queue); not the other ~280.
      expect(editedSeenAfter).toBeLessThan(60);
      expect(order.slice(0, editedSeenAfter + 1)).toContain(last);
    } finally {
      ac.abort();
      await run;
    }
  });
});
