/**
 * The reconcile runtime side by side with controller-runtime: kubebuilder's deploy-image Memcached
 * operator (Go) and tsop's (TypeScript), built by bench/operators.ts, run in turn against a real
 * API server (a fresh etcd + kube-apiserver per run, so both meet the same empty store). Each run
 * creates COUNT Memcacheds (size 1), starts the operator, and times it until every Memcached has
 * condition Available=True (seen through a watch from this process), with the operator's peak RSS
 * and CPU seconds (/proc) and the requests it made (the API server's apiserver_request_total for
 * memcacheds, deployments and events). Client-side rate limits are off in both; workers 1 and 8.
 *
 * The API server's ceiling: the same writes per Memcached (status Unknown, finalizer, Deployment,
 * status Available) issued by a minimal concurrent client (bench/kube-raw.ts), same concurrency,
 * timed the same way (until the benchmark's watch has seen every Memcached Available). A second
 * reference row, "minimal client + the two watches", is the same client holding the two watches an
 * operator's informers hold (Memcacheds, Deployments): what serving any operator's cache adds on
 * the server's side, which neither operator can avoid. Every run also reports the CPU seconds the
 * kube-apiserver and etcd spent during it.
 * Steady state: each operator converges IDLE_COUNT Memcacheds (8 workers), then sits idle for two
 * windows of IDLE_SECONDS: its RSS and the CPU it burns in each. The first window holds what
 * follows a burst once (V8's memory reducer compacts the heap there and gives the memory back,
 * about 0.1 s of CPU at 10,000 objects); the second is the steady state.
 *
 *   npm run bench:compare-runtime      (COUNT=1000 RUNS=5 CONCURRENCY=1,8 IDLE_COUNT=10000 IDLE_SECONDS=60)
 *   OPERATORS_DIR=<dir> keeps the built operators there for the next run; OUT=<file.json> (default
 *   bench/results/runtime.json) receives every run and its convergence curve for bench/chart.ts,
 *   <OUT>-idle.json the idle figures. ONLY=tsop,go,ceiling,ceiling-watches picks the rows to run;
 *   OPERATOR_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>" profiles the tsop operator.
 *   The tsop operator and the minimal client run on the Node that runs this script, with the node
 *   flags of the scaffolded config/manager/manager.yaml. npm run bench:compare-runtime runs it on
 *   the Node of the generated image (bash bench/node.sh image); another major:
 *   "$(bash bench/node.sh 22)" --import ./runtime/testing/register.mjs bench/compare-runtime.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startControlPlane, type ControlPlane } from '../runtime/envtest/index.js';
import { anchorsBin, load, median, ROOT } from './measure.js';
import { pool, rawClient, requestCount, type Raw } from './kube-raw.js';
import { planeCpuSeconds, procStats } from './proc.js';
import { buildGoOperator, buildTsopOperator, IMAGE, type Operator } from './operators.js';

const COUNT = Number(process.env['COUNT'] ?? 1000);
const RUNS = Number(process.env['RUNS'] ?? 5);
const CONCURRENCY = (process.env['CONCURRENCY'] ?? '1,8').split(',').map(Number);
const IDLE_COUNT = Number(process.env['IDLE_COUNT'] ?? 10000);
const IDLE_SECONDS = Number(process.env['IDLE_SECONDS'] ?? 60);
const TIMEOUT_MS = Number(process.env['TIMEOUT_SECONDS'] ?? 900) * 1000;
const OUT = process.env['OUT'] ?? join(ROOT, 'bench/results/runtime.json');
const NS = 'bench';
/** ONLY=tsop,go,ceiling,ceiling-watches (any of them) runs only those rows (the operators also when idle). */
const ONLY = (process.env['ONLY'] ?? 'tsop,go,ceiling,ceiling-watches').split(',');
const MC = `/apis/cache.example.com/v1alpha1/namespaces/${NS}/memcacheds`;
const COUNTED = ['memcacheds', 'deployments', 'events'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RunResult {
  who: string;
  concurrency: number;
  resources: number;
  convergeSeconds: number;
  peakRssMiB: number;
  cpuSeconds: number;
  requests: number;
  /** CPU seconds the API server and etcd spent over the run */
  serverCpuSeconds: number;
  /** Seconds since start at which each resource was first seen converged (sorted). */
  curve: number[];
}

async function withPlane<T>(crdDir: string, fn: (plane: ControlPlane, raw: Raw) => Promise<T>): Promise<T> {
  const plane = await startControlPlane({ crdDirectoryPaths: [crdDir], startTimeoutMs: 120_000 });
  const raw = await rawClient(plane);
  try {
    await raw.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    return await fn(plane, raw);
  } finally {
    raw.close();
    await plane.stop();
  }
}

interface Memcached {
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; finalizers?: string[] };
  status?: { conditions?: Record<string, unknown>[] };
  [k: string]: unknown;
}

