/**
 * Benchmark: one sharded controller on 1, 2 and 3 replicas, each a separate process
 * (runtime-sharding-replica.ts), working through COUNT Gizmos whose reconcile waits DELAY_MS on a
 * slow dependency (the shape of an operator calling a cloud API) before writing their status,
 * MAX_CONCURRENT workers per replica. For each run the replicas start and hold their shards; the
 * Gizmos are created (PARALLEL at a time) and assigned by the ring's leader, and every replica
 * caches its share; then all replicas are told to go (SIGUSR2) and the run is timed from there
 * to the last Gizmo Ready, watched from here. Creating and assigning is reported apart: on a
 * loaded machine it is the API server's pace, not the controller's. Runs alternate their order
 * round by round (1,2,3 then 3,2,1 …), so the load of a shared machine hits every count alike.
 *
 * The reconcile is I/O-bound, as an operator's is: it waits on its dependency far longer than it
 * computes. On a small machine that also runs the API server, etcd and every replica, a short
 * wait would make the run measure the shared cores instead (the API server's answers slow down
 * as the replicas add writes), so the default wait, 500 ms, is that of a cloud API that creates
 * something; each replica's mean status-write time is printed so that the API server's part can
 * be seen growing or not.
 *
 * Prints per run: throughput over the whole run and between 10 % and 90 % done, each replica's
 * share (the Gizmos in its cache), reconciles, when its last reconcile ended, its mean status
 * write time, RSS and CPU; the reconciles checked and how many pairs of one Gizmo overlapped
 * (any is an error: the run stops); then the medians and the speedup over one replica.
 *
 *   npm run bench:sharding
 *   (COUNT=1000 DELAY_MS=500 MAX_CONCURRENT=4 REPLICAS=1,2,3 ROUNDS=3 PARALLEL=50 by default)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Informer } from '../runtime/cache/index.js';
import { createClient, type Client } from '../runtime/client/index.js';
import { startControlPlane } from '../runtime/envtest/index.js';
import type { KubeConfigSource } from '../runtime/kubeconfig/index.js';
import type { Gizmo } from '../runtime/test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, createGizmos, ensureNamespace, isConverged, waitFor } from '../runtime/test-fixtures/helpers.js';
import { overlapping, type ReconcileInterval } from '../runtime/test-fixtures/reconcile-checker.js';
import { compileChild } from './compile-child.js';

const count = Number(process.env['COUNT'] ?? 1000);
const delayMs = Number(process.env['DELAY_MS'] ?? 500);
const workers = Number(process.env['MAX_CONCURRENT'] ?? 4);
const replicaCounts = (process.env['REPLICAS'] ?? '1,2,3').split(',').map(Number);
const rounds = Number(process.env['ROUNDS'] ?? 3);
const parallel = Number(process.env['PARALLEL'] ?? 50);
const GIZMO_GVK = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };

const mono = (): number => Number(process.hrtime.bigint() / 1000n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const seconds = (from: number, to = performance.now()) => (to - from) / 1000;

interface Stats {
  gizmos: number;
  reconciles: number;
  /** Mean time of its status writes, ms. */
  writeMs: number;
  rssMiB: number;
  cpuSeconds: number;
}

interface Replica {
  name: string;
  proc: ChildProcess;
  holding: Promise<void>;
  last?: Stats;
  /** Every reconcile it ran, on the machine's monotonic clock (µs). */
  intervals: ReconcileInterval[];
  exited: Promise<number | null>;
}

interface Run {
  replicas: number;
  /** Creating the Gizmos, and until the last of them had its shard label. */
  createSeconds: number;
  assignedSeconds: number;
  seconds: number;
  perSecond: number;
  steadyPerSecond: number;
  shares: Stats[];
  /** Per replica: from "go" to the end of its last reconcile, s. */
  finished: number[];
  /** Reconciles checked for overlap, and the pairs of one Gizmo that overlapped (on two replicas or one). */
  checked: number;
  overlaps: number;
  load: string;
}

