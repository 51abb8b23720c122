#!/usr/bin/env node
// Hunts flaky tests: runs a chosen set of test files N times under CPU pressure and prints, per
// file, how many runs failed and which tests failed how.
//
//   node scripts/flake-hunt.mjs [options] [file or folder …] [-- extra vitest arguments]
//
//   --runs N           how many times to run the set (default 3)
//   --load K           background processes spinning on the CPU during each run (default: the
//                      number of cores, so every core is busy; 0 for none)
//   --duty F           fraction of each 100 ms a load process spins, 0 < F <= 1 (default 1)
//   --load-limit S     a load process exits by itself after S seconds even if this script is
//                      killed (default 3600)
//   --report FILE      also write the report as Markdown to FILE
//   --logs DIR         keep each run's vitest output as DIR/run-<i>.log (default: not kept)
//
// Without files it runs every integration and e2e file (`*.int.test.ts` under test/ and runtime/).
// Each run gets a fresh TMPDIR; anything the tests leave there, and any process still running with
// that TMPDIR in its command line (an etcd or kube-apiserver of a plane nobody stopped), is reported
// as a failure of the run and then removed. Exit status: 1 when any run failed, else 0.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

function usage(message) {
  console.error(
    `flake-hunt: ${message}; usage: node scripts/flake-hunt.mjs [--runs N] [--load K] [--duty F] [--load-limit S] [--report FILE] [files…] [-- vitest args]`,
  );
  process.exit(2);
}

function parseArgs(argv) {
  const options = {
    runs: 3,
    load: availableParallelism(),
    duty: 1,
    loadLimit: 3600,
    report: undefined,
    logs: undefined,
    files: [],
    vitestArgs: [],
  };
  const number = (flag, value, check) => {
    const n = Number(value);
    if (value === undefined || !check(n)) usage(`${flag} ${value ?? '(missing)'} is not valid`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.vitestArgs = argv.slice(i + 1);
      break;
    }
    if (arg === '--runs') options.runs = number(arg, argv[++i], (n) => Number.isInteger(n) && n > 0);
    else if (arg === '--load') options.load = number(arg, argv[++i], (n) => Number.isInteger(n) && n >= 0);
    else if (arg === '--duty') options.duty = number(arg, argv[++i], (n) => n > 0 && n <= 1);
    else if (arg === '--load-limit') options.loadLimit = number(arg, argv[++i], (n) => n > 0);
    else if (arg === '--report') options.report = argv[++i] ?? usage('--report needs a file');
    else if (arg === '--logs') options.logs = argv[++i] ?? usage('--logs needs a folder');
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else options.files.push(arg);
  }
  return options;
}

/** Every *.int.test.ts under test/ and runtime/, relative to the repository. */
function integrationFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.int.test.ts')) found.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, 'test'));
  walk(join(ROOT, 'runtime'));
  return found.sort();
}

// A load process: spins for `duty` of every 100 ms; exits after `limit` seconds or as soon as its
// parent is gone (the IPC channel closes), so no load outlives the hunt.
const LOAD_SCRIPT = `
const [duty, limit] = process.argv.slice(1).map(Number);
setTimeout(() => process.exit(0), limit * 1000).unref();
process.on('disconnect', () => process.exit(0));
const tick = () => { const end = Date.now() + 100 * duty; while (Date.now() < end); setTimeout(tick, 100 * (1 - duty)); };
tick();
`;

function startLoad(count, duty, limit) {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', LOAD_SCRIPT, String(duty), String(limit)], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    }),
  );
}

function stopLoad(load) {
  for (const child of load) child.kill('SIGKILL');
}

/** Processes whose command line mentions `dir`: what a run left running. */
function processesMentioning(dir) {
  const out = spawnSync('pgrep', ['-af', dir], { encoding: 'utf8' }).stdout ?? '';
  return out
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.includes('pgrep'))
    .map((line) => ({ pid: Number(line.split(' ')[0]), command: line.slice(line.indexOf(' ') + 1) }));
}

// The compile caches tsop keeps in the temp folder on purpose (as scripts/check-temp-leftovers.sh).
const KEPT_CACHES = new Set(['tsop-compile-cache', 'node-compile-cache', 'tsop-ts-hooks-cache']);