async function createMemcacheds(raw: Raw, count: number): Promise<Memcached[]> {
  const out: Memcached[] = new Array<Memcached>(count);
  await pool(count, 32, async (i) => {
    out[i] = await raw.json<Memcached>('POST', MC, {
      apiVersion: 'cache.example.com/v1alpha1',
      kind: 'Memcached',
      metadata: { name: `m${i}`, namespace: NS },
      spec: { size: 1, containerPort: 11211 },
    });
  });
  return out;
}

const available = (o: Record<string, unknown>) =>
  ((o['status'] as Memcached['status'])?.conditions ?? []).some(
    (c) => c['type'] === 'Available' && c['status'] === 'True',
  );

/** Resolves with the convergence curve once `count` Memcacheds are Available, timed from t0(). */
function awaitConverged(raw: Raw, count: number, t0: () => number): { done: Promise<number[]>; stop(): void } {
  const seen = new Set<string>();
  const curve: number[] = [];
  let resolve: (c: number[]) => void = () => {};
  const done = new Promise<number[]>((r) => (resolve = r));
  const w = raw.watch(`${MC}?watch=true`, (_type, obj) => {
    const name = String((obj['metadata'] as { name?: string } | undefined)?.name);
    if (!seen.has(name) && available(obj)) {
      seen.add(name);
      curve.push((performance.now() - t0()) / 1000);
      if (seen.size === count) resolve(curve);
    }
  });
  return { done, stop: () => w.stop() };
}

function startOperator(op: Operator, plane: ControlPlane, concurrency: number): ChildProcess {
  // OPERATOR_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to the tsop operator's node.
  const extra =
    op.command === process.execPath ? (process.env['OPERATOR_NODE_ARGS'] ?? '').split(' ').filter(Boolean) : [];
  return spawn(op.command, [...extra, ...op.args], {
    cwd: op.cwd,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      KUBECONFIG: plane.kubeconfigPath,
      MEMCACHED_IMAGE: IMAGE,
      BENCH_CONCURRENCY: String(concurrency),
      GOMAXPROCS: process.env['GOMAXPROCS'],
    },
  });
}

