/**
 * The cost and the pace of the `tsop dev` console.
 *
 * 1. Overhead: a project made with the built CLI (one kind, the scaffolded controller, which writes
 *    a condition to each object's status) under `tsop dev --controllers=false --samples=false`,
 *    1,000 objects created CREATE_CONCURRENCY (default 8) at a time, timed until a watch sees every
 *    one carry the controller's condition — with the console off (`--console=false`), then on
 *    with a page's stream open (an SSE client reading every event). Target: on no more than 10 %
 *    slower. The stream's lag (an event's arrival minus the end of the reconcile it tells of) is
 *    reported too.
 * 2. Pace: the console's own pipeline (spans in at /dev/spans, store, SSE out, as in `tsop dev`)
 *    fed 200 reconciles a second, each with three API calls, sent in batches every 100 ms as the
 *    runtime's dev tracer does, for RATE_SECONDS (default 30); a stream client measures each event's
 *    lag. Target: none over 1 s behind. The heap after a full GC, before and after, shows the
 *    history's bound (2,000 reconciles are kept; the run sends 6,000).
 *
 *   npm run bench:console            # RUNS=3 (overhead runs per mode, alternated), RATE_SECONDS=30
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ConsoleServer } from '../src/dev/console/server.js';
import { ConsoleStore, LIMITS } from '../src/dev/console/store.js';
import { locateAssets } from '../runtime/envtest/index.js';
import { createClient } from '../runtime/client/index.js';
import { Cache } from '../runtime/cache/index.js';
import type { KubeObject } from '../runtime/apimachinery/index.js';
import { loadKubeConfigFile } from '../runtime/kubeconfig/index.js';
import { linkNodeModules } from '../test/scaffold/node-modules.js';
import { procStat } from './proc.js';

const TSOP = fileURLToPath(new URL('../', import.meta.url));
const OBJECTS = Number(process.env['OBJECTS'] ?? 1000);
const RUNS = Number(process.env['RUNS'] ?? 3);
const MEMCACHED = { group: 'cache.example.com', version: 'v1alpha1', kind: 'Memcached' };
const CREATE_CONCURRENCY = Number(process.env['CREATE_CONCURRENCY'] ?? 8);
const RATE = 200;
const RATE_SECONDS = Number(process.env['RATE_SECONDS'] ?? 30);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const pct = (sorted: number[], p: number): number =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);

interface StreamStats {
  /** Per reconcile, its first telling's delay behind the reconcile's end (ms). */
  lags: number[];
  ids: string[];
  events: number;
  /** Times the server cut the stream off (a consumer too far behind) and it was opened again. */
  reconnects: number;
  /** Settles when the first snapshot has arrived: the page is open. */
  opened: Promise<void>;
  close: () => void;
}

/**
 * Reads a console's SSE stream as a page's EventSource does: when the server cuts it off, it opens
 * it again and starts from the snapshot. Each reconcile counts once, at its first telling, whether
 * an event or a later snapshot brought it (a reconcile seen first in a snapshot was that late).
 */
function streamLag(url: string): StreamStats {
  let markOpened = (): void => undefined;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const out: StreamStats = { lags: [], ids: [], events: 0, reconnects: 0, opened, close: () => undefined };
  const seen = new Set<string>();
  let closed = false;
  const tell = (r: { spanId: string; startMs: number; durationMs: number }, now: number): void => {
    // A reconcile is told again when a late API call joins it: its first telling is its lag.
    if (seen.has(r.spanId)) return;
    seen.add(r.spanId);
    out.lags.push(now - (r.startMs + r.durationMs));
    out.ids.push(r.spanId);
  };
  let current: ReturnType<typeof request> | undefined;
  const open = (): void => {
    const req = request(`${url}/events`, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = Date.now();
        buffer += chunk;
        const parts = buffer.split('\n\n');
        buffer = parts.pop() ?? '';
        for (const part of parts) {
          out.events++;
          const data = (): unknown => JSON.parse(part.slice(part.indexOf('data: ') + 6));
          if (part.startsWith('event: reconcile\n')) tell(data() as Parameters<typeof tell>[0], now);
          else if (part.startsWith('event: snapshot\n')) {
            markOpened();
            for (const r of (data() as { reconciles: Parameters<typeof tell>[0][] }).reconciles) tell(r, now);
          }
        }
      });
      res.on('close', () => {
        if (closed) return;
        out.reconnects++;
        setTimeout(open, 100);
      });
    });
    req.on('error', () => undefined);
    req.end();
    current = req;
  };
  open();
  out.close = () => {
    closed = true;
    current?.destroy();
  };
  return out;
}

