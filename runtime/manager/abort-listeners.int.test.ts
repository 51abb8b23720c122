/**
 * No listener growth on shared signals, against a real API server: a manager running a dozen
 * controllers sends 10,000 requests through its client, a hundred at a time, with and without a
 * caller's signal (all of them share the manager's fence, half of them one more signal). Node
 * prints a MaxListenersExceededWarning (not JSON, looks like a leak) when an AbortSignal holds
 * more than 10 listeners; none may appear.
 */
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { testManager } from '../testing/manager.js';

const NS = 'listeners';
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const REQUESTS = 10_000;
const PARALLEL = 100;
const CONTROLLERS = 12;

describeWithControlPlane('manager: no abort-listener growth', { shared: true }, (env) => {
  it(`sends ${REQUESTS} requests with ${CONTROLLERS} controllers running and no MaxListenersExceededWarning`, {
    timeout: 240_000,
  }, async () => {
    const client = createClient(env.cp.kubeConfig);
    await ensureNamespace(client, NS);
    await client.create({ ...CM, metadata: { name: 'target', namespace: NS } }).catch(() => undefined);
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    const mgr = testManager(env, {
      namespace: NS,
    });
    const reconciled = new Set<string>();
    for (let i = 0; i < CONTROLLERS; i++) {
      controllerFor(mgr, CM)
        .named(`cm-${i}`)
        .complete({ reconcile: async () => void reconciled.add(`cm-${i}`) });
    }
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      await waitFor('every controller to reconcile', () => reconciled.size === CONTROLLERS, 60_000);
      const shared = new AbortController();
      let sent = 0;
      const worker = async (): Promise<void> => {
        while (sent < REQUESTS) {
          const n = sent++;
          const opts = n % 2 === 0 ? { signal: shared.signal } : {};
          await mgr.client.apiReader().get(CM, { namespace: NS, name: 'target' }, opts);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
    } finally {
      ac.abort();
      await run;
      process.off('warning', onWarning);
    }
  });
});
