/**
 * The linked node_modules of test projects (node-modules.ts) never lets the project's npm reach
 * into the checkout: every directory npm may prune or rewrite (a scope, .bin) is the project's own,
 * and only packages are links.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { linkNodeModules } from './node-modules.js';

const work = mkdtempSync(join(tmpdir(), 'tsop-node-modules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('links each package, inside scope and .bin directories of the project', () => {
  const from = join(work, 'checkout-node_modules');
  for (const pkg of ['yaml', '@types/node', '@types/semver', '@ts-morph/common']) {
    mkdirSync(join(from, pkg), { recursive: true });
    writeFileSync(join(from, pkg, 'package.json'), '{}');
  }
  mkdirSync(join(from, '.bin'));
  symlinkSync('../yaml/bin.mjs', join(from, '.bin', 'yaml'));
  writeFileSync(join(from, '.package-lock.json'), '{}');
  const project = join(work, 'project');
  mkdirSync(project);

  linkNodeModules(project, from);

  const nm = join(project, 'node_modules');
  for (const scope of ['@types', '@ts-morph', '.bin'])
    expect(lstatSync(join(nm, scope)).isSymbolicLink(), scope).toBe(false);
  expect(readdirSync(join(nm, '@types')).sort()).toEqual(['node', 'semver']);
  expect(realpathSync(join(nm, '@ts-morph/common'))).toBe(realpathSync(join(from, '@ts-morph/common')));
  expect(lstatSync(join(nm, '.bin/yaml')).isSymbolicLink()).toBe(true);
  expect(realpathSync(join(nm, 'yaml'))).toBe(realpathSync(join(from, 'yaml')));
  // npm's record of the checkout's own tree stays the checkout's.
  expect(readdirSync(nm)).not.toContain('.package-lock.json');
  expect(lstatSync(join(nm, 'tsop')).isSymbolicLink()).toBe(true);
});
