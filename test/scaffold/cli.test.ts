/**
 * The scaffolding commands through the real binary (bin/tsop.js → dist/, built by
 * `npm run build`): flags reach the subcommand (`create api --version` is not tsop's own
 * --version), and user errors are one `tsop: …` line with exit 1. The built CLI renders the
 * precompiled templates and runs `create api --make` on a worker thread, so its output is checked
 * against the goldens and the in-process generator too.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runManifests } from '../../src/cli/manifests.js';
import { captured, expectGolden, readTree, tempProject } from './harness.js';

const SKIP = ['src/runtime/', 'scripts/control-plane.sh'];
const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));

async function tsop(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Each case starts one to three Node processes; on a loaded two-core machine that takes seconds.
describe('tsop init / create api / edit on the command line', { timeout: 60_000 }, () => {
  it('scaffolds with kubebuilder flag spellings, including --version and --flag=false', async () => {
    const dir = tempProject('cli-project');
    const init = await tsop(dir, 'init', '--domain', 'example.com', '--skip-install');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain("for project 'cli-project'");
    const plan = await tsop(
      dir,
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--controller=false',
      '--make=false',
      '--dry-run',
    );
    expect(plan).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'update    PROJECT',
        'update    config/crd/kustomization.yaml',
        'update    config/default/kustomization.yaml',
        'update    config/rbac/kustomization.yaml',
        'create    config/rbac/memcached_admin_role.yaml',
        'create    config/rbac/memcached_editor_role.yaml',
        'create    config/rbac/memcached_viewer_role.yaml',
        'create    config/samples/cache_v1alpha1_memcached.yaml',
        'update    config/samples/kustomization.yaml',
        'create    src/api/v1alpha1/groupversion.ts',
        'create    src/api/v1alpha1/memcached.ts',
        '',
      ].join('\n'),
    });
  });

  it.each([
    [
      ['create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'memcached'],
      "tsop: --kind: 'memcached' is not UpperCamelCase (starts with an upper-case letter; only letters and digits); use 'Memcached'\n",
    ],
    [['init', '--license', 'mit'], "tsop: --license: 'mit' is not a known license; use 'apache2' or 'none'\n"],
    [
      ['create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Memcached', '--resource=maybe'],
      "tsop: option '--resource [bool]' argument 'maybe' is invalid. must be true or false (also 1/0, t/f, T/F, TRUE/FALSE, True/False, as Go's flag package reads them)\n",
    ],
  ])('prints one line and exits 1 for %j', async (args, expected) => {
    const dir = tempProject('cli-errors');
    if (args[0] === 'create') expect((await tsop(dir, 'init', '--skip-install')).code).toBe(0);
    expect(await tsop(dir, ...args)).toEqual({ code: 1, stdout: '', stderr: expected });
  });

  it('renders the same trees from precompiled templates as from the template files (goldens: fleet, guestbook)', async () => {
    const fleet = tempProject('fleet');
    expect(
      (await tsop(fleet, 'init', '--domain', 'fleet.io', '--multigroup', '--namespaced', '--skip-install')).code,
    ).toBe(0);
    for (const args of [
      ['--group', 'ship', '--version', 'v1beta1', '--kind', 'Frigate'],
      ['--group', 'ship', '--version', 'v1', '--kind', 'Frigate', '--controller=false'],
      ['--group', 'sea', '--version', 'v1', '--kind', 'Harbor', '--namespaced=false', '--plural', 'harbours'],
      ['--group', 'sea', '--version', 'v1', '--kind', 'Policy'],
    ]) {
      const run = await tsop(fleet, 'create', 'api', ...args, '--make=false');
      expect(run.code, run.stderr).toBe(0);
    }
    expectGolden('fleet', readTree(fleet), SKIP, { update: false });

    const guestbook = tempProject('guestbook');
    expect(
      (await tsop(guestbook, 'init', '--domain', 'example.com', '--owner', 'The Guestbook Authors', '--skip-install'))
        .code,
    ).toBe(0);
    expect(
      (
        await tsop(
          guestbook,
          'create',
          'api',
          '--group',
          'webapp',
          '--version',
          'v1',
          '--kind',
          'Guestbook',
          '--make=false',
        )
      ).code,
    ).toBe(0);
    expectGolden('guestbook', readTree(guestbook), SKIP, { update: false });
  });

  it('writes with --make, parsing on a worker thread, what the in-process generator would', async () => {
    const dir = tempProject('cli-make');
    expect((await tsop(dir, 'init', '--domain', 'fleet.io', '--multigroup', '--skip-install')).code).toBe(0);
    expect(
      (await tsop(dir, 'create', 'api', '--group', 'ship', '--version', 'v1', '--kind', 'Frigate', '--make=false'))
        .code,
    ).toBe(0);
    const create = await tsop(
      dir,
      'create',
      'api',
      '--group',
      'sea',
      '--version',
      'v1',
      '--kind',
      'Harbor',
      '--namespaced=false',
    );
    expect(create.code, create.stderr).toBe(0);
    expect(create.stderr).toMatch(/^created src\/api\/sea\/v1\/harbor\.ts$/m);
    expect(create.stderr).toContain(
      'wrote config/crd/bases/sea.fleet.io_harbors.yaml\nwrote config/crd/bases/ship.fleet.io_frigates.yaml\nwrote config/rbac/role.yaml\n',
    );
    // --check throws when any generated file differs from what it would write.
    await runManifests({ dir, check: true }, captured());
  });

  it('reports a failing --make in one line and undoes the scaffold, so the fixed project can simply run it again', async () => {
    const dir = tempProject('cli-make-fails');
    expect((await tsop(dir, 'init', '--domain', 'example.com', '--skip-install')).code).toBe(0);
    expect(
      (await tsop(dir, 'create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Memcached', '--make=false'))
        .code,
    ).toBe(0);
    const kindFile = join(dir, 'src/api/v1/memcached.ts');
    writeFileSync(kindFile, readTree(dir)['src/api/v1/memcached.ts']!.replace("@ListType('map')", "@ListType('mapp')"));
    const before = readTree(dir);
    const run = await tsop(dir, 'create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Cache');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tsop: src\/api\/v1\/memcached\.ts:\d+: .*ListType.*mapp[^\n]*\n$/);
    expect(readTree(dir)).toEqual(before);
    writeFileSync(kindFile, before['src/api/v1/memcached.ts']!.replace("@ListType('mapp')", "@ListType('map')"));
    const retry = await tsop(dir, 'create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Cache');
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stderr).toContain('created src/api/v1/cache.ts\n');
  });

  it('says where to start outside a project (exit 2: cannot run here)', async () => {
    const dir = tempProject('cli-outside');
    expect(await tsop(dir, 'edit', '--multigroup')).toEqual({
      code: 2,
      stdout: '',
      stderr: `tsop: edit: ${dir} is not a tsop project (no PROJECT file); run 'tsop init' first, or run this command in the project's directory\n`,
    });
  });
});
