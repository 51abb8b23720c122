/**
 * Child process of runtime-sharding.ts: one replica of a sharded Gizmo operator (ring RING, its
 * Leases in LEASE_NAMESPACE, shard SHARD, objects in NAMESPACE) with MAX_CONCURRENT workers. Its
 * reconcile is the shape of an operator that calls a cloud API: read the Gizmo from the cache;
 * if its status is behind its generation, wait DELAY_MS for the "slow dependency", then write
 * the status (Ready for that generation); otherwise do nothing. Reconciles hold at their start
 * until SIGUSR2 (the benchmark's "go"), so objects can be created and assigned before the clock
 * starts. It prints JSON lines on stdout: {"event":"holding"} once it holds its shard Lease, then
 * every 500 ms {"event":"stats"} with the Gizmos in its cache (its share), the reconciles it
 * ran, the mean time of its status writes, its RSS and CPU seconds; and {"event":"reconcile"}
 * with the key, start and end (monotonic µs) of each reconcile. Exits 0 on SIGTERM.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { controllerFor } from '../runtime/builder/index.js';
import { isNotFound, patchStatus } from '../runtime/client/index.js';
import { setStatusCondition, type Condition } from '../runtime/conditions/index.js';
import { createLogger } from '../runtime/log/index.js';
import { createManager, setupSignalHandler } from '../runtime/manager/index.js';
import { shardingEngine } from '../runtime/sharding/index.js';
import { GIZMO, type Gizmo } from '../runtime/test-fixtures/gizmo-reconciler.js';

const env = process.env;
const delayMs = Number(env['DELAY_MS'] ?? 500);
const kc = new KubeConfig();
kc.loadFromFile(env['KUBECONFIG_PATH'] ?? '');
const report = (event: string, fields: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ event, t: Date.now(), ...fields })}\n`);
let go!: () => void;
const started = new Promise<void>((resolve) => (go = resolve));
process.on('SIGUSR2', () => go());

const mgr = createManager({
  kubeConfig: kc,
  namespace: env['NAMESPACE'],
  metricsBindAddress: '0',
  logger: createLogger({ level: (env['LOG_LEVEL'] as 'warn' | undefined) ?? 'warn' }),
  sharding: { ring: env['RING'] ?? 'bench', namespace: env['LEASE_NAMESPACE'] ?? 'default', shardName: env['SHARD'] },
  shardingEngine,
});
let reconciles = 0;
/** The status writes: how many, and the time they took (the API server's part of a reconcile). */
let writes = 0;
let writeMs = 0;
const mono = () => Number(process.hrtime.bigint() / 1000n);
controllerFor(mgr, GIZMO)
  .withOptions({ maxConcurrentReconciles: Number(env['MAX_CONCURRENT'] ?? 4) })
  .complete({
    async reconcile(req, ctx) {
      const start = mono();
      try {
        await reconcileGizmo(req, ctx.signal);
      } finally {
        // One line per reconcile, on the machine's monotonic clock: the benchmark checks that no
        // Gizmo was reconciled by two replicas at once.
        report('reconcile', { key: `${req.namespace}/${req.name}`, start, end: mono() });
      }
    },
  });

async function reconcileGizmo(req: { namespace?: string; name: string }, signal: AbortSignal): Promise<void> {
  await started;
  reconciles++;
  let gizmo: Gizmo;
  try {
    gizmo = await mgr.client.get<Gizmo>(GIZMO, req, { signal });
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  const generation = gizmo.metadata?.generation;
  if (gizmo.status?.observedGeneration === generation) return;
  await new Promise((r) => setTimeout(r, delayMs));
  const conditions: Condition[] = structuredClone(gizmo.status?.conditions ?? []);
  setStatusCondition(conditions, {
    type: 'Ready',
    status: 'True',
    reason: 'Provisioned',
    message: 'the slow dependency answered',
    observedGeneration: generation,
  });
  const sent = performance.now();
  await patchStatus(mgr.client, gizmo, { observedGeneration: generation, conditions }, { signal });
  writes++;
  writeMs += performance.now() - sent;
}

const gizmoGvk = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };
const cpu0 = process.cpuUsage();
let held = false;
const stats = setInterval(() => {
  if (!held && mgr.sharding?.isHolding()) {
    held = true;
    report('holding');
  }
  if (!held) return;
  const cpu = process.cpuUsage(cpu0);
  report('stats', {
    gizmos: mgr.cache.informerFor(gizmoGvk).store.size,
    reconciles,
    writeMs: writes > 0 ? writeMs / writes : 0,
    rssMiB: process.memoryUsage().rss / 2 ** 20,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  });
}, 500);

mgr.start(setupSignalHandler()).then(
  () => {
    clearInterval(stats);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`replica failed: ${String(err)}\n`);
    process.exit(1);
  },
);
