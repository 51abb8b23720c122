/**
 * Benchmark: priority for real changes. 5,000 Gizmos exist when a manager starts; once its
 * workers have reconciled 100 of the initial list (the rest still queued), the Gizmo listed
 * last is edited. Measured: time from the edit to the start of a reconcile that sees the new generation,
 * and how much of the initial list had been reconciled by then. Without priority the edit would
 * wait behind every queued key of the list (the "drain" figure, measured at the end).
 *
 *   node --import ./runtime/testing/register.mjs bench/runtime-priority.ts
 *   (COUNT=5000 CONCURRENCY=1,8 by default)
 */

import { loadavg } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { controllerFor } from '../runtime/builder/index.js';
import { createClient, mergePatch } from '../runtime/client/index.js';
import { startControlPlane } from '../runtime/envtest/index.js';
import { createLogger } from '../runtime/log/index.js';
import { createManager } from '../runtime/manager/index.js';
import { GIZMO, gizmoReconciler, type Gizmo } from '../runtime/test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, createGizmos, ensureNamespace } from '../runtime/test-fixtures/helpers.js';

const count = Number(process.env['COUNT'] ?? 5000);
const concurrencies = (process.env['CONCURRENCY'] ?? '1,8').split(',').map(Number);

interface Figures {
  editToReconcileMs: number;
  reconciledBefore: number;
  drainSeconds: number;
}

async function run(kubeConfig: KubeConfig, namespace: string, workers: number, edited: string): Promise<Figures> {
  const mgr = createManager({
    kubeConfig,
    namespace,
    metricsBindAddress: '0',
    registry: new Registry(),
    logger: createLogger({ level: 'silent' }),
  });
  const inner = gizmoReconciler(mgr.client);
  let editedAt = 0;
  let reconciledAt = 0;
  let reconciledBefore = 0;
  let resolveSeen!: () => void;
  const seen = new Promise<void>((r) => (resolveSeen = r));
  const distinct = new Set<string>();
  let resolveDrained!: () => void;
  const drained = new Promise<void>((r) => (resolveDrained = r));
  controllerFor(mgr, GIZMO)
    .withOptions({ maxConcurrentReconciles: workers })
    .complete({
      async reconcile(req, ctx) {
        if (req.name === edited && editedAt > 0 && reconciledAt === 0) {
          const g = await mgr.client.get<Gizmo>(GIZMO, req);
          if (g.metadata?.generation === 2) {
            reconciledAt = performance.now();
            reconciledBefore = distinct.size;
            resolveSeen();
          }
        }
        const result = await inner.reconcile(req, ctx);
        distinct.add(req.name);
        if (distinct.size === count) resolveDrained();
        return result;
      },
    });
  const ac = new AbortController();
  const started = performance.now();
  const running = mgr.start(ac.signal);
  await mgr.elected();
  // Edit one object the list queued last while the workers are well into the initial list.
  while (distinct.size < 100) await new Promise((r) => setTimeout(r, 10));
  editedAt = performance.now();
  await mgr.client.patch<Gizmo>(
    { ...GIZMO, metadata: { name: edited, namespace } },
    mergePatch({ spec: { replicas: 2 } }),
  );
  await seen;
  await drained;
  const drainSeconds = (performance.now() - started) / 1000;
  ac.abort();
  await running;
  return { editToReconcileMs: reconciledAt - editedAt, reconciledBefore, drainSeconds };
}

const cp = await startControlPlane({ crdDirectoryPaths: [CRD_DIR] });
try {
  const client = createClient(cp.kubeConfig);
  console.log(
    `node ${process.version}, ${count} Gizmos, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const n of concurrencies) {
    const namespace = `prio-c${n}`;
    await ensureNamespace(client, namespace);
    const t = performance.now();
    await createGizmos(client, namespace, 'g', count, 50);
    console.log(`created ${count} Gizmos in ${namespace} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const f = await run(cp.kubeConfig, namespace, n, `g-${count - 1}`);
    console.log(
      `maxConcurrentReconciles=${n}: edited Gizmo reconciled ${f.editToReconcileMs.toFixed(0)} ms after the edit, ` +
        `with ${f.reconciledBefore} of ${count} listed Gizmos reconciled by then; the initial list drained in ${f.drainSeconds.toFixed(1)} s`,
    );
  }
} finally {
  await cp.stop();
}
