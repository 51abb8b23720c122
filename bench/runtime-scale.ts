/**
 * Benchmark: the informer cache at scale, tsop beside controller-runtime, on one fresh etcd +
 * kube-apiserver. For each size (COUNTS, default 1000,10000,100000) ConfigMaps of SIZE bytes of
 * data (default 1024) are created in a namespace of their own; then each cache — tsop whole,
 * tsop metadata-only, controller-runtime whole, controller-runtime metadata-only — runs in a
 * child process that lists, watches and syncs them, and reports its time to sync and its memory
 * after a GC. Prints one line per cache and size: sync seconds, RSS, and bytes per cached object
 * above the same program's RSS with no object (the first size's namespace is measured empty too).
 *
 *   node --import ./runtime/testing/register.mjs bench/runtime-scale.ts
 *   (COUNTS=1000,10000,100000 SIZE=1024 RUNS=1; the Go program is built with the Go toolchain
 *   from the module proxy into ~/.cache/tsop-bench/cache-scale, once)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../runtime/envtest/index.js';
import { compileChild } from './compile-child.js';
import { pool, rawClient } from './kube-raw.js';

const counts = (process.env['COUNTS'] ?? '1000,10000,100000').split(',').map(Number);
const size = Number(process.env['SIZE'] ?? 1024);
const runs = Number(process.env['RUNS'] ?? 1);

interface Report {
  syncSeconds: number;
  objects: number;
  rssMiB: number;
  peakRssMiB: number;
}

function goBinary(): string {
  const dir = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'tsop-bench', 'cache-scale');
  const bin = join(dir, 'cache-scale');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    console.log('building the controller-runtime cache program (bench/go/cache-scale), once');
    execFileSync('go', ['build', '-mod=mod', '-o', bin, '.'], {
      cwd: fileURLToPath(new URL('./go/cache-scale/', import.meta.url)),
      stdio: 'inherit',
    });
  }
  return bin;
}

function runChild(cmd: string, args: string[], env: Record<string, string>): Promise<Report> {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line) resolve(JSON.parse(line) as Report);
      else reject(new Error(`${cmd} exited with ${code}: ${out}`));
    });
  });
}

const go = goBinary();
const child = compileChild(fileURLToPath(new URL('./runtime-scale-cache.ts', import.meta.url)));
const caches = [
  { name: 'tsop', metadataOnly: false },
  { name: 'tsop metadata-only', metadataOnly: true },
  { name: 'controller-runtime', metadataOnly: false },
  { name: 'controller-runtime metadata-only', metadataOnly: true },
];
const cp = await startControlPlane({});
try {
  const raw = await rawClient(cp);
  const measure = (name: string, metadataOnly: boolean, namespace: string): Promise<Report> => {
    const env = { KUBECONFIG_PATH: cp.kubeconfigPath, NAMESPACE: namespace, METADATA_ONLY: metadataOnly ? '1' : '0' };
    return name.startsWith('tsop')
      ? runChild(process.execPath, ['--expose-gc', child.file], env)
      : runChild(go, [], env);
  };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // The same programs with nothing to cache: what a cached object adds is measured above this.
  await raw.json('POST', '/api/v1/namespaces', { metadata: { name: 'scale-empty' } });
  const empty = new Map<string, number>();
  for (const c of caches) empty.set(c.name, (await measure(c.name, c.metadataOnly, 'scale-empty')).rssMiB);
  let created = 0;
  const namespace = 'scale';
  await raw.json('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
  const data = 'x'.repeat(size);
  for (const count of counts) {
    const t = performance.now();
    await pool(count - created, 64, async (i) => {
      const name = `cm-${created + i}`;
      await raw.json('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
        metadata: { name, namespace, labels: { app: 'scale', index: String(created + i) } },
        data: { payload: data },
      });
    });
    console.log(`${count} ConfigMaps of ${size} bytes (${((performance.now() - t) / 1000).toFixed(1)} s to create)`);
    created = count;
    for (const c of caches) {
      const reports: Report[] = [];
      for (let r = 0; r < runs; r++) reports.push(await measure(c.name, c.metadataOnly, namespace));
      const rss = median(reports.map((r) => r.rssMiB));
      const sync = median(reports.map((r) => r.syncSeconds));
      const perObject = ((rss - empty.get(c.name)!) * 1024 * 1024) / count;
      console.log(
        `  ${c.name.padEnd(34)} sync ${sync.toFixed(2)} s, RSS ${rss.toFixed(0)} MiB ` +
          `(peak ${median(reports.map((r) => r.peakRssMiB)).toFixed(0)} MiB), ${perObject.toFixed(0)} bytes per object ` +
          `(${reports[0]!.objects} cached)`,
      );
    }
  }
  raw.close();
} finally {
  await cp.stop();
  rmSync(child.dir, { recursive: true, force: true });
}