function spawnReplica(file: string, name: string, env: Record<string, string>): Replica {
  const proc = spawn(process.execPath, [file], {
    env: { ...process.env, ...env, SHARD: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let held!: () => void;
  const r: Replica = {
    name,
    proc,
    intervals: [],
    holding: new Promise<void>((resolve) => (held = resolve)),
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
  };
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const e = JSON.parse(line) as { event: string; key?: string; start?: number; end?: number } & Stats;
    if (e.event === 'holding') held();
    if (e.event === 'stats') r.last = e;
    if (e.event === 'reconcile') r.intervals.push({ key: e.key!, replica: name, start: e.start!, end: e.end! });
  });
  return r;
}

/** Follows every Gizmo of `ns`: when each got its shard label and when it became Ready. */
function track(kubeConfig: KubeConfigSource, ns: string, label: string) {
  const assigned = new Set<string>();
  const done: number[] = [];
  const seen = new Set<string>();
  const informer = new Informer<Gizmo>({ kubeConfig, gvk: GIZMO_GVK, namespace: ns });
  const on = (g: Gizmo) => {
    const name = g.metadata!.name!;
    if (g.metadata?.labels?.[label]) assigned.add(name);
    if (isConverged(g) && !seen.has(name)) {
      seen.add(name);
      done.push(performance.now());
    }
  };
  informer.addEventHandler({ onAdd: on, onUpdate: (_, g) => on(g) });
  return { informer, assigned, done };
}

async function run(
  file: string,
  client: Client,
  kubeconfigPath: string,
  kubeConfig: KubeConfigSource,
  n: number,
  id: number,
): Promise<Run> {
  const ns = `bench-shard-${id}`;
  await ensureNamespace(client, ns);
  const ring = `bench-${id}`;
  const common = {
    KUBECONFIG_PATH: kubeconfigPath,
    RING: ring,
    LEASE_NAMESPACE: ns,
    NAMESPACE: ns,
    DELAY_MS: String(delayMs),
    MAX_CONCURRENT: String(workers),
  };
  const replicas = Array.from({ length: n }, (_, i) => spawnReplica(file, `r${id}-${i}`, common));
  const ac = new AbortController();
  try {
    const failed = replicas.map((r) => r.exited.then((c) => Promise.reject(new Error(`a replica exited with ${c}`))));
    await Promise.race([Promise.all(replicas.map((r) => r.holding)), ...failed]);
    // Every shard's Lease in place before any object exists, so nothing moves during the run.
    const leases = { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' };
    await waitFor(
      `${n} shard leases`,
      async () =>
        (await client.list(leases, { namespace: ns, labelSelector: `sharding.tsop.dev/ring=${ring}` })).items.length ===
        n,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 1000));

    const t = track(kubeConfig, ns, `shard.sharding.tsop.dev/${ring}`);
    void t.informer.run(ac.signal);
    await t.informer.waitForSync(ac.signal);
    const created = performance.now();
    await createGizmos(client, ns, 'g', count, parallel);
    const createSeconds = seconds(created);
    await waitFor('every Gizmo assigned', () => t.assigned.size === count, 600_000);
    const assignedSeconds = seconds(created);
    await waitFor(
      'every replica caching its share',
      () => replicas.reduce((sum, r) => sum + (r.last?.gizmos ?? 0), 0) === count,
      60_000,
    );

    const load = loadavg()[0]!.toFixed(1);
    const t0 = performance.now();
    const go = mono();
    for (const r of replicas) r.proc.kill('SIGUSR2');
    await waitFor('every Gizmo Ready', () => t.done.length === count, 1_200_000, 20);
    const t1 = t.done[count - 1]!;
    await new Promise((r) => setTimeout(r, 600)); // one more stats line from each replica
    const at = (q: number) => t.done[Math.floor(q * (count - 1))]!;
    const shares = replicas.map((r) => r.last!);
    for (const r of replicas) r.proc.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited)); // every reconcile line is in
    const intervals = replicas.flatMap((r) => r.intervals);
    return {
      replicas: n,
      createSeconds,
      assignedSeconds,
      seconds: seconds(t0, t1),
      perSecond: count / seconds(t0, t1),
      steadyPerSecond: (0.8 * count) / seconds(at(0.1), at(0.9)),
      shares,
      finished: replicas.map((r) => (Math.max(...r.intervals.map((i) => i.end)) - go) / 1e6),
      checked: intervals.length,
      overlaps: overlapping(intervals).length,
      load: `${load}→${loadavg()[0]!.toFixed(1)}`,
    };
  } finally {
    ac.abort();
    for (const r of replicas) r.proc.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    await client.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }).catch(() => undefined);
  }
}

