/**
 * vitest globalSetup of the projects whose tests run the built CLI (bin/tsop.js → dist/): builds
 * dist/ once, before any test file starts, when it is missing or older than its sources. Test files
 * never build it themselves: a build rewrites dist/ in place, and a test of another worker starting
 * the CLI meanwhile would load half-written files (a `tsop manifests` that exits 1 for no reason).
 * `npm test` builds before vitest, so there this finds dist/ current and does nothing.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm run build` reads, and what it writes (the outputs the CLI loads). */
const SOURCES = [
  'src',
  'templates',
  'scripts/bundle.mjs',
  'scripts/bundle-prune.mjs',
  'scripts/precompile-templates.mjs',
  'tsconfig.build.json',
  'package.json',
];
const OUTPUTS = [
  'dist/src/cli/main.js',
  'dist/bundle/launch.js',
  'dist/bundle/cli.cjs',
  'dist/bundle/templates.precompiled.cjs',
];

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function oldestOutput(): number | undefined {
  try {
    return Math.min(...OUTPUTS.map((o) => statSync(join(TSOP, o)).mtimeMs));
  } catch {
    return undefined; // an output is missing
  }
}

export function cliIsCurrent(): boolean {
  const built = oldestOutput();
  return built !== undefined && SOURCES.every((s) => newestMtime(join(TSOP, s)) <= built);
}

export default function setup(): void {
  if (cliIsCurrent()) return;
  console.log('building the CLI (dist/ is missing or older than its sources): npm run build');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: TSOP, stdio: ['ignore', 'inherit', 'inherit'] });
}
