/** The tsop version, read once from package.json (also stamped into generated runtimes). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };

export const TSOP_VERSION: string = pkg.version;

/** Where this tsop is installed: its package root directory. */
export const TSOP_ROOT: string = fileURLToPath(root).replace(/\/$/, '');

/**
 * How a generated project names tsop in its devDependencies. TSOP_DEPENDENCY wins; a tsop
 * installed from a registry (it sits in a node_modules folder) is named by version; a tsop run
 * from a checkout is named by path, so `npm install` in the new project installs this very tsop.
 */
export function tsopDependencySpec(env: NodeJS.ProcessEnv = process.env, tsopRoot: string = TSOP_ROOT): string {
  if (env['TSOP_DEPENDENCY']) return env['TSOP_DEPENDENCY'];
  return tsopRoot.split('/').includes('node_modules') ? `^${TSOP_VERSION}` : `file:${tsopRoot}`;
}