async function stopOperator(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function timeout<T>(p: Promise<T>, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>(
      (_, reject) =>
        (t = setTimeout(() => reject(new Error(`${what}: not converged within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS)),
    ),
  ]).finally(() => clearTimeout(t));
}

/** One operator converging COUNT fresh Memcacheds. */
async function runOperator(op: Operator, concurrency: number, count: number): Promise<RunResult> {
  return withPlane(op.crdDir, async (plane, raw) => {
    await createMemcacheds(raw, count);
    const before = await requestCount(raw, COUNTED);
    let t0 = 0;
    const conv = awaitConverged(raw, count, () => t0);
    const serverCpu0 = planeCpuSeconds();
    t0 = performance.now();
    const child = startOperator(op, plane, concurrency);
    try {
      const exited = new Promise<never>((_, reject) =>
        child.once('exit', (code) => reject(new Error(`${op.name} exited with ${code} before converging`))),
      );
      const curve = await timeout(Promise.race([conv.done, exited]), op.name);
      const convergeSeconds = (performance.now() - t0) / 1000;
      const serverCpuSeconds = planeCpuSeconds() - serverCpu0;
      const stats = procStats(child.pid!);
      const requests = (await requestCount(raw, COUNTED)) - before;
      return {
        who: op.name,
        concurrency,
        resources: count,
        convergeSeconds,
        peakRssMiB: stats.peakRssMiB,
        cpuSeconds: stats.cpuSeconds,
        requests,
        serverCpuSeconds,
        curve,
      };
    } finally {
      conv.stop();
      await stopOperator(child);
    }
  });
}

const CEILING = 'API server ceiling (minimal client)';
const CEILING_WATCHING = 'minimal client + the two watches';

/** The same writes as the operators, per Memcached, from the minimal client. */
async function runCeiling(crdDir: string, concurrency: number, count: number, watches = false): Promise<RunResult> {
  return withPlane(crdDir, async (_plane, raw) => {
    const objs = await createMemcacheds(raw, count);
    // With `watches`, the client also holds the two watches an operator's informers hold (its
    // Memcacheds and Deployments), parsing every event: what serving an operator's cache costs.
    const held = watches
      ? [
          raw.watch(`${MC}?watch=true`, () => undefined),
          raw.watch(`/apis/apps/v1/namespaces/${NS}/deployments?watch=true`, () => undefined),
        ]
      : [];
    const before = await requestCount(raw, COUNTED);
    const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const cond = (status: string, message: string) => [
      { type: 'Available', status, reason: 'Reconciling', message, lastTransitionTime: now() },
    ];
    // Timed like the operators: until the benchmark's own watch has seen every Memcached Available.
    let t0 = 0;
    const conv = awaitConverged(raw, count, () => t0);
    const serverCpu0 = planeCpuSeconds();
    const cpu0 = process.cpuUsage();
    t0 = performance.now();
    const writes = pool(count, concurrency, async (i) => {
      let m = objs[i]!;
      const name = m.metadata.name;
      m = await raw.json<Memcached>('PUT', `${MC}/${name}/status`, {
        ...m,
        status: { conditions: cond('Unknown', 'Starting reconciliation') },
      });
      m = await raw.json<Memcached>('PUT', `${MC}/${name}`, {
        ...m,
        metadata: { ...m.metadata, finalizers: ['cache.example.com/finalizer'] },
      });
      await raw.json('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment(m));
      await raw.json('PUT', `${MC}/${name}/status`, {
        ...m,
        status: {
          conditions: cond('True', `Deployment for custom resource (${name}) with 1 replicas created successfully`),
        },
      });
    });
    let curve: number[];
    try {
      [curve] = await timeout(Promise.all([conv.done, writes]), 'API server ceiling');
    } finally {
      conv.stop();
      for (const w of held) w.stop();
    }
    const convergeSeconds = (performance.now() - t0) / 1000;
    const serverCpuSeconds = planeCpuSeconds() - serverCpu0;
    // The minimal client runs in this process, beside the benchmark's watch (which the operator runs have too).
    const cpu = process.cpuUsage(cpu0);
    const requests = (await requestCount(raw, COUNTED)) - before;
    return {
      who: watches ? CEILING_WATCHING : CEILING,
      concurrency,
      resources: count,
      convergeSeconds,
      peakRssMiB: NaN,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      requests,
      serverCpuSeconds,
      curve,
    };
  });
}

/** The Deployment both operators write for a Memcached (same shape as their deploymentForMemcached). */
function deployment(m: Memcached): unknown {
  const labels = {
    'app.kubernetes.io/name': 'memcached-operator',
    'app.kubernetes.io/version': '1.6.26-alpine3.19',
    'app.kubernetes.io/managed-by': 'MemcachedController',
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: m.metadata.name,
      namespace: NS,
      ownerReferences: [
        {
          apiVersion: 'cache.example.com/v1alpha1',
          kind: 'Memcached',
          name: m.metadata.name,
          uid: m.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              image: IMAGE,
              name: 'memcached',
              imagePullPolicy: 'IfNotPresent',
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 1001,
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
              },
              ports: [{ containerPort: 11211, name: 'memcached' }],
              command: ['memcached', '--memory-limit=64', '-o', 'modern', '-v'],
            },
          ],
        },
      },
    },
  };
}

/** Converges IDLE_COUNT Memcacheds with 8 workers, then measures two idle windows. */
interface IdleResult {
  who: string;
  resources: number;
  convergeSeconds: number;
  /** RSS at the end of the first idle window, and the CPU seconds spent in it */
  idleRssMiB: number;
  idleCpuSeconds: number;
  /** the same over the second window: the steady state */
  steadyRssMiB: number;
  steadyCpuSeconds: number;
  peakRssMiB: number;
}

async function runIdle(op: Operator, count: number): Promise<IdleResult> {
  return withPlane(op.crdDir, async (plane, raw) => {
    await createMemcacheds(raw, count);
    let t0 = 0;
    const conv = awaitConverged(raw, count, () => t0);
    t0 = performance.now();
    const child = startOperator(op, plane, 8);
    try {
      await timeout(conv.done, `${op.name} (idle set)`);
      const convergeSeconds = (performance.now() - t0) / 1000;
      await sleep(5000); // let the last status writes and their echoes settle
      const a = procStats(child.pid!);
      await sleep(IDLE_SECONDS * 1000);
      const b = procStats(child.pid!);
      await sleep(IDLE_SECONDS * 1000);
      const c = procStats(child.pid!);
      return {
        who: op.name,
        resources: count,
        convergeSeconds,
        idleRssMiB: b.rssMiB,
        idleCpuSeconds: b.cpuSeconds - a.cpuSeconds,
        steadyRssMiB: c.rssMiB,
        steadyCpuSeconds: c.cpuSeconds - b.cpuSeconds,
        peakRssMiB: c.peakRssMiB,
      };
    } finally {
      conv.stop();
      await stopOperator(child);
    }
  });
}

const keep = process.env['OPERATORS_DIR'];
const opsRoot = keep ?? mkdtempSync(join(tmpdir(), 'tsop-bench-operators-'));
try {
  console.log(
    `building the operators in ${opsRoot}; the tsop operator and the minimal client run on Node ${process.version} (load ${load()})`,
  );
  const goOp = buildGoOperator(opsRoot, join(anchorsBin(), 'kubebuilder'));
  const tsOp = buildTsopOperator(opsRoot);
  /** Whether ONLY= asks for this operator's rows. */
  const picked = (op: Operator): boolean => ONLY.includes(op === tsOp ? 'tsop' : 'go');
  const results: RunResult[] = [];
  const loads: string[] = [];
  const line = (r: RunResult) =>
    `${r.who}, ${r.concurrency} worker(s): ${r.resources} converged in ` +
    `${r.convergeSeconds.toFixed(2)} s, peak RSS ${r.peakRssMiB.toFixed(0)} MiB, CPU ` +
    `${r.cpuSeconds.toFixed(2)} s, server CPU ${r.serverCpuSeconds.toFixed(2)} s, ` +
    `${r.requests} requests (load ${load()})`;
  for (const c of CONCURRENCY) {
    for (let i = 0; i < RUNS; i++) {
      // Alternate the order pair by pair; the ceiling runs between them.
      const order = (i % 2 === 0 ? [tsOp, goOp] : [goOp, tsOp]).filter(picked);
      for (const op of order) {
        const r = await runOperator(op, c, COUNT);
        results.push(r);
        loads.push(load());
        console.log(line(r));
      }
      for (const watches of [false, true]) {
        if (!ONLY.includes(watches ? 'ceiling-watches' : 'ceiling')) continue;
        const r = await runCeiling(goOp.crdDir, c, COUNT, watches);
        results.push(r);
        console.log(line(r));
      }
    }
  }
  const idle: IdleResult[] = [];
  if (IDLE_COUNT > 0) {
    for (const op of [goOp, tsOp].filter(picked)) {
      const r = await runIdle(op, IDLE_COUNT);
      idle.push(r);
      console.log(
        `${r.who} idle with ${r.resources} cached: converged in ${r.convergeSeconds.toFixed(1)} s, peak RSS ${r.peakRssMiB.toFixed(0)} MiB; ` +
          `first ${IDLE_SECONDS} s idle: CPU ${r.idleCpuSeconds.toFixed(2)} s, RSS ` +
          `${r.idleRssMiB.toFixed(0)} MiB; next ${IDLE_SECONDS} s: CPU ` +
          `${r.steadyCpuSeconds.toFixed(2)} s, RSS ${r.steadyRssMiB.toFixed(0)} MiB (load ${load()})`,
      );
    }
  }

  // Table: medians per (who, concurrency), ratios pair by pair against kubebuilder's operator.
  if (RUNS > 0)
    console.log(
      `\nmedians of ${RUNS} runs, ${COUNT} Memcacheds; ratio = median of pairwise tsop/Go (and tsop/ceiling)\n`,
    );
  if (RUNS > 0)
    console.log(
      '| workers | operator | converge | peak RSS | CPU | API server + etcd CPU | API requests |\n|---|---|---|---|---|---|---|',
    );
  const of = (who: string, c: number) => results.filter((r) => r.who === who && r.concurrency === c);
  for (const c of RUNS > 0 ? CONCURRENCY : []) {
    for (const who of [tsOp.name, goOp.name, CEILING, CEILING_WATCHING]) {
      const rs = of(who, c);
      if (rs.length === 0) continue;
      const m = (k: 'convergeSeconds' | 'peakRssMiB' | 'cpuSeconds' | 'requests' | 'serverCpuSeconds') =>
        median(rs.map((r) => r[k]));
      const or = (v: number, text: string) => (Number.isNaN(v) ? '–' : text);
      console.log(
        `| ${c} | ${who} | ${m('convergeSeconds').toFixed(2)} s | ` +
          `${or(m('peakRssMiB'), `${m('peakRssMiB').toFixed(0)} MiB`)} | ` +
          `${or(m('cpuSeconds'), `${m('cpuSeconds').toFixed(2)} s`)} | ` +
          `${m('serverCpuSeconds').toFixed(2)} s | ${m('requests').toFixed(0)} |`,
      );
    }
    const ts = of(tsOp.name, c);
    const go = of(goOp.name, c);
    const ceil = of(CEILING, c);
    const ratio = (k: 'convergeSeconds' | 'peakRssMiB' | 'cpuSeconds', b: RunResult[]) =>
      median(ts.map((r, i) => r[k] / (b[i]?.[k] ?? NaN))).toFixed(2);
    console.log(
      `| ${c} | ratio tsop/Go | **${ratio('convergeSeconds', go)}** | **${ratio('peakRssMiB', go)}** | ${ratio('cpuSeconds', go)} | | |`,
    );
    console.log(`| ${c} | ratio tsop/ceiling | **${ratio('convergeSeconds', ceil)}** | | | | |`);
    const watching = of(CEILING_WATCHING, c);
    if (watching.length)
      console.log(`| ${c} | ratio tsop/(client + watches) | ${ratio('convergeSeconds', watching)} | | | | |`);
  }
  mkdirSync(dirname(OUT), { recursive: true });
  const date = new Date().toISOString();
  // Each part to its own file, so a run of one part (RUNS=0 or IDLE_COUNT=0) keeps the other's figures.
  if (results.length) {
    // Curves rounded to the millisecond keep the file small; NaN (no RSS/CPU for the ceiling) becomes null.
    const rounded = results.map((r) => ({ ...r, curve: r.curve.map((t) => Math.round(t * 1000) / 1000) }));
    writeFileSync(
      OUT,
      `${JSON.stringify({ node: process.version, count: COUNT, runs: RUNS, results: rounded, loads, date })}\n`,
    );
    console.log(`\nwrote ${OUT}`);
  }
  if (idle.length) {
    const idleOut = OUT.replace(/(\.json)?$/, '-idle.json');
    writeFileSync(
      idleOut,
      `${JSON.stringify({ node: process.version, count: IDLE_COUNT, idleSeconds: IDLE_SECONDS, idle, date }, null, 1)}\n`,
    );
    console.log(`wrote ${idleOut}`);
  }
} finally {
  if (!keep) rmSync(opsRoot, { recursive: true, force: true });
}