/** The parts of a `tsop dev` session whose CPU the overhead run reports. */
const ROLES = ['tsop dev', 'operator', 'kube-apiserver', 'etcd', 'kubectl', 'other'] as const;
type Role = (typeof ROLES)[number];

function roleOf(cmdline: string): Role {
  if (cmdline.includes('kube-apiserver')) return 'kube-apiserver';
  if (/(^|\/)etcd\0/.test(cmdline)) return 'etcd';
  if (/(^|\/)kubectl\0/.test(cmdline)) return 'kubectl';
  if (cmdline.includes('bin/tsop.js')) return 'tsop dev';
  if (cmdline.includes('register.js')) return 'operator';
  return 'other';
}

/**
 * CPU seconds (user + system) spent so far by a process and every descendant still running, by
 * role: tsop dev (with the console), the operator, etcd, kube-apiserver and the console's kubectl
 * watches. Less bent by other load on the machine than the wall-clock time, so it backs the
 * converge time up and says where a difference comes from.
 */
function treeCpuSeconds(root: number): Map<Role, number> {
  const stats = new Map<number, { ppid: number; cpuSeconds: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      stats.set(Number(name), procStat(name));
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      p = stats.get(p)?.ppid ?? 0;
    }
    return false;
  };
  const out = new Map<Role, number>(ROLES.map((r) => [r, 0]));
  for (const [pid, s] of stats) {
    if (!inTree(pid)) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const role = roleOf(cmdline);
    out.set(role, (out.get(role) ?? 0) + s.cpuSeconds);
  }
  return out;
}

/** Until the session's processes use under a tenth of a core for two seconds in a row (at most 30 s). */
async function settled(root: number): Promise<void> {
  const until = performance.now() + 30_000;
  let quiet = 0;
  let before = total(treeCpuSeconds(root));
  while (quiet < 2 && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = total(treeCpuSeconds(root));
    quiet = now - before < 0.1 ? quiet + 1 : 0;
    before = now;
  }
}

