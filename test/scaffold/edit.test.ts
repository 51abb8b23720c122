/**
 * `tsop edit`: each setting changes PROJECT and the files that depend on it, and nothing else;
 * PROJECT after a whole command sequence is checked against a golden file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { captured, expectGolden, readTree, tempProject } from './harness.js';

async function project(name: string): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', owner: 'First Owner', skipInstall: true }, captured());
  await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
  return dir;
}

const changed = (before: Record<string, string>, after: Record<string, string>): string[] =>
  Object.keys(after).filter((p) => before[p] !== after[p]).sort();

// Each case writes a whole project (about 140 files); allow for a loaded machine.
describe('tsop edit', { timeout: 30_000 }, () => {
  it('--namespaced switches the manager to one namespace with a RoleBinding, and says what to do with controllers', async () => {
    const dir = await project('ns');
    const before = readTree(dir);
    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    const after = readTree(dir);
    expect(changed(before, after)).toEqual(['PROJECT', 'config/manager/manager.yaml', 'config/rbac/role_binding.yaml']);
    expect(after['PROJECT']).toContain('namespaced: true');
    expect(after['config/manager/manager.yaml']).toContain('- name: WATCH_NAMESPACE\n          valueFrom:\n            fieldRef:\n              fieldPath: metadata.namespace');
    expect(after['config/rbac/role_binding.yaml']).toContain('kind: RoleBinding');
    expect(io.stderr).toContain("note: add namespace: 'ns-system' to the @Rbac decorators of existing controllers, then run 'npm run manifests'");
    await runEdit({ dir, namespaced: false }, captured());
    const back = readTree(dir);
    expect(back['config/manager/manager.yaml']).toBe(before['config/manager/manager.yaml']);
    expect(back['config/rbac/role_binding.yaml']).toBe(before['config/rbac/role_binding.yaml']);
  });

  it('--license none --owner rewrites the header of scaffolded files, not the runtime', async () => {
    const dir = await project('lic');
    const before = readTree(dir);
    await runEdit({ dir, license: 'none', owner: 'New Owner' }, captured());
    const after = readTree(dir);
    expect(changed(before, after)).toEqual([
      'PROJECT',
      'hack/boilerplate.ts.txt',
      'package.json',
      'src/api/v1/groupversion.ts',
      'src/api/v1/memcached.ts',
      'src/controllers/memcached-controller.test.ts',
      'src/controllers/memcached-controller.ts',
      'src/main.ts',
    ]);
    expect(after['hack/boilerplate.ts.txt']).toBe('/*\nCopyright 2026 New Owner.\n*/\n');
    expect(after['src/main.ts']!.startsWith('/*\nCopyright 2026 New Owner.\n*/\n\n/**\n * The operator')).toBe(true);
    expect(after['src/main.ts']).not.toContain('Apache');
    expect(after['package.json']).toContain('"license": "UNLICENSED"');
    expect(after['PROJECT']).toContain('license: none\n    owner: New Owner');
  });

  it.each([
    [{}, 'edit: nothing to change; pass --multigroup, --namespaced, --license or --owner'],
    [{ license: 'gpl' }, "--license: 'gpl' is not a known license; use 'apache2' or 'none'"],
  ])('rejects %o with one line', async (flags, expected) => {
    const dir = await project('bad');
    await expect(runEdit({ dir, ...flags }, captured())).rejects.toThrow(expected);
  });

  it('leaves PROJECT as recorded after init, create api, edit --multigroup, create api, edit --owner (golden: project-sequence)', async () => {
    const dir = await project('sequence');
    await runEdit({ dir, multigroup: true }, captured());
    await runCreateApi({ dir, group: 'apps', version: 'v1beta1', kind: 'Guestbook', controller: false, make: false }, captured());
    await runEdit({ dir, owner: 'Second Owner' }, captured());
    expectGolden('project-sequence', { PROJECT: readFileSync(join(dir, 'PROJECT'), 'utf8') });
  });
});
