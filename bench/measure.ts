/**
 * Shared helpers of the side-by-side benchmarks: run a command under GNU time (wall, CPU of the
 * process and everything it waited for, peak RSS of the largest of them), medians, pairwise
 * ratios, load average, and where the Go anchors are (bench/anchors.sh builds them when absent).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Sample {
  wallMs: number;
  cpuMs: number;
  peakRssMiB: number;
}

/** Runs one command to completion under /usr/bin/time; throws with its output when it fails. */
export function measure(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Sample {
  if (!existsSync('/usr/bin/time'))
    throw new Error('GNU time (/usr/bin/time) is needed for CPU and peak RSS: apt-get install time');
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '@@ %U %S %M', cmd, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const wallMs = performance.now() - t0;
  const m = /@@ ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m)
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return { wallMs, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, peakRssMiB: Number(m[3]) / 1024 };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** The directory holding kubebuilder and controller-gen, built by bench/anchors.sh when missing. */
export function anchorsBin(): string {
  return execFileSync('bash', [`${ROOT}bench/anchors.sh`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/**
 * Copies the built CLI (what `npm pack` ships: package.json "files") into dir, with node_modules
 * linked, and returns its bin/tsop.js: a rebuild of this checkout's dist/ during a long run
 * (other work in the same tree) then cannot swap half the modules under the benchmark.
 */
export function snapshotCli(dir = mkdtempSync(join(tmpdir(), 'tsop-bench-cli-'))): string {
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run npm run build first');
  for (const entry of [
    'package.json',
    'bin',
    'dist',
    'runtime',
    'templates',
    'scripts/control-plane.sh',
    'src/codegen/core/core-schemas.json',
  ]) {
    mkdirSync(dirname(join(dir, entry)), { recursive: true });
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'bin/tsop.js');
}

export interface PairResult {
  tsop: Sample[];
  anchor: Sample[];
}

/**
 * Runs a pair RUNS times, alternating which goes first (tsop first on even runs), so drift in
 * the machine's load hits both alike. `before` prepares a fresh state before each single run.
 */
export function alternate(runs: number, tsop: () => Sample, anchor: () => Sample): PairResult {
  const out: PairResult = { tsop: [], anchor: [] };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      out.tsop.push(tsop());
      out.anchor.push(anchor());
    } else {
      out.anchor.push(anchor());
      out.tsop.push(tsop());
    }
  }
  return out;
}

/** Medians of each side and the median of the pairwise ratios tsop/anchor. */
export function summarize(
  p: PairResult,
): Record<'wall' | 'cpu' | 'rss', { tsop: number; anchor: number; ratio: number }> {
  const pick = (k: keyof Sample) => ({
    tsop: median(p.tsop.map((s) => s[k])),
    anchor: median(p.anchor.map((s) => s[k])),
    ratio: median(p.tsop.map((s, i) => s[k] / (p.anchor[i]?.[k] ?? NaN))),
  });
  return { wall: pick('wallMs'), cpu: pick('cpuMs'), rss: pick('peakRssMiB') };
}

/** One table row: medians in seconds / MiB and the pairwise ratio. */
export function row(name: string, p: PairResult): string {
  const s = summarize(p);
  const sec = (ms: number) => (ms / 1000).toFixed(3);
  return (
    `| ${name} | ${sec(s.wall.tsop)} s | ${sec(s.wall.anchor)} s | ` +
    `**${s.wall.ratio.toFixed(2)}** | ${sec(s.cpu.tsop)} s | ${sec(s.cpu.anchor)} s | ` +
    `${s.cpu.ratio.toFixed(2)} | ${s.rss.tsop.toFixed(0)} MiB | ${s.rss.anchor.toFixed(0)} MiB ` +
    `| **${s.rss.ratio.toFixed(2)}** |`
  );
}

export const TABLE_HEAD =
  '| step | tsop wall | Go wall | wall ratio | tsop CPU | Go CPU | CPU ratio | tsop peak RSS | Go peak RSS | RSS ratio |\n|---|---|---|---|---|---|---|---|---|---|';
