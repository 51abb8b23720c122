/**
 * The scaffolding commands through the real binary (bin/tsop.js → dist/, built by
 * `npx tsc -p tsconfig.build.json`): flags reach the subcommand (`create api --version` is not
 * tsop's own --version), and user errors are one `tsop: …` line with exit 1.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempProject } from './harness.js';

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
    const plan = await tsop(dir, 'create', 'api', '--group', 'cache', '--version', 'v1alpha1', '--kind', 'Memcached', '--controller=false', '--make=false', '--dry-run');
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
    [['create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'memcached'], "tsop: --kind: 'memcached' is not UpperCamelCase (starts with an upper-case letter; only letters and digits); use 'Memcached'\n"],
    [['init', '--license', 'mit'], "tsop: --license: 'mit' is not a known license; use 'apache2' or 'none'\n"],
    [['create', 'api', '--group', 'cache', '--version', 'v1', '--kind', 'Memcached', '--resource=maybe'], "tsop: option '--resource [bool]' argument 'maybe' is invalid. must be 'true' or 'false'\n"],
  ])('prints one line and exits 1 for %j', async (args, expected) => {
    const dir = tempProject('cli-errors');
    if (args[0] === 'create') expect((await tsop(dir, 'init', '--skip-install')).code).toBe(0);
    expect(await tsop(dir, ...args)).toEqual({ code: 1, stdout: '', stderr: expected });
  });

  it('says where to start outside a project', async () => {
    const dir = tempProject('cli-outside');
    expect(await tsop(dir, 'edit', '--multigroup')).toEqual({
      code: 1,
      stdout: '',
      stderr: `tsop: edit: ${dir} is not a tsop project (no PROJECT file); run 'tsop init' first, or run this command in the project's directory\n`,
    });
  });
});
