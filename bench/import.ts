/**
 * `tsop import crd` of the largest CRD of the import corpus (test/import/corpus.txt), as a user
 * runs it: the built CLI in a fresh process, into a freshly initialised project, with
 * `--make=false` (the import and its round trip through tsop's reader and generator, without the
 * separate `tsop manifests` run). Prints each run and the median of RUNS (default 5), then where
 * the time goes in one in-process import. Target: < 2 s.
 *
 *   node --import ./runtime/testing/register.mjs bench/import.ts
 *
 * The corpus comes from the Go module cache (scripts/import-corpus.sh downloads it); dist/ must
 * be built (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CoreTypeMatcher } from '../src/import/core-types.js';
import { readCrds } from '../src/import/documents.js';
import { importCrd } from '../src/import/import-crd.js';
import { corpusEntries, moduleDir } from '../test/import/corpus-cache.js';
import { load, measure, median, ROOT } from './measure.js';

const RUNS = Number(process.env['RUNS'] ?? 5);
const cache = execFileSync('bash', [join(ROOT, 'scripts/import-corpus.sh')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
})
  .trim()
  .split('\n')
  .pop()!;

// The largest file of the corpus.
let largest = { path: '', bytes: 0 };
for (const e of corpusEntries()) {
  const dir = join(moduleDir(cache, e.module), dirname(e.pattern));
  const name = new RegExp(
    `^${e.pattern
      .split('/')
      .pop()!
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')}$`,
  );
  for (const f of readdirSync(dir).filter((n) => name.test(n))) {
    const bytes = statSync(join(dir, f)).size;
    if (bytes > largest.bytes) largest = { path: join(dir, f), bytes };
  }
}
console.log(`largest corpus CRD: ${largest.path} (${(largest.bytes / 1024).toFixed(0)} KiB); load ${load()}`);

const cli = join(ROOT, 'bin/tsop.js');
const root = mkdtempSync(join(tmpdir(), 'tsop-bench-import-'));
try {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const project = join(root, `p${i}`);
    execFileSync(process.execPath, [cli, 'init', '--dir', project, '--domain', 'coreos.com', '--skip-install'], {
      stdio: 'pipe',
    });
    const s = measure(process.execPath, [cli, 'import', 'crd', largest.path, '--make=false'], project);
    if (i === 0) {
      console.log(`warm-up: ${(s.wallMs / 1000).toFixed(3)} s wall`);
      continue;
    }
    walls.push(s.wallMs);
    cpus.push(s.cpuMs);
    console.log(
      `run ${i}: ${(s.wallMs / 1000).toFixed(3)} s wall, ${(s.cpuMs / 1000).toFixed(2)} s CPU, ${s.peakRssMiB.toFixed(0)} MiB peak RSS`,
    );
  }
  console.log(
    `tsop import crd (whole process): median ${(median(walls) / 1000).toFixed(3)} s wall, ${(median(cpus) / 1000).toFixed(2)} s CPU over ${RUNS} runs (target < 2 s)`,
  );

  // In process: the import itself, cold (first core-type lookups, first parse) and warm.
  const { crds } = readCrds([{ name: largest.path, text: readFileSync(largest.path, 'utf8') }]);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const k = importCrd(crds[0]!, {
      mode: 'own',
      typesPath: (crd, v) => `src/api/${v}/${crd.spec.names.kind.toLowerCase()}.ts`,
      header: '',
      manifestOptions: {},
      matcher: new CoreTypeMatcher({}),
    });
    times.push(performance.now() - t0);
    if (k.roundTrip?.unexplained.length || k.roundTrip?.errors.length)
      throw new Error('the round trip of the benchmark CRD failed');
  }
  console.log(`importCrd in process: ${times.map((t) => `${(t / 1000).toFixed(3)} s`).join(', ')} (first is cold)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
