/**
 * What bin/tsop.js starts: the CLI, from one CommonJS bundle (dist/bundle/cli.cjs, written by
 * scripts/bundle.mjs) whose compiled code V8 keeps between runs (src/code-cache.ts), one cache per
 * command, each holding the code that command ran. Loading the CLI as ES modules compiled ~500 KB
 * on every run on Node 20 (no compile cache for ES modules there) and resolved and linked some
 * 25 modules on every Node; from the cache, a run compiles almost nothing. The command modules
 * are still evaluated only when their command runs (the bundle keeps each `import()` lazy).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cacheCompiledCode, prepareCodeCaches } from '../code-cache.js';

type Cli = typeof import('./main.js');

/** The bundle, next to this file once built. */
const BUNDLE = fileURLToPath(new URL('./cli.cjs', import.meta.url));

/** The cache a run uses: its command (`tsop create api` → create), else `cli` (help, version, a typo). */
export function commandTag(argv: readonly string[]): string {
  const command = argv[2];
  return command !== undefined && /^[a-z][a-z0-9-]{0,31}$/.test(command) ? command : 'cli';
}

export function loadCli(argv: readonly string[] = process.argv): Cli {
  prepareCodeCaches();
  cacheCompiledCode([{ file: BUNDLE, tag: commandTag(argv) }]);
  const cli = createRequire(import.meta.url)(BUNDLE) as Cli;
  cli.useImporter((specifier) => import(specifier));
  return cli;
}
