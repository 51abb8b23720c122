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
 * Prints per run: throughput over the whole run and between 10 % and 90 % done, each replica's
 * share (the Gizmos in its cache), reconciles, RSS and CPU; then the medians and the speedup
 * over one replica.
 *
 *   npm run bench:sharding
 *   (COUNT=3000 DELAY_MS=100 MAX_CONCURRENT=4 REPLICAS=1,2,3 ROUNDS=2 PARALLEL=50 by default)
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
import { compileChild } from './compile-child.js';

const count = Number(process.env['COUNT'] ?? 3000);
const delayMs = Number(process.env['DELAY_MS'] ?? 100);
const workers = Number(process.env['MAX_CONCURRENT'] ?? 4);
const replicaCounts = (process.env['REPLICAS'] ?? '1,2,3').split(',').map(Number);
const rounds = Number(process.env['ROUNDS'] ?? 2);
const parallel = Number(process.env['PARALLEL'] ?? 50);
const GIZMO_GVK = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const seconds = (from: number, to = performance.now()) => (to - from) / 1000;

interface Stats {
  gizmos: number;
  reconciles: number;
  rssMiB: number;
  cpuSeconds: number;
}

interface Replica {
  proc: ChildProcess;
  holding: Promise<void>;
  last?: Stats;
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
  load: string;
}

function spawnReplica(file: string, name: string, env: Record<string, string>): Replica {
  const proc = spawn(process.execPath, [file], {
    env: { ...process.env, ...env, SHARD: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let held!: () => void;
  const r: Replica = {
    proc,
    holding: new Promise<void>((resolve) => (held = resolve)),
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
  };
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const e = JSON.parse(line) as { event: string } & Stats;
    if (e.event === 'holding') held();
    if (e.event === 'stats') r.last = e;
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
    for (const r of replicas) r.proc.kill('SIGUSR2');
    await waitFor('every Gizmo Ready', () => t.done.length === count, 1_200_000, 20);
    const t1 = t.done[count - 1]!;
    await new Promise((r) => setTimeout(r, 600)); // one more stats line from each replica
    const at = (q: number) => t.done[Math.floor(q * (count - 1))]!;
    return {
      replicas: n,
      createSeconds,
      assignedSeconds,
      seconds: seconds(t0, t1),
      perSecond: count / seconds(t0, t1),
      steadyPerSecond: (0.8 * count) / seconds(at(0.1), at(0.9)),
      shares: replicas.map((r) => r.last!),
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
          (s) =>
            `${s.gizmos} (${s.reconciles} reconciles, ${s.rssMiB.toFixed(0)} MiB, ${s.cpuSeconds.toFixed(1)} s CPU)`,
        )
        .join(', ');
      console.log(
        `round ${round + 1}, ${n} replica(s): ${r.seconds.toFixed(1)} s, ${r.perSecond.toFixed(1)}/s (10-90 %: ${r.steadyPerSecond.toFixed(1)}/s); ` +
          `Gizmos cached per replica: ${shares}; before the clock: created in ${r.createSeconds.toFixed(1)} s, all assigned after ${r.assignedSeconds.toFixed(1)} s; load ${r.load}`,
      );
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
} finally {
  await cp.stop();
  rmSync(child.dir, { recursive: true, force: true });
}
