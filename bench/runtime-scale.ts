/**
 * Benchmark: the informer cache at scale, tsop beside controller-runtime, on one etcd +
 * kube-apiserver. For each size (COUNTS, default 1000,10000,100000) ConfigMaps of SIZE bytes of
 * data (default 1024) live in a namespace of their own (s1k, s10k, s100k); then each cache — tsop
 * whole, tsop metadata-only, controller-runtime whole, controller-runtime metadata-only — runs in
 * a child process that lists, watches and syncs them, and reports its time to sync and its memory
 * after a GC, once more after SETTLE_SECONDS of quiet (10), and its peak. The two runtimes of a
 * row run back to back, which one goes first alternating from run to run. Bytes per cached object
 * are counted above the same program's settled RSS with an empty namespace, and above its live
 * heap after a GC (V8's heapUsed, Go's HeapAlloc): what the objects themselves hold. The API
 * server's CPU seconds while a child syncs show what its encoding costs (both ask for protobuf;
 * PROTOBUF=0 has tsop ask for JSON).
 * At the largest size each cache is then made to relist: the API server is stopped, etcd compacted
 * past the cache's resourceVersion, the server started again, so the watch's resumption is
 * answered 410 Gone; the child reports the seconds from the server's return to the relist stored
 * (the same start for both runtimes) and the relist's peak RSS.
 *
 * The tsop child runs on the Node of a generated project's image (bench/node.sh image) with the
 * node flags of its config/manager/manager.yaml (--max-semi-space-size=8), as a generated manager
 * runs; NODE=<path> picks another Node.
 *
 *   npm run bench:scale
 *   (COUNTS=1000,10000,100000 SIZE=1024 RUNS=1 SETTLE_SECONDS=10 RELIST=1 CACHES= CHILD_NODE_ARGS= PROTOBUF=1;
 *   DATA_DIR=<dir> keeps etcd's data there, so a later run finds the ConfigMaps already made; the
 *   Go program is built with the Go toolchain from the module proxy into
 *   ~/.cache/tsop-bench/cache-scale when its source is newer than the binary)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type ControlPlane, startControlPlane } from '../runtime/envtest/index.js';
import { compileChild } from './compile-child.js';
import { pool, rawClient, type Raw } from './kube-raw.js';
import { childCpuSeconds } from './proc.js';

const counts = (process.env['COUNTS'] ?? '1000,10000,100000').split(',').map(Number);
const size = Number(process.env['SIZE'] ?? 1024);
const runs = Number(process.env['RUNS'] ?? 1);
const relist = process.env['RELIST'] !== '0';
/** More flags for tsop's child, e.g. CHILD_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to see where its sync goes. */
const childNodeArgs = (process.env['CHILD_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

interface Report {
  syncSeconds: number;
  objects: number;
  rssMiB: number;
  settledRssMiB: number;
  peakRssMiB: number;
  heapMiB: number;
  /** Filled in here: the API server's CPU seconds from the child's start to its first report (its sync, then quiet). */
  serverCpuSeconds?: number;
}

interface RelistReport {
  relistSeconds: number;
  objects: number;
  relistPeakRssMiB: number;
}

const goSource = fileURLToPath(new URL('./go/cache-scale/', import.meta.url));

function goBinary(): string {
  const dir = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'tsop-bench', 'cache-scale');
  const bin = join(dir, 'cache-scale');
  if (!existsSync(bin) || statSync(join(goSource, 'main.go')).mtimeMs > statSync(bin).mtimeMs) {
    mkdirSync(dir, { recursive: true });
    console.log('building the controller-runtime cache program (bench/go/cache-scale)');
    execFileSync('go', ['build', '-mod=mod', '-o', bin, '.'], { cwd: goSource, stdio: 'inherit' });
  }
  return bin;
}

function nodeOfImage(): string {
  return execFileSync('bash', [fileURLToPath(new URL('./node.sh', import.meta.url)), 'image'], {
    encoding: 'utf8',
  }).trim();
}

/**
 * Runs one child; `between` runs after its first report line (the relist's trigger) and the
 * promise resolves with every report line.
 */
function runChild(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  serverCpu: () => number,
  between?: () => Promise<void>,
): Promise<[Report, RelistReport?]> {
  return new Promise((resolve, reject) => {
    const cpuAtStart = serverCpu();
    let serverCpuSeconds = 0;
    const proc = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: string[] = [];
    let triggered: Promise<void> | undefined;
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      lines.push(line);
      if (lines.length === 1) serverCpuSeconds = serverCpu() - cpuAtStart;
      if (lines.length === 1 && between)
        // The child times the relist from this line on stdin: the same start for both runtimes.
        triggered = between().then(
          () => void proc.stdin.end('back\n'),
          (err: unknown) => {
            proc.kill();
            reject(err);
          },
        );
    });
    proc.on('exit', (code) => {
      void (triggered ?? Promise.resolve()).then(() => {
        if (code === 0 && lines.length > 0) {
          const [report, relisted] = lines.map((l) => JSON.parse(l)) as [Report, RelistReport?];
          resolve([{ ...report, serverCpuSeconds }, relisted]);
        } else reject(new Error(`${cmd} exited with ${code}: ${lines.join('\n')}`));
      });
    });
  });
}

