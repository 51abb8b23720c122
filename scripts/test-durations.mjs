// Writes test/setup/durations.json from vitest's record of the last run on this machine
// (node_modules/.vite/vitest/<hash>/results.json), for test/setup/longest-first.ts. Run it after a
// whole `npm test` that passed, on a machine like CI's, and commit the result.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cacheDir = 'node_modules/.vite/vitest';
const target = 'test/setup/durations.json';
// Unit files take under a few seconds each and their order does not matter.
const SHORTEST_KEPT_S = 3;

const seconds = {};
for (const hash of readdirSync(cacheDir)) {
  const { results } = JSON.parse(readFileSync(join(cacheDir, hash, 'results.json'), 'utf8'));
  for (const [key, { duration, failed }] of results) {
    if (failed || key.startsWith('unit:') || duration < SHORTEST_KEPT_S * 1000) continue;
    seconds[key] = Math.round(duration / 1000);
  }
}
const previous = JSON.parse(readFileSync(target, 'utf8'));
const sorted = Object.fromEntries(Object.entries(seconds).sort(([, a], [, b]) => b - a));
writeFileSync(target, `${JSON.stringify({ about: previous.about, seconds: sorted }, null, 2)}\n`);
console.log(`${target}: ${Object.keys(sorted).length} files`);
