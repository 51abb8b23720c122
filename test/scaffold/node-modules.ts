/**
 * A generated project's node_modules made of this checkout's packages, as tests that compile or
 * run a project without `npm install` need it: each package linked from tsop's node_modules, and
 * tsop itself linked to the checkout, since the project's tests import the harness from the
 * package (`tsop/testing`, `tsop/vitest`) as a real install gives it to them.
 */
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));

export function linkNodeModules(project: string): void {
  const dir = join(project, 'node_modules');
  mkdirSync(dir);
  for (const name of readdirSync(join(TSOP, 'node_modules'))) {
    if (name !== 'tsop') symlinkSync(join(TSOP, 'node_modules', name), join(dir, name), 'dir');
  }
  symlinkSync(TSOP, join(dir, 'tsop'), 'dir');
}