const child = compileChild(fileURLToPath(new URL('./runtime-sharding-replica.ts', import.meta.url)));
const cp = await startControlPlane({ crdDirectoryPaths: [CRD_DIR] });
const results: Run[] = [];
try {
  const client = createClient(cp.kubeConfig);
  console.log(
    `${count} Gizmos, reconcile waits ${delayMs} ms, ${workers} workers per replica, ${rounds} round(s); load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  let id = 0;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? replicaCounts : [...replicaCounts].reverse();
    for (const n of order) {
      const r = await run(child.file, client, cp.kubeconfigPath, cp.kubeConfig, n, ++id);
      results.push(r);
      const shares = r.shares
        .map(
          (s, i) =>
            `${s.gizmos} (${s.reconciles} reconciles, done at ${r.finished[i]!.toFixed(1)} s, status write ${s.writeMs.toFixed(0)} ms, ${s.rssMiB.toFixed(0)} MiB, ${s.cpuSeconds.toFixed(1)} s CPU)`,
        )
        .join(', ');
      console.log(
        `round ${round + 1}, ${n} replica(s): ${r.seconds.toFixed(1)} s, ${r.perSecond.toFixed(1)}/s (10-90 %: ${r.steadyPerSecond.toFixed(1)}/s); ` +
          `Gizmos cached per replica: ${shares}; before the clock: created in ${r.createSeconds.toFixed(1)} s, all assigned after ${r.assignedSeconds.toFixed(1)} s; ` +
          `${r.checked} reconciles checked, ${r.overlaps} overlapping; load ${r.load}`,
      );
      if (r.overlaps > 0)
        throw new Error(`${r.overlaps} pairs of reconciles of one Gizmo overlapped with ${n} replicas`);
    }
  }
  const base = median(results.filter((r) => r.replicas === 1).map((r) => r.perSecond));
  const baseSteady = median(results.filter((r) => r.replicas === 1).map((r) => r.steadyPerSecond));
  console.log(
    '\n| replicas | throughput (median) | speedup | 10-90 % throughput | speedup | Gizmos cached per replica (median share) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const n of replicaCounts) {
    const rs = results.filter((r) => r.replicas === n);
    const per = median(rs.map((r) => r.perSecond));
    const steady = median(rs.map((r) => r.steadyPerSecond));
    const share = median(rs.flatMap((r) => r.shares.map((s) => s.gizmos / count)));
    console.log(
      `| ${n} | ${per.toFixed(1)}/s | ${(per / base).toFixed(2)}× | ${steady.toFixed(1)}/s | ${(steady / baseSteady).toFixed(2)}× | ${(share * 100).toFixed(1)} % |`,
    );
  }
  console.log(
    `\nNo Gizmo reconciled by two replicas (or twice on one) at once: ${results.reduce((n, r) => n + r.checked, 0)} reconciles of ${results.length} runs checked, ` +
      `${results.reduce((n, r) => n + r.overlaps, 0)} overlapping; load average at the end ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
} finally {
  await cp.stop();
  rmSync(child.dir, { recursive: true, force: true });
}
