/** `tsop manifests` end to end on a project directory: write, --check, errors, flags. */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError, UserErrors } from '../../src/errors.js';
import { run } from '../../src/cli/main.js';
import { runManifests, type ManifestsIO } from '../../src/cli/manifests.js';

const WIDGETS = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/manifests/widgets');
const temps: string[] = [];

async function project(withConfig = false): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsop-manifests-'));
  temps.push(dir);
  await cp(join(WIDGETS, 'src'), join(dir, 'src'), { recursive: true });
  await cp(join(WIDGETS, 'PROJECT'), join(dir, 'PROJECT'));
  if (withConfig) await cp(join(WIDGETS, 'config'), join(dir, 'config'), { recursive: true });
  return dir;
}

function capture(): ManifestsIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

afterEach(async () => {
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('tsop manifests', () => {
  // The fixture's config/ is a golden file: after changing the emitter or tsop's version,
  // regenerate it with `node bin/tsop.js manifests --dir test/fixtures/manifests/widgets`.
  it('the committed fixture output is current (--check passes on it)', async () => {
    const io = capture();
    await runManifests({ dir: WIDGETS, check: true }, io);
    expect(io.stdout).toBe('');
  });

  it('writes config/crd/bases and config/rbac, then leaves unchanged files alone', async () => {
    const dir = await project();
    const io = capture();
    await runManifests({ dir }, io);
    expect(io.stderr.split('\n').filter(Boolean)).toEqual([
      'wrote config/crd/bases/other.example.com_gadgetry.yaml',
      'wrote config/crd/bases/widgets.example.com_gizmoes.yaml',
      'wrote config/crd/bases/widgets.example.com_widgets.yaml',
      'wrote config/rbac/role.yaml',
    ]);
    expect(await readFile(join(dir, 'config/crd/bases/widgets.example.com_widgets.yaml'), 'utf8')).toBe(
      await readFile(join(WIDGETS, 'config/crd/bases/widgets.example.com_widgets.yaml'), 'utf8'),
    );
    const again = capture();
    await runManifests({ dir }, again);
    expect(again.stderr).toBe('');
  });

  it('--check prints a diff and the breaking changes, writes nothing, and fails', async () => {
    const dir = await project(true);
    const file = join(dir, 'src/api/v1/widget.ts');
    const source = await readFile(file, 'utf8');
    await writeFile(
      file,
      source
        .replace('@Maximum(10)', '@Maximum(5)')
        .replace('  tags?: string[];', '  tags?: string[];\n\n  owner!: string;'),
    );
    const io = capture();
    const failure = await runManifests({ dir, check: true }, io).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as Error).message).toBe(
      "1 generated file is out of date; run 'tsop manifests' and commit the result",
    );
    expect(io.stdout).toContain(
      '--- a/config/crd/bases/widgets.example.com_widgets.yaml\n+++ b/config/crd/bases/widgets.example.com_widgets.yaml\n',
    );
    expect(io.stdout).toContain('-                maximum: 10\n+                maximum: 5\n');
    expect(io.stderr).toContain(
      'config/crd/bases/widgets.example.com_widgets.yaml: v1 .spec.replicas: maximum tightened from 10 to 5',
    );
    expect(io.stderr).toContain(
      'config/crd/bases/widgets.example.com_widgets.yaml: v1 .spec.owner: field newly required',
    );
    expect(await readFile(join(dir, 'config/crd/bases/widgets.example.com_widgets.yaml'), 'utf8')).toContain(
      'maximum: 10',
    );
  });

  it('--check on a project never generated shows new files', async () => {
    const dir = await project();
    const io = capture();
    await expect(runManifests({ dir, check: true }, io)).rejects.toThrow('4 generated files are out of date');
    expect(io.stdout).toContain('--- /dev/null\n+++ b/config/rbac/role.yaml\n');
    await expect(readdir(join(dir, 'config'))).rejects.toThrow();
  });

  it('reports every error at once and writes nothing', async () => {
    const dir = await project();
    const file = join(dir, 'src/api/v1/widget.ts');
    const source = await readFile(file, 'utf8');
    await writeFile(
      file,
      source.replace(
        '  @Minimum(1)\n  @Maximum(10)\n  replicas!: int32;',
        "  @Minimum('one')\n  replicas!: int32;\n  bad!: any;",
      ),
    );
    const failure = await runManifests({ dir }, capture()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UserErrors);
    expect((failure as UserErrors).errors.map((e) => e.message)).toEqual([
      'src/api/v1/widget.ts:63: WidgetSpec.replicas: @Minimum(value: number) takes one number, got ["one"]',
      "src/api/v1/widget.ts:65: WidgetSpec.bad: type 'any': 'any' has no schema; use JSONValue (any JSON) or RawExtension (any object), or declare the shape",
    ]);
    await expect(readdir(join(dir, 'config'))).rejects.toThrow();
  });

  it('CRDs of kinds that are gone: reported by --check, removed by a run; hand-written CRDs stay', async () => {
    const dir = await project(true);
    await rm(join(dir, 'src/api/v1/gizmo.ts'));
    await rm(join(dir, 'src/api/v1alpha1'), { recursive: true });
    await writeFile(
      join(dir, 'config/crd/bases/hand_written.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n',
    );
    const check = capture();
    await expect(runManifests({ dir, check: true }, check)).rejects.toThrow('1 generated file is out of date');
    expect(check.stdout).toContain('--- a/config/crd/bases/widgets.example.com_gizmoes.yaml\n+++ /dev/null\n');
    const write = capture();
    await runManifests({ dir }, write);
    expect(write.stderr).toBe('removed config/crd/bases/widgets.example.com_gizmoes.yaml\n');
    expect((await readdir(join(dir, 'config/crd/bases'))).sort()).toEqual([
      'hand_written.yaml',
      'other.example.com_gadgetry.yaml',
      'widgets.example.com_widgets.yaml',
    ]);
  });

  it('--output-dir and --max-desc-len', async () => {
    const dir = await project();
    await runManifests({ dir, outputDir: 'deploy', maxDescLen: 0 }, capture());
    const text = await readFile(join(dir, 'deploy/crd/bases/widgets.example.com_widgets.yaml'), 'utf8');
    expect(text).not.toContain('description:');
  });

  it('through the CLI: exit codes and flag validation', async () => {
    const dir = await project(true);
    const write = process.stderr.write;
    const errs: string[] = [];
    process.stderr.write = ((t: string) => (errs.push(String(t)), true)) as typeof process.stderr.write;
    try {
      expect(await run(['node', 'tsop', 'manifests', '--dir', dir, '--check'])).toBe(0);
      expect(await run(['node', 'tsop', 'manifests', '--dir', dir, '--max-desc-len', 'many'])).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(errs.join('')).toContain(
      "option '--max-desc-len <n>' argument 'many' is invalid. must be a whole number, 0 or more",
    );
  });
});
