/**
 * A complete operator process for the child-process tests (leader election, SIGKILL, SIGTERM)
 * and the benchmark: a manager running the Gizmo controller. Configured by environment:
 *   KUBECONFIG_PATH (required), LEASE_ID + LEASE_NAMESPACE (enable leader election),
 *   RELEASE_ON_CANCEL=1, LEASE_DURATION_MS, RENEW_DEADLINE_MS, RETRY_PERIOD_MS (default 15/10/2 s),
 *   METRICS_ADDR (default '0'), PROBE_ADDR (default '0'), RECONCILE_DELAY_MS, SHUTDOWN_TIMEOUT_MS,
 *   MAX_CONCURRENT (default 1), IDENTITY, and SPIN_KEY + SPIN_MS: the reconcile of that key
 *   blocks the event loop for SPIN_MS before its writes (a long GC pause, a CPU-bound step).
 *   RING shards the controller in that ring (Leases in LEASE_NAMESPACE, shard IDENTITY, the
 *   lease timings above for the shard Lease too); NAMESPACE limits the cache (and the ring) to one.
 * It reports on stdout as JSON lines (logs go to stderr), each with `t` (Date.now()) and `mono`
 * (the machine's monotonic clock in µs, process.hrtime: comparable between processes):
 *   {"event":"synced","metricsPort","probePort"} (caches synced; campaigning starts now),
 *   {"event":"elected"}, {"event":"holding"} (holds its shard Lease),
 *   {"event":"start","key"}, {"event":"spun","key","aborted"} (whether ctx.signal was aborted on the
 *   line after the block), {"event":"end","key"}, {"event":"stopped"}.
 * Exit status: 0 after a graceful stop, 1 when leadership is lost or shutdown times out.
 */

import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { controllerFor } from '../builder/index.js';
import { createLogger } from '../log/index.js';
import { createManager, setupSignalHandler } from '../manager/index.js';
import type { Reconciler } from '../reconcile/index.js';
import { shardingEngine } from '../sharding/index.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler } from './gizmo-reconciler.js';

const env = process.env;
const report = (event: string, fields: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ event, t: Date.now(), mono: Number(process.hrtime.bigint() / 1000n), pid: process.pid, ...fields })}\n`);

const kc = new KubeConfig();
kc.loadFromFile(env['KUBECONFIG_PATH'] ?? '');
const leaseId = env['LEASE_ID'];
const timing = {
  ...(env['LEASE_DURATION_MS'] ? { leaseDurationMs: Number(env['LEASE_DURATION_MS']) } : {}),
  ...(env['RENEW_DEADLINE_MS'] ? { renewDeadlineMs: Number(env['RENEW_DEADLINE_MS']) } : {}),
  ...(env['RETRY_PERIOD_MS'] ? { retryPeriodMs: Number(env['RETRY_PERIOD_MS']) } : {}),
};
const ring = env['RING'];
const mgr = createManager({
  kubeConfig: kc,
  metricsBindAddress: env['METRICS_ADDR'] ?? '0',
  healthProbeBindAddress: env['PROBE_ADDR'] ?? '0',
  gracefulShutdownTimeoutMs: Number(env['SHUTDOWN_TIMEOUT_MS'] ?? 30_000),
  logger: createLogger({ level: (process.env['LOG_LEVEL'] as 'info' | undefined) ?? 'info', destination: pino.destination(2) }),
  leaderElection: leaseId
    ? {
        id: leaseId,
        namespace: env['LEASE_NAMESPACE'] ?? 'default',
        releaseOnCancel: env['RELEASE_ON_CANCEL'] === '1',
        identity: env['IDENTITY'],
        ...timing,
      }
    : undefined,
  sharding: ring ? { ring, namespace: env['LEASE_NAMESPACE'] ?? 'default', shardName: env['IDENTITY'], ...timing } : undefined,
  shardingEngine,
  namespace: env['NAMESPACE'] || undefined,
});

const inner = gizmoReconciler(mgr.client, { delayMs: Number(env['RECONCILE_DELAY_MS'] ?? 0) });
const reporting: Reconciler = {
  async reconcile(req, ctx) {
    const key = `${req.namespace}/${req.name}`;
    report('start', { key });
    if (key === env['SPIN_KEY']) {
      const until = performance.now() + Number(env['SPIN_MS'] ?? 0);
      while (performance.now() < until); // nothing else in this process runs meanwhile, timers included
      // What user code with a side effect outside Kubernetes would check before making it.
      report('spun', { key, aborted: ctx.signal.aborted });
    }
    try {
      return await inner.reconcile(req, ctx);
    } finally {
      report('end', { key });
    }
  },
};
controllerFor(mgr, GIZMO)
  .owns(DEPLOYMENT)
  .withOptions({ maxConcurrentReconciles: Number(env['MAX_CONCURRENT'] ?? 1) })
  .complete(reporting);

const signal = setupSignalHandler();
void mgr.cache.waitForCacheSync(signal).then((ok) => ok && report('synced', { metricsPort: mgr.metricsPort, probePort: mgr.healthProbePort }));
void mgr.elected().then(() => report('elected'));
if (mgr.sharding) {
  const sharding = mgr.sharding;
  const poll = setInterval(() => {
    if (!sharding.isHolding()) return;
    clearInterval(poll);
    report('holding', { shard: sharding.shardName });
  }, 50);
}
mgr.start(signal).then(
  () => {
    report('stopped');
    process.exit(0);
  },
  (err: unknown) => {
    report('failed', { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    process.exit(1);
  },
);
