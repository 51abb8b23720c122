/**
 * A generated project's node_modules made of this checkout's packages, as tests that compile or
 * run a project without `npm install` need it: each package linked from tsop's node_modules, and
 * tsop itself linked to the checkout, since the project's tests import the harness from the
 * package (`tsop/testing`, `tsop/vitest`) as a real install gives it to them.
 *
 * A scope (`@types`, `@ts-morph`) is a directory of the project's own holding one link per
 * package, never a link to the checkout's scope: an `npm install` in the project (alpha update
 * runs one) prunes the packages its lock file lacks, and through a linked scope it deleted the
 * checkout's own (`@ts-morph/common`), breaking every test that ran the CLI meanwhile. `.bin` is
 * the project's own directory of links for the same reason.
 */
import { lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));

export function linkNodeModules(project: string, from: string = join(TSOP, 'node_modules')): void {
  const dir = join(project, 'node_modules');
  mkdirSync(dir);
  for (const name of readdirSync(from)) {
    if (name === 'tsop' || name === '.bin' || name.startsWith('.')) continue;
    if (!name.startsWith('@')) {
      symlinkSync(join(from, name), join(dir, name), 'dir');
      continue;
    }
    mkdirSync(join(dir, name));
    for (const pkg of readdirSync(join(from, name))) symlinkSync(join(from, name, pkg), join(dir, name, pkg), 'dir');
  }
  // .bin likewise: the checkout's links point at ../<package>/…, which resolve the same from here.
  mkdirSync(join(dir, '.bin'));
  for (const bin of readdirSync(join(from, '.bin'))) {
    const own = join(from, '.bin', bin);
    symlinkSync(lstatSync(own).isSymbolicLink() ? readlinkSync(own) : own, join(dir, '.bin', bin));
  }
  symlinkSync(TSOP, join(dir, 'tsop'), 'dir');
}
