/**
 * Draws the convergence chart of BENCHMARKS.md from bench/compare-runtime.ts's results: resources
 * converged over time, one line per operator and worker count (the run with the median time), and
 * the API server's ceiling. Plain SVG written by hand: no charting dependency.
 *
 *   node --import ./runtime/testing/register.mjs bench/chart.ts [results.json] [out.svg]
 *   (defaults: bench/results/runtime.json → bench/results/convergence.svg)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './measure.js';

interface Run {
  who: string;
  concurrency: number;
  resources: number;
  convergeSeconds: number;
  curve: number[];
}

const [input = join(ROOT, 'bench/results/runtime.json'), output = join(ROOT, 'bench/results/convergence.svg')] =
  process.argv.slice(2);
const data = JSON.parse(readFileSync(input, 'utf8')) as { results: Run[]; count: number; node: string; date: string };

// One representative run per series: the median by convergence time. The two operators and the
// plain ceiling only; the reference row with watches stays in the table.
const charted = data.results.filter((r) => /^(tsop|kubebuilder|API server ceiling)/.test(r.who));
const series = new Map<string, Run>();
for (const key of new Set(charted.map((r) => `${r.who}|${r.concurrency}`))) {
  const runs = charted
    .filter((r) => `${r.who}|${r.concurrency}` === key)
    .sort((a, b) => a.convergeSeconds - b.convergeSeconds);
  const mid = runs[Math.floor((runs.length - 1) / 2)];
  if (mid) series.set(key, mid);
}

const W = 760;
const H = 420;
const M = { left: 60, right: 20, top: 30, bottom: 110 };
const maxT = Math.max(...[...series.values()].map((r) => r.convergeSeconds)) * 1.05;
const maxN = data.count;
const x = (t: number) => M.left + (t / maxT) * (W - M.left - M.right);
const y = (n: number) => H - M.bottom - (n / maxN) * (H - M.top - M.bottom);
const COLORS: Record<string, string> = { tsop: '#1f77b4', kubebuilder: '#d62728', API: '#7f7f7f' };
const color = (who: string) => COLORS[who.split(' ')[0] ?? ''] ?? '#000';

const parts: string[] = [];
parts.push(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
);
parts.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
parts.push(
  `<text x="${W / 2}" y="18" text-anchor="middle" font-size="14">Memcacheds converged over time (${maxN} resources, median run)</text>`,
);
// Axes with ticks.
parts.push(
  `<line x1="${M.left}" y1="${y(0)}" x2="${W - M.right}" y2="${y(0)}" stroke="#000"/><line x1="${M.left}" y1="${y(0)}" x2="${M.left}" y2="${M.top}" stroke="#000"/>`,
);
const step = [1, 2, 5, 10, 20, 30, 60, 120].find((s) => maxT / s <= 10) ?? 300;
for (let t = 0; t <= maxT; t += step)
  parts.push(
    `<line x1="${x(t).toFixed(1)}" y1="${y(0)}" x2="${x(t).toFixed(1)}" y2="${y(0) + 4}" stroke="#000"/><text x="${x(t).toFixed(1)}" y="${y(0) + 16}" text-anchor="middle">${t}</text>`,
  );
for (let k = 0; k <= 4; k++) {
  const n = (maxN * k) / 4;
  parts.push(
    `<line x1="${M.left - 4}" y1="${y(n)}" x2="${W - M.right}" y2="${y(n)}" stroke="#eee"/><text x="${M.left - 6}" y="${y(n) + 4}" text-anchor="end">${n}</text>`,
  );
}
parts.push(
  `<text x="${(M.left + W - M.right) / 2}" y="${y(0) + 32}" text-anchor="middle">seconds since the operator started</text>`,
);
let legendY = y(0) + 50;
let legendX = M.left;
for (const [key, run] of [...series.entries()].sort()) {
  const [who, c] = key.split('|');
  const dash = c === '1' ? ' stroke-dasharray="6 3"' : '';
  const pts = [
    `${x(0).toFixed(1)},${y(0).toFixed(1)}`,
    ...run.curve.map((t, i) => `${x(t).toFixed(1)},${y(i + 1).toFixed(1)}`),
  ];
  parts.push(`<polyline fill="none" stroke="${color(who ?? '')}" stroke-width="2"${dash} points="${pts.join(' ')}"/>`);
  parts.push(
    `<line x1="${legendX}" y1="${legendY}" x2="${legendX + 24}" y2="${legendY}" stroke="${color(who ?? '')}" stroke-width="2"${dash}/>`,
  );
  parts.push(
    `<text x="${legendX + 30}" y="${legendY + 4}">${who}, ${c} worker${c === '1' ? '' : 's'}: ${run.convergeSeconds.toFixed(1)} s</text>`,
  );
  legendY += 16;
  if (legendY > H - 8) {
    legendY = y(0) + 50;
    legendX += (W - M.left) / 2;
  }
}
parts.push('</svg>');
writeFileSync(output, `${parts.join('\n')}\n`);
console.log(`wrote ${output} (${series.size} series)`);
