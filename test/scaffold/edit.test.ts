/**
 * `tsop edit`: each setting changes PROJECT and the files that depend on it, and nothing else;
 * PROJECT after a whole command sequence is checked against a golden file.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  it('--namespaced switches the manager to one namespace with a RoleBinding and gives the controllers\' @Rbac the namespace create api would have; --namespaced=false undoes it', async () => {
    const dir = await project('ns');
    await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Redis', make: false }, captured());
    const before = readTree(dir);
    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    const after = readTree(dir);
    expect(changed(before, after)).toEqual([
      'PROJECT',
      'config/manager/manager.yaml',
      'config/rbac/role_binding.yaml',
      'src/controllers/memcached-controller.ts',
      'src/controllers/redis-controller.ts',
    ]);
    expect(after['PROJECT']).toContain('namespaced: true');
    expect(after['config/manager/manager.yaml']).toContain('- name: WATCH_NAMESPACE\n          valueFrom:\n            fieldRef:\n              fieldPath: metadata.namespace');
    expect(after['config/rbac/role_binding.yaml']).toContain('kind: RoleBinding');
    expect(after['src/controllers/memcached-controller.ts']).toContain("verbs: ['update'], namespace: 'ns-system' })");
    expect(io.stderr).toBe(
      "updated PROJECT\nupdated config/manager/manager.yaml\nupdated config/rbac/role_binding.yaml\nupdated src/controllers/memcached-controller.ts\nupdated src/controllers/redis-controller.ts\n" +
        "note: run 'npm run manifests' to regenerate config/rbac/role.yaml from the updated @Rbac decorators\n",
    );

    // What create api writes in a project that was namespaced from the start (same name, same owner).
    const fresh = tempProject('ns');
    await runInit({ dir: fresh, domain: 'example.com', owner: 'First Owner', namespaced: true, skipInstall: true }, captured());
    await runCreateApi({ dir: fresh, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
    await runCreateApi({ dir: fresh, group: 'cache', version: 'v1', kind: 'Redis', make: false }, captured());
    const expected = readTree(fresh);
    for (const path of changed(before, after)) expect(after[path], path).toBe(expected[path]);

    await runEdit({ dir, namespaced: false }, captured());
    const back = readTree(dir);
    for (const path of ['src/controllers/memcached-controller.ts', 'src/controllers/redis-controller.ts']) expect(back[path], path).toBe(before[path]);
    expect(changed(before, back)).toEqual(['PROJECT']);
    expect(back['PROJECT']!.replace('namespaced: false\n', '')).toBe(before['PROJECT']);
  });

  it('--namespaced rewrites hand-written multi-line @Rbac too, keeps another namespace, and names what it cannot rewrite', async () => {
    const dir = await project('hand');
    const path = 'src/controllers/memcached-controller.ts';
    const file = join(dir, path);
    const scaffolded = readFileSync(file, 'utf8');
    const extra = [
      '@Rbac({',
      "  groups: ['apps'], // the Deployments it runs",
      "  resources: ['deployments'],",
      "  verbs: ['get', 'list', `watch`],",
      '})',
      "@Rbac({ groups: [''], resources: ['configmaps'], verbs: ['get'], namespace: 'other' })",
      "@Rbac({ ...events, verbs: ['create'] })",
      '',
    ].join('\n');
    const handEdited = scaffolded.replace('export class MemcachedReconciler', `${extra}export class MemcachedReconciler`);
    expect(handEdited).not.toBe(scaffolded);
    writeFileSync(file, handEdited);

    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    const edited = readFileSync(file, 'utf8');
    expect(edited).toContain("  verbs: ['get', 'list', `watch`],\n  namespace: 'hand-system',\n})\n");
    expect(edited).toContain("@Rbac({ groups: [''], resources: ['configmaps'], verbs: ['get'], namespace: 'other' })\n");
    expect(edited).toContain("@Rbac({ ...events, verbs: ['create'] })\n");
    // Every scaffolded @Rbac line, plus the hand-written multi-line one.
    const scaffoldedRules = scaffolded.match(/^@Rbac\(/gm)?.length ?? 0;
    expect(scaffoldedRules).toBeGreaterThanOrEqual(3);
    expect(edited.match(/namespace: 'hand-system'/g)).toHaveLength(scaffoldedRules + 1);
    const line = handEdited.split('\n').indexOf("@Rbac({ ...events, verbs: ['create'] })") + 1;
    expect(io.stderr).toContain(
      `note: ${path}:${line}: its object literal has a spread (...), which may hold a namespace; add namespace: 'hand-system' to its @Rbac decorators by hand\n`,
    );

    await runEdit({ dir, namespaced: false }, captured());
    expect(readFileSync(file, 'utf8')).toBe(handEdited);
  });

  it('--namespaced finds controllers created before edit --multigroup, and names a controller file that is gone', async () => {
    const dir = await project('moved');
    await runEdit({ dir, multigroup: true }, captured());
    await runCreateApi({ dir, group: 'apps', version: 'v1', kind: 'Guestbook', make: false }, captured());
    rmSync(join(dir, 'src/controllers/apps/guestbook-controller.ts'));
    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    expect(readFileSync(join(dir, 'src/controllers/memcached-controller.ts'), 'utf8')).toContain("verbs: ['update'], namespace: 'moved-system' })");
    expect(io.stderr).toContain(
      "note: src/controllers/apps/guestbook-controller.ts not found; if the controller lives elsewhere, add namespace: 'moved-system' to its @Rbac decorators by hand\n",
    );
  });

  it('--license none --owner rewrites the header of scaffolded files (sources and e2e tests), not the runtime', async () => {
    const dir = await project('lic');
    const before = readTree(dir);
    await runEdit({ dir, license: 'none', owner: 'New Owner' }, captured());
    const after = readTree(dir);
    // Every TypeScript file the scaffold wrote with the old header (whatever the templates hold today), the runtime excepted.
    const oldHeader = before['hack/boilerplate.ts.txt']!;
    const headed = Object.keys(before).filter((p) => p.endsWith('.ts') && !p.startsWith('src/runtime/') && before[p]!.startsWith(`${oldHeader}\n`));
    expect(headed).toEqual(expect.arrayContaining(['src/main.ts', 'src/api/v1/memcached.ts', 'src/controllers/memcached-controller.ts', 'test/e2e/e2e.test.ts']));
    expect(changed(before, after)).toEqual(['PROJECT', 'hack/boilerplate.ts.txt', 'package.json', ...headed].sort());
    expect(after['hack/boilerplate.ts.txt']).toBe('/*\nCopyright 2026 New Owner.\n*/\n');
    expect(after['src/main.ts']!.startsWith('/*\nCopyright 2026 New Owner.\n*/\n\n/**\n * The operator')).toBe(true);
    expect(after['src/main.ts']).not.toContain('Apache');
    expect(after['package.json']).toContain('"license": "UNLICENSED"');
    expect(after['PROJECT']).toContain('license: none\n    owner: New Owner');
  });

  it.each([
    [{}, 'edit: nothing to change; pass --multigroup, --namespaced, --license, --owner or --plugins helm/v2-alpha'],
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
