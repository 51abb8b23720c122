// Writes test/setup/durations.json (seconds per test file, files of 5 s or more) from the output of
// a CI run (`CI=true bash .ci/run > log`): what test/setup/sequencer.ts orders a fresh clone's
// run by. Usage: node scripts/test-durations.mjs <log>
import { readFileSync, writeFileSync } from 'node:fs';

const log = readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const out = {};
for (const m of log.matchAll(/^ [✓❯×] {2}(\w+) {2}(\S+) \(.*\) (\d+)ms$/gm)) {
  const seconds = Math.round(Number(m[3]) / 1000);
  if (seconds >= 5) out[`${m[1]}:${m[2]}`] = seconds;
}
const sorted = Object.fromEntries(Object.entries(out).sort(([, a], [, b]) => b - a));
writeFileSync(new URL('../test/setup/durations.json', import.meta.url), `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${Object.keys(sorted).length} files`);