const total = (m: Map<Role, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
const minus = (a: Map<Role, number>, b: Map<Role, number>): Map<Role, number> =>
  new Map(ROLES.map((r) => [r, (a.get(r) ?? 0) - (b.get(r) ?? 0)]));
const byRole = (m: Map<Role, number>): string =>
  ROLES.filter((r) => (m.get(r) ?? 0) >= 0.05)
    .map((r) => `${r} ${(m.get(r) ?? 0).toFixed(1)}`)
    .join(', ');

/**
 * The API server's request counts so far (apiserver_request_total), by verb, resource,
 * subresource and code: what the run asked of it, so that a mode that costs the API server more
 * shows whether it asked more (more writes, conflicts, lists) or the same asks cost more.
 */
async function apiRequests(env: NodeJS.ProcessEnv): Promise<Map<string, number>> {
  const { stdout } = await promisify(execFile)(kubectlBin, ['get', '--raw', '/metrics'], {
    env,
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
  });
  const out = new Map<string, number>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const label = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '';
    const key = [
      label('verb'),
      label('resource') + (label('subresource') ? `/${label('subresource')}` : ''),
      label('code'),
    ].join(' ');
    out.set(key, (out.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

/** What changed between two tallies, the busiest first, as `verb resource code ×n`. */
function requestsBetween(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
}

// ---- 1. overhead under tsop dev --------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'tsop-bench-console-'));
const dir = join(work, 'memcached-operator');
const kubectlBin = locateAssets()?.kubectl ?? 'kubectl';
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

function tsop(...args: string[]): void {
  execFileSync(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd: dir,
    stdio: 'pipe',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

async function converge(consoleOn: boolean): Promise<{
  ms: number;
  cpu: Map<Role, number>;
  lags: number[];
  events: number;
  reconciles: number;
  reconnects: number;
  requests: string;
  createdMs: number;
}> {
  const tmp = mkdtempSync(join(work, 'tmp-'));
  const args = ['dev', '--controllers=false', '--samples=false', ...(consoleOn ? [] : ['--console=false'])];
  const child = spawn(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd: dir,
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  // Read all along: a pipe nobody reads fills, and tsop dev (whose writes to a pipe block) would stall.
  let text = '';
  const take = (c: Buffer): void => {
    text = (text + c.toString('utf8')).slice(-1_000_000);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const seen = async (re: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = re.exec(text);
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`tsop dev exited:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kubeconfig = (await seen(/export KUBECONFIG=(\S+)/))[1]!;
  const url = consoleOn ? (await seen(/console: (http:\/\/127\.0\.0\.1:\d+)/))[1]! : undefined;
  await seen(/operator ready/);
  const stream = url ? streamLag(url) : undefined;
  // The page is open before the objects come, as a person's would be.
  await stream?.opened;
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  const kc = loadKubeConfigFile(kubeconfig);
  const client = createClient(kc);
  // Converged when every object carries the controller's condition: seen through a watch, whose
  // cost to the API server is the same in both modes, where polling a list costs more the longer a run takes.
  const done = new Set<string>();
  let markConverged = (): void => undefined;
  const converged = new Promise<void>((resolve) => (markConverged = resolve));
  const cache = new Cache({ kubeConfig: kc, defaultScope: { namespace: 'default' } });
  const see = (o: KubeObject): void => {
    const conditions = (o['status'] as { conditions?: Array<{ message?: string }> } | undefined)?.conditions;
    if (conditions?.[0]?.message === 'Memcached reconciled') done.add(o.metadata?.name ?? '');
    if (done.size >= OBJECTS) markConverged();
  };
  cache.informerFor(MEMCACHED).addEventHandler({ onAdd: see, onUpdate: (_, o) => see(o) });
  const stopWatching = new AbortController();
  const watching = cache.start(stopWatching.signal);
  await cache.waitForCacheSync();
  const timeout = setTimeout(() => {
    console.error(`only ${done.size} of ${OBJECTS} converged in 10 minutes`);
    process.exit(1);
  }, 10 * 60_000);
  void converged.then(() => clearTimeout(timeout));
  // A plane just started is still busy with itself (the CRD's OpenAPI, its controllers' first
  // rounds) for some seconds, unevenly from one session to the next: the objects come once the
  // session is quiet, as they would in a session some minutes old.
  await settled(child.pid ?? 0);
  const requestsBefore = await apiRequests(env);
  const cpuBefore = treeCpuSeconds(child.pid ?? 0);
  const started = performance.now();
  // Created CREATE_CONCURRENCY at a time, as a person's `kubectl apply` of a directory would not
  // but a CI job or another controller would: the run then measures the operator working through
  // its queue, not the API server's answer time to one create after another.
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let i = next++; i < OBJECTS; i = next++)
        await client.create({
          apiVersion: 'cache.example.com/v1alpha1',
          kind: 'Memcached',
          metadata: { name: `m${i}`, namespace: 'default' },
          spec: { foo: 'bar' },
        });
    }),
  );
  const createdMs = performance.now() - started;
  client.close();
  await converged;
  const ms = performance.now() - started;
  const cpu = minus(treeCpuSeconds(child.pid ?? 0), cpuBefore);
  const requests = requestsBetween(requestsBefore, await apiRequests(env));
  stopWatching.abort();
  await watching;
  // The stream may trail: read on until it has been quiet for 2 s (at most 30 s).
  const quietSince = { at: Date.now(), events: stream?.events ?? 0 };
  while (stream && Date.now() - quietSince.at < 2000 && performance.now() - started - ms < 30_000) {
    await new Promise((r) => setTimeout(r, 200));
    if (stream.events !== quietSince.events) Object.assign(quietSince, { at: Date.now(), events: stream.events });
  }
  stream?.close();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
  children.delete(child);
  return {
    ms,
    cpu,
    lags: stream?.lags ?? [],
    events: stream?.events ?? 0,
    reconciles: new Set(stream?.ids ?? []).size,
    reconnects: stream?.reconnects ?? 0,
    requests,
    createdMs,
  };
}

try {
  mkdirSync(dir);
  tsop('init', '--domain', 'example.com', '--skip-install');
  // The project's tests import the harness from the tsop package: linked as an install gives it.
  linkNodeModules(dir);
  tsop(
    'create',
    'api',
    '--group',
    'cache',
    '--version',
    'v1alpha1',
    '--kind',
    'Memcached',
    '--resource',
    '--controller',
  );
  console.log(
    `overhead: ${OBJECTS} objects converging under tsop dev (load average ${loadavg()[0]?.toFixed(1)} at the start)`,
  );
  const off: number[] = [];
  const on: number[] = [];
  const cpuOff: number[] = [];
  const cpuOn: number[] = [];
  let lags: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternated, so a machine that gets busier during the run does not favour one mode.
    for (const mode of i % 2 === 0 ? [false, true] : [true, false]) {
      const r = await converge(mode);
      (mode ? on : off).push(r.ms);
      (mode ? cpuOn : cpuOff).push(total(r.cpu));
      if (mode) lags = lags.concat(r.lags);
      const read = ` (${r.events} stream events read, ${r.reconciles} distinct reconciles, ${r.reconnects} reconnects)`;
      console.log(
        `  console ${mode ? 'on ' : 'off'}: converged in ${seconds(r.ms)} (created in ${seconds(r.createdMs)}), ` +
          `CPU ${total(r.cpu).toFixed(1)} s (${byRole(r.cpu)})${mode ? read : ''}`,
      );
      console.log(`    API requests while converging: ${r.requests}`);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const slower = (median(on) / median(off) - 1) * 100;
  const sorted = [...lags].sort((a, b) => a - b);
  const cpuMore = (median(cpuOn) / median(cpuOff) - 1) * 100;
  console.log(
    `  CPU of tsop dev and its children (operator, etcd, kube-apiserver) while converging: median off ` +
      `${median(cpuOff).toFixed(1)} s, on ${median(cpuOn).toFixed(1)} s (${cpuMore >= 0 ? '+' : ''}${cpuMore.toFixed(1)} %)`,
  );
  console.log(
    `  median off ${seconds(median(off))}, on ${seconds(median(on))}: ` +
      `${slower >= 0 ? `${slower.toFixed(1)} % slower` : `${(-slower).toFixed(1)} % faster`} (target ≤ 10 %) ${slower <= 10 ? 'OK' : 'OVER'}`,
  );
  console.log(
    `  stream lag behind each reconcile's end: p50 ${pct(sorted, 0.5)} ms, p99 ${pct(sorted, 0.99)} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms over ${sorted.length} reconcile events`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

// ---- 2. pace at 200 reconciles/s --------------------------------------------------------------

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};
const store = new ConsoleStore();
const server = new ConsoleServer({ store, trigger: () => Promise.resolve('') });
const url = await server.listen();
const ticker = setInterval(() => store.tick(undefined), 1000);
const before = heap();
const stream = streamLag(url);
await new Promise((r) => setTimeout(r, 200));
let sent = 0;
const post = (body: string): Promise<void> =>
  new Promise((resolve) => {
    const req = request(
      `${url}/dev/spans`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.end(body);
  });
const started = Date.now();
const sends: Promise<void>[] = [];
while (Date.now() - started < RATE_SECONDS * 1000) {
  const batchStart = Date.now();
  const spans: object[] = [];
  const due = Math.round(((batchStart - started) / 1000) * RATE) - sent;
  for (let i = 0; i < due; i++, sent++) {
    const end = Date.now() - 5;
    const id = sent.toString(16).padStart(16, '0');
    const traceId = id.padStart(32, '0');
    const path = `/apis/cache.example.com/v1alpha1/namespaces/default/memcacheds/m${sent % 1000}`;
    for (const [j, verb] of ['GET', 'PUT', 'PUT'].entries())
      spans.push({
        traceId,
        spanId: `c${j}${sent.toString(16).padStart(14, '0')}`,
        parentSpanId: id,
        name: verb === 'GET' ? 'k8s.Get' : 'k8s.Update',
        startMs: end - 4 + j,
        endMs: end - 3 + j,
        attributes: { 'http.request.method': verb, 'url.path': path },
      });
    spans.push({
      traceId,
      spanId: id,
      name: 'Reconcile',
      startMs: end - 5,
      endMs: end,
      attributes: {
        controller: 'memcached',
        objectKey: `default/m${sent % 1000}`,
        reconcileID: `id-${sent}`,
        'tsop.trigger.reason': 'event',
        'tsop.trigger.watch': 'for',
        'tsop.trigger.kind': 'cache.example.com/v1alpha1/Memcached',
        'tsop.trigger.event': 'update',
        'tsop.trigger.folded': 0,
        'tsop.result': 'success',
      },
    });
  }
  // As the runtime's dev tracer sends them (runtime/tracing/dev-console.ts): a batch every 100 ms.
  if (spans.length > 0) sends.push(post(JSON.stringify({ spans })));
  await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - batchStart))));
}
await Promise.all(sends);
await new Promise((r) => setTimeout(r, 500));
stream.close();
clearInterval(ticker);
const after = heap();
await server.close();
const sorted = [...stream.lags].sort((a, b) => a - b);
const rate = sent / ((Date.now() - 500 - started) / 1000);
console.log(
  `pace: ${sent} reconciles (${rate.toFixed(0)}/s for ${RATE_SECONDS} s, 3 API calls each) through /dev/spans → store → SSE`,
);
console.log(
  `  lag: p50 ${pct(sorted, 0.5)} ms, p99 ${pct(sorted, 0.99)} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms over ${sorted.length} events ` +
    `(target: none over 1000 ms) ${(sorted.at(-1) ?? 0) <= 1000 ? 'OK' : 'OVER'}`,
);
console.log(
  `  history kept: ${store.snapshot().reconciles.length} reconciles (limit ${LIMITS.reconciles}); ` +
    `heap after GC ${mb(before)} before, ${mb(after)} after (+${mb(after - before)})`,
);