const namespaceFor = (count: number): string => (count % 1000 === 0 ? `s${count / 1000}k` : `s${count}`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = (): string => loadavg()[0]!.toFixed(1);

/** Makes `count` ConfigMaps in the namespace, or the ones missing when DATA_DIR kept some. */
async function fill(raw: Raw, namespace: string, count: number): Promise<void> {
  await raw.call('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
  const page = await raw.json<{ items: unknown[]; metadata: { remainingItemCount?: number } }>(
    'GET',
    `/api/v1/namespaces/${namespace}/configmaps?limit=1`,
  );
  if (page.items.length + (page.metadata.remainingItemCount ?? 0) >= count) {
    console.log(`${count} ConfigMaps of ${size} bytes in ${namespace} (kept in DATA_DIR)`);
    return;
  }
  const data = 'x'.repeat(size);
  const t = performance.now();
  let made = 0;
  await pool(count, 64, async (i) => {
    const r = await raw.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      metadata: { name: `cm-${i}`, namespace, labels: { app: 'scale', index: String(i) } },
      data: { payload: data },
    });
    if (r.status === 201) made++;
    else if (r.status !== 409) throw new Error(`creating ConfigMap ${i}: ${r.status} ${r.body.slice(0, 200)}`);
  });
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  console.log(`${count} ConfigMaps of ${size} bytes in ${namespace} (${made} made in ${seconds} s)`);
}

