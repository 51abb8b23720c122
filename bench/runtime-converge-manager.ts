/**
 * Child process of runtime-converge.ts: one manager running the Gizmo controller, scoped to
 * NAMESPACE with MAX_CONCURRENT workers. It reports, as one JSON line on stdout, how long the
 * cache took to sync and the controller to converge EXPECTED Gizmos (each Ready for its
 * generation, each with one owned Deployment, read from its own cache), plus its peak RSS and
 * CPU seconds — measured in this process only, so the API server's cost is not counted.
 */

import { KubeConfig } from '@kubernetes/client-node';
import { controllerFor } from '../runtime/builder/index.js';
import { createLogger } from '../runtime/log/index.js';
import { createManager } from '../runtime/manager/index.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler, type Gizmo } from '../runtime/test-fixtures/gizmo-reconciler.js';
import { isConverged } from '../runtime/test-fixtures/helpers.js';

const env = process.env;
const namespace = env['NAMESPACE'] ?? 'default';
const expected = Number(env['EXPECTED'] ?? 1000);
const kc = new KubeConfig();
kc.loadFromFile(env['KUBECONFIG_PATH'] ?? '');

// After imports: what the process holds before the manager starts (node, the TypeScript
// loader used to run this file, the libraries) is reported apart from the peak.
const baselineRss = process.memoryUsage().rss;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const mgr = createManager({
  kubeConfig: kc,
  namespace,
  metricsBindAddress: '0',
  logger: createLogger({ level: 'silent' }),
});
controllerFor(mgr, GIZMO)
  .owns(DEPLOYMENT)
  .withOptions({ maxConcurrentReconciles: Number(env['MAX_CONCURRENT'] ?? 1) })
  .complete(gizmoReconciler(mgr.client));

const ac = new AbortController();
const run = mgr.start(ac.signal);
const gizmoGvk = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };
const depGvk = { group: 'apps', version: 'v1', kind: 'Deployment' };
// Convergence is tracked from the shared informers' events: no polling, no copies.
const convergedGizmos = new Set<string>();
const deployments = new Set<string>();
let done: () => void = () => {};
const allDone = new Promise<void>((r) => (done = r));
const check = () => {
  if (convergedGizmos.size === expected && deployments.size === expected) done();
};
const track = (set: Set<string>, ok: (o: Gizmo) => boolean) => ({
  onAdd: (o: Gizmo) => {
    if (ok(o)) set.add(o.metadata!.name!);
    check();
  },
  onUpdate: (_: Gizmo, o: Gizmo) => {
    if (ok(o)) set.add(o.metadata!.name!);
    else set.delete(o.metadata!.name!);
    check();
  },
  onDelete: (o: Gizmo) => void set.delete(o.metadata!.name!),
});
mgr.cache.informerFor<Gizmo>(gizmoGvk).addEventHandler(track(convergedGizmos, isConverged));
mgr.cache.informerFor<Gizmo>(depGvk).addEventHandler(track(deployments, () => true));
await mgr.cache.waitForCacheSync(ac.signal);
const synced = performance.now();
const progress = env['PROGRESS']
  ? setInterval(() => {
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      process.stderr.write(`${s} s: ${convergedGizmos.size} converged, ${deployments.size} deployments\n`);
    }, 2000)
  : undefined;
await allDone;
clearInterval(progress);
const converged = performance.now();
const cpu = process.cpuUsage(cpu0);
const outcomes: Record<string, number> = {};
for (const v of (await mgr.metrics.controller.reconcileTotal.get()).values)
  outcomes[String(v.labels['result'])] = v.value;
const report = {
  maxConcurrentReconciles: Number(env['MAX_CONCURRENT'] ?? 1),
  resources: expected,
  cacheSyncSeconds: (synced - t0) / 1000,
  convergeSeconds: (converged - t0) / 1000,
  peakRssMiB: process.resourceUsage().maxRSS / 1024,
  baselineRssMiB: baselineRss / 2 ** 20,
  heapUsedMiB: process.memoryUsage().heapUsed / 2 ** 20,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  reconciles: outcomes,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
ac.abort();
await run;
process.exit(0);
