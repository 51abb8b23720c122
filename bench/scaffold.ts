/**
 * Wall time of what a user types first, through the built CLI (`node bin/tsop.js`, so process
 * start-up counts): `tsop init --skip-install` then `tsop create api` in a fresh directory.
 * Reported twice: with `--make=false`, and with the default `--make` (which also runs
 * `tsop manifests`, loading ts-morph). Prints each run and the median of 5, as wall time and as
 * CPU time of the two processes (wall time on a shared two-core machine mostly measures the
 * neighbours). Target: < 1 s wall. `create api --make` loads ts-morph on a worker thread while
 * the scaffold is written (codegen/reader/background.ts), so the two cores matter here.
 *
 *   npm run bench:scaffold
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/tsop.js', import.meta.url));
const runs = Number(process.env['RUNS'] ?? 5);
const tsop = (cwd: string, ...args: string[]) => execFileSync(process.execPath, [bin, ...args], { cwd, stdio: 'pipe' });
/** CPU ms used by finished child processes (Linux /proc: cutime + cstime), to see past machine load. */
const childCpuMs = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) * 10;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// Node parses NODE_EXTRA_CA_CERTS at start-up, before any of tsop runs: about 50–90 ms per process here.
const caNote = process.env['NODE_EXTRA_CA_CERTS']
  ? 'NODE_EXTRA_CA_CERTS is set (parsed by every Node process at start)'
  : 'NODE_EXTRA_CA_CERTS unset';
console.log(
  `Node ${process.version}; ${caNote}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

for (const make of ['false', 'true']) {
  const totals: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const root = mkdtempSync(join(tmpdir(), 'tsop-bench-'));
    const dir = join(root, 'bench-operator');
    mkdirSync(dir);
    const c0 = childCpuMs();
    const t0 = performance.now();
    tsop(dir, 'init', '--domain', 'example.com', '--skip-install');
    const t1 = performance.now();
    tsop(dir, 'create', 'api', '--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached', `--make=${make}`);
    const t2 = performance.now();
    const cpu = childCpuMs() - c0;
    cpus.push(cpu);
    rmSync(root, { recursive: true, force: true });
    totals.push(t2 - t0);
    console.log(
      `--make=${make} run ${i + 1}: init ${(t1 - t0).toFixed(0)} ms, create api ${(t2 - t1).toFixed(0)} ms, total ${(t2 - t0).toFixed(0)} ms wall, ${cpu} ms CPU`,
    );
  }
  console.log(
    `--make=${make}: median of ${runs} (init + create api): ${median(totals).toFixed(0)} ms wall, ${median(cpus)} ms CPU`,
  );
}