function runOnce(index, options, files) {
  const tmp = mkdtempSync(join(tmpdir(), 'tsop-flake-hunt-'));
  const reportFile = join(tmp, 'vitest-report.json');
  const runTmp = join(tmp, 'tmp');
  mkdirSync(runTmp);
  const load = startLoad(options.load, options.duty, options.loadLimit);
  const started = Date.now();
  const log = options.logs ? openSync(join(options.logs, `run-${index}.log`), 'w') : 'ignore';
  const vitest = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile}`,
      ...files,
      ...options.vitestArgs,
    ],
    { cwd: ROOT, env: { ...process.env, TMPDIR: runTmp }, stdio: ['ignore', log, log === 'ignore' ? 'inherit' : log] },
  );
  if (typeof log === 'number') closeSync(log);
  const seconds = (Date.now() - started) / 1000;
  stopLoad(load);

  const run = { index, seconds, exitCode: vitest.status, files: new Map(), fileSeconds: new Map(), problems: [] };
  let json;
  try {
    json = JSON.parse(readFileSync(reportFile, 'utf8'));
  } catch {
    run.problems.push(`vitest wrote no report (exit ${vitest.status}${vitest.signal ? `, ${vitest.signal}` : ''})`);
  }
  for (const result of json?.testResults ?? []) {
    const file = relative(ROOT, result.name);
    const failed = result.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => ({ name: t.fullName, message: firstLine(t.failureMessages?.[0]) }));
    // A file that failed outside any test (a hook, an import) has a message but no failed test.
    if (result.status === 'failed' && failed.length === 0)
      failed.push({ name: '(file)', message: firstLine(result.message) });
    run.files.set(file, failed);
    run.fileSeconds.set(file, (result.endTime - result.startTime) / 1000);
  }
  const left = processesMentioning(runTmp);
  for (const p of left) {
    run.problems.push(`left running: pid ${p.pid} ${p.command.slice(0, 160)}`);
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const leftovers = readdirSync(runTmp).filter((name) => !KEPT_CACHES.has(name));
  if (leftovers.length > 0) run.problems.push(`left in TMPDIR: ${leftovers.join(', ')}`);
  rmSync(tmp, { recursive: true, force: true });
  return run;
}

function firstLine(text) {
  return (
    (text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 240) ?? ''
  );
}

function report(options, files, runs) {
  const lines = [];
  const load =
    options.load === 0
      ? 'no background load'
      : `${options.load} load process${options.load === 1 ? '' : 'es'} at duty ${options.duty}`;
  lines.push(
    `# flake hunt: ${files.length || 'all'} file(s), ${runs.length} run(s), ${load}, ${availableParallelism()} core(s)`,
    '',
  );
  lines.push('| run | seconds | vitest exit | failed files | problems |', '|---|---|---|---|---|');
  for (const run of runs) {
    const failedFiles = [...run.files.values()].filter((f) => f.length > 0).length;
    lines.push(
      `| ${run.index} | ${run.seconds.toFixed(0)} | ${run.exitCode} | ${failedFiles} | ${run.problems.join('; ') || '-'} |`,
    );
  }
  const byFile = new Map();
  for (const run of runs) {
    for (const [file, failed] of run.files) {
      const entry = byFile.get(file) ?? { runs: 0, failedRuns: 0, failures: [] };
      entry.runs++;
      if (failed.length > 0) {
        entry.failedRuns++;
        for (const f of failed) entry.failures.push(`run ${run.index}: ${f.name}: ${f.message}`);
      }
      byFile.set(file, entry);
    }
  }
  const flaky = [...byFile].filter(([, e]) => e.failedRuns > 0);
  const mean = (file) => {
    const times = runs.map((r) => r.fileSeconds.get(file)).filter((t) => t !== undefined);
    return times.reduce((a, b) => a + b, 0) / times.length;
  };
  const slowest = [...byFile.keys()].sort((a, b) => mean(b) - mean(a)).slice(0, 15);
  lines.push('', 'Slowest files (mean seconds per run):', '');
  for (const file of slowest) lines.push(`- ${mean(file).toFixed(1)} s ${file}`);
  lines.push('', `${byFile.size} file(s) ran; ${flaky.length} failed at least once.`, '');
  for (const [file, e] of flaky.sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`- ${file}: failed ${e.failedRuns} of ${e.runs}`);
    for (const f of e.failures) lines.push(`  - ${f}`);
  }
  return lines.join('\n');
}

const options = parseArgs(process.argv.slice(2));
const files = options.files.length > 0 ? options.files : integrationFiles();
if (options.logs) mkdirSync(options.logs, { recursive: true });
const runs = [];
let stopping = false;
process.on('SIGINT', () => (stopping = true));
for (let i = 1; i <= options.runs && !stopping; i++) {
  console.error(`flake-hunt: run ${i} of ${options.runs}`);
  runs.push(runOnce(i, options, files));
}
const text = report(options, files, runs);
console.log(text);
if (options.report) writeFileSync(options.report, `${text}\n`);
const failed = runs.some(
  (r) => r.problems.length > 0 || [...r.files.values()].some((f) => f.length > 0) || r.exitCode !== 0,
);
process.exit(failed ? 1 : 0);
