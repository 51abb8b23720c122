/**
 * `tsop manifests` on a ten-kind project (one embedding a pod template), as a user runs it: the
 * built CLI (`node bin/tsop.js manifests`) in a fresh process each time, so loading the CLI and
 * the TypeScript compiler is counted. Prints each run and the median of 5. Target: < 1 s.
 *
 *   node --import ./runtime/testing/register.mjs bench/manifests.ts
 *
 * It first builds the CLI as `npm run build` does (tsc, the precompiled templates, the bundle that
 * bin/tsop.js runs) unless SKIP_BUILD=1; then also reports where the time goes inside one
 * in-process run.
 *
 * BASELINE=/path/to/another/built/checkout runs that checkout's CLI on the same project in
 * alternation with this one (baseline, this, baseline, …), so a before/after comparison shares
 * one machine load rather than two moments of it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus as cpuList, loadavg } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchProject } from './manifests-project.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

if (process.env.SKIP_BUILD !== '1') {
  const t = performance.now();
  // npm run build's steps one by one: type errors elsewhere do not stop tsc from emitting, and
  // the bundle is built from the sources, so a half-finished change is still timed as it is.
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')],
    { stdio: 'pipe' },
  );
  for (const step of ['scripts/precompile-templates.mjs', 'scripts/bundle.mjs']) {
    const run = spawnSync(process.execPath, [join(ROOT, step)], { stdio: 'pipe', encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${step} failed:\n${run.stderr}`);
  }
  console.log(`build: ${((performance.now() - t) / 1000).toFixed(1)} s (tsc exit ${tsc.status})`);
}

const dir = await mkdtemp(join(tmpdir(), 'tsop-bench-manifests-'));
try {
  await writeBenchProject(dir);
  const cli = join(ROOT, 'bin/tsop.js');
  execFileSync(process.execPath, [cli, 'manifests', '--dir', dir], { stdio: 'pipe' }); // warm the file cache
  // GNU time, when present, adds the child's CPU time: on a shared machine wall time mostly
  // measures the queue for a core, CPU time what tsop itself costs.
  const gnuTime = existsSync('/usr/bin/time');
  const subjects = [
    ...(process.env.BASELINE ? [{ label: 'baseline', cli: join(process.env.BASELINE, 'bin/tsop.js') }] : []),
    { label: process.env.BASELINE ? 'this' : '', cli },
  ];
  const results = subjects.map(() => ({ walls: [] as number[], cpus: [] as number[], rss: [] as number[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, subject] of subjects.entries()) {
      await rm(join(dir, 'config'), { recursive: true, force: true });
      const t0 = performance.now();
      const args = [process.execPath, subject.cli, 'manifests', '--dir', dir];
      const child = gnuTime
        ? spawnSync('/usr/bin/time', ['-f', 'CPU %U %S %M', ...args], { encoding: 'utf8' })
        : spawnSync(args[0] as string, args.slice(1), { encoding: 'utf8' });
      const ms = performance.now() - t0;
      if (child.status !== 0) throw new Error(`tsop manifests failed:\n${child.stderr}`);
      const cpu = /CPU ([\d.]+) ([\d.]+) (\d+)/.exec(child.stderr);
      const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN;
      const rssMb = cpu ? Number(cpu[3]) / 1024 : NaN;
      const r = results[k]!;
      r.walls.push(ms);
      r.cpus.push(cpuMs);
      r.rss.push(rssMb);
      console.log(
        `run ${i + 1}${subject.label ? ` ${subject.label}` : ''}: ${(ms / 1000).toFixed(3)} s wall, ${(cpuMs / 1000).toFixed(2)} s CPU, ${rssMb.toFixed(0)} MB max RSS`,
      );
    }
  }
  for (const [k, subject] of subjects.entries()) {
    const r = results[k]!;
    console.log(
      `median of ${RUNS}${subject.label ? ` (${subject.label})` : ''}: ` +
        `${(median(r.walls) / 1000).toFixed(3)} s wall (target < 1 s), ` +
        `${(median(r.cpus) / 1000).toFixed(2)} s CPU, ${median(r.rss).toFixed(0)} MB max RSS`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpuList().length} cores`,
  );

  // Where the time goes, in this process (modules already compiled by the loader).
  const t0 = performance.now();
  const { loadSources } = await import('../src/codegen/reader/sources.js');
  const { readApiModel } = await import('../src/codegen/reader/index.js');
  const { generateManifests } = await import('../src/manifests/generate.js');
  const t1 = performance.now();
  const sources = await loadSources(dir);
  const t2 = performance.now();
  const model = readApiModel(sources);
  const t3 = performance.now();
  const result = generateManifests(model, { tsopVersion: 'bench' });
  const t4 = performance.now();
  const bytes = Object.values(result.files).reduce((n, f) => n + f.length, 0);
  console.log(
    `in-process: load modules ${(t1 - t0).toFixed(0)} ms, read files ${(t2 - t1).toFixed(0)} ms, parse+model ${(t3 - t2).toFixed(0)} ms, ` +
      `generate ${(t4 - t3).toFixed(0)} ms → ${Object.keys(result.files).length} files, ${(bytes / 1024).toFixed(0)} KiB, ${result.errors.length} errors`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
