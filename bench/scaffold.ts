/**
 * Wall time of what a user types first, through the built CLI (`node bin/tsop.js`, so process
 * start-up counts): `tsop init --skip-install` then `tsop create api` in a fresh directory.
 * Reported twice: with `--make=false`, and with the default `--make` (which also runs
 * `tsop manifests`, loading ts-morph). Prints each run and the median of 5. Target: < 1 s.
 *
 *   npx tsc -p tsconfig.build.json && node --import ./runtime/testing/register.mjs bench/scaffold.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/tsop.js', import.meta.url));
const runs = Number(process.env['RUNS'] ?? 5);
const tsop = (cwd: string, ...args: string[]) => execFileSync(process.execPath, [bin, ...args], { cwd, stdio: 'pipe' });
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

for (const make of ['false', 'true']) {
  const totals: number[] = [];
  for (let i = 0; i < runs; i++) {
    const root = mkdtempSync(join(tmpdir(), 'tsop-bench-'));
    const dir = join(root, 'bench-operator');
    mkdirSync(dir);
    const t0 = performance.now();
    tsop(dir, 'init', '--domain', 'example.com', '--skip-install');
    const t1 = performance.now();
    tsop(dir, 'create', 'api', '--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached', `--make=${make}`);
    const t2 = performance.now();
    rmSync(root, { recursive: true, force: true });
    totals.push(t2 - t0);
    console.log(`--make=${make} run ${i + 1}: init ${(t1 - t0).toFixed(0)} ms, create api ${(t2 - t1).toFixed(0)} ms, total ${(t2 - t0).toFixed(0)} ms`);
  }
  console.log(`--make=${make}: median of ${runs} (init + create api): ${median(totals).toFixed(0)} ms`);
}