const go = goBinary();
const node = process.env['NODE'] ?? nodeOfImage();
const child = compileChild(fileURLToPath(new URL('./runtime-scale-cache.ts', import.meta.url)));
/** CACHES='tsop metadata-only,…' runs only those (the pairs then hold what is left of them). */
const only = process.env['CACHES']?.split(',');
const caches = [
  { name: 'tsop', metadataOnly: false },
  { name: 'controller-runtime', metadataOnly: false },
  { name: 'tsop metadata-only', metadataOnly: true },
  { name: 'controller-runtime metadata-only', metadataOnly: true },
].filter((c) => !only || only.includes(c.name));
console.log(`tsop on ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} --max-semi-space-size=8`);
let cp: ControlPlane | undefined;
try {
  // An API server over 100,000 kept objects fills its watch cache before it is ready: more than envtest's 20 s on a busy machine.
  const plane = (cp = await startControlPlane({
    startTimeoutMs: 180_000,
    ...(process.env['DATA_DIR'] ? { dataDir: process.env['DATA_DIR'] } : {}),
  }));
  const raw = await rawClient(plane);
  // The plane's API server is this process's child (one plane per run).
  const serverCpu = (): number => childCpuSeconds(['kube-apiserver']);
  const measure = (name: string, metadataOnly: boolean, namespace: string, between?: () => Promise<void>) => {
    const env = {
      KUBECONFIG_PATH: plane.kubeconfigPath,
      NAMESPACE: namespace,
      METADATA_ONLY: metadataOnly ? '1' : '0',
      RELIST: between ? '1' : '0',
    };
    return name.startsWith('tsop')
      ? runChild(
          node,
          ['--expose-gc', '--max-semi-space-size=8', ...childNodeArgs, child.file],
          env,
          serverCpu,
          between,
        )
      : runChild(go, [], env, serverCpu, between);
  };
  /** Restarts the API server over an etcd compacted past every cache's resourceVersion: 410 on resumption. */
  const expire = async (): Promise<void> => {
    await plane.stopApiServer();
    await plane.compactEtcd();
    await plane.startApiServer();
  };
  // The same programs with nothing to cache: what a cached object adds is measured above this.
  await raw.call('POST', '/api/v1/namespaces', { metadata: { name: 'scale-empty' } });
  const empty = new Map<string, number>();
  const emptyHeap = new Map<string, number>();
  for (const c of caches) {
    const [r] = await measure(c.name, c.metadataOnly, 'scale-empty');
    empty.set(c.name, r.settledRssMiB);
    emptyHeap.set(c.name, r.heapMiB);
    console.log(
      `  ${c.name.padEnd(34)} empty: RSS ${r.rssMiB.toFixed(0)} MiB, settled ${r.settledRssMiB.toFixed(0)} MiB`,
    );
  }
  // RUNS=0: the relist alone.
  for (const count of runs > 0 ? counts : []) {
    const namespace = namespaceFor(count);
    await fill(raw, namespace, count);
    for (const pair of [caches.filter((c) => !c.metadataOnly), caches.filter((c) => c.metadataOnly)]) {
      const reports = new Map<string, Report[]>(pair.map((c) => [c.name, []]));
      for (let r = 0; r < runs; r++) {
        for (const c of r % 2 === 0 ? pair : [...pair].reverse())
          reports.get(c.name)!.push((await measure(c.name, c.metadataOnly, namespace))[0]);
      }
      for (const c of pair) {
        const rs = reports.get(c.name)!;
        const settled = median(rs.map((r) => r.settledRssMiB));
        const perObject = ((settled - empty.get(c.name)!) * 1024 * 1024) / count;
        const heap = median(rs.map((r) => r.heapMiB));
        const heapPerObject = ((heap - emptyHeap.get(c.name)!) * 1024 * 1024) / count;
        console.log(
          `  ${c.name.padEnd(34)} sync ${median(rs.map((r) => r.syncSeconds)).toFixed(2)} s, ` +
            `RSS ${median(rs.map((r) => r.rssMiB)).toFixed(0)} MiB, settled ${settled.toFixed(0)} MiB, ` +
            `peak ${median(rs.map((r) => r.peakRssMiB)).toFixed(0)} MiB, ${perObject.toFixed(0)} bytes per object; ` +
            `live heap ${heap.toFixed(0)} MiB, ${heapPerObject.toFixed(0)} bytes per object; ` +
            `API server CPU ${median(rs.map((r) => r.serverCpuSeconds ?? 0)).toFixed(2)} s ` +
            `(${rs[0]!.objects} cached; load ${load()})`,
        );
      }
    }
  }
  if (relist) {
    const count = counts[counts.length - 1]!;
    for (const c of caches) {
      const [, r] = await measure(c.name, c.metadataOnly, namespaceFor(count), expire);
      if (!r) throw new Error(`${c.name} reported no relist`);
      console.log(
        `  ${c.name.padEnd(34)} relist after 410 at ${count}: ${r.relistSeconds.toFixed(2)} s, ` +
          `peak RSS ${r.relistPeakRssMiB.toFixed(0)} MiB (${r.objects} cached; load ${load()})`,
      );
    }
  }
  raw.close();
} finally {
  await cp?.stop();
  rmSync(child.dir, { recursive: true, force: true });
}
