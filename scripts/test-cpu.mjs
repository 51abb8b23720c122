// Lists the test files that cost the most CPU in a run recorded with TSOP_TEST_CPU_LOG
// (test/setup/cpu-record.ts), with each project's total: `node scripts/test-cpu.mjs <log> [count]`.
import { readFileSync } from 'node:fs';

const [log, count = '15'] = process.argv.slice(2);
if (!log) {
  console.error('usage: node scripts/test-cpu.mjs <TSOP_TEST_CPU_LOG file> [count]');
  process.exit(2);
}
const rows = readFileSync(log, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const totals = new Map();
for (const { project, cpuS, wallS, startS, endS } of rows) {
  const t = totals.get(project) ?? { files: 0, cpuS: 0, wallS: 0, first: Infinity, last: -Infinity, timed: true };
  totals.set(project, {
    files: t.files + 1,
    cpuS: t.cpuS + cpuS,
    wallS: t.wallS + wallS,
    first: Math.min(t.first, startS ?? Infinity),
    last: Math.max(t.last, endS ?? -Infinity),
    // Older logs have no start and end: a project with a file without them has no known span.
    timed: t.timed && startS !== undefined && endS !== undefined,
  });
}
const fmt = (n) => n.toFixed(0).padStart(6);
console.log('test CPU by project (CPU s and wall s summed over files; span s from its first start to its last end):');
for (const [project, t] of totals) {
  const span = t.timed ? fmt(t.last - t.first) : '     ?';
  console.log(`${fmt(t.cpuS)} ${fmt(t.wallS)} ${span}  ${project} (${t.files} files)`);
}
const last = rows
  .filter((r) => r.endS !== undefined)
  .sort((a, b) => b.endS - a.endS)
  .slice(0, 3);
if (last.length) console.log(`last to end: ${last.map((r) => `${r.project}:${r.file} (${r.wallS} s)`).join(', ')}`);
console.log(`the ${count} files that cost the most CPU (CPU s, wall s):`);
for (const r of rows.sort((a, b) => b.cpuS - a.cpuS).slice(0, Number(count)))
  console.log(`${fmt(r.cpuS)} ${fmt(r.wallS)}  ${r.project}:${r.file}`);
