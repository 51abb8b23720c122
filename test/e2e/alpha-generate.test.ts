/**
 * `tsop alpha generate` and the refusals of `alpha update`, in-process (no registry, no server):
 * re-scaffolding an unedited project from its PROJECT file reproduces it byte for byte, including
 * a deploy-image kind's recorded options and webhooks (a kind's and a core Pod's), controllers for
 * other projects' kinds and a cluster-scoped built-in kind; bad directories and dirty or non-git trees are refused
 * with one line.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { runAlphaGenerate } from '../../src/cli/alpha-generate.js';
import { runAlphaUpdate } from '../../src/cli/alpha-update.js';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import type { CommandIO } from '../../src/cli/io.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { UserError } from '../../src/errors.js';

const root = mkdtempSync(join(tmpdir(), 'tsop-alpha-generate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };

function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? posix.join(rel, e.name) : e.name;
    if (e.isDirectory()) Object.assign(out, tree(dir, path));
    else out[path] = readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

async function scaffold(name: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir);
  await runInit({ dir, domain: 'example.com', owner: 'The Shop Authors', multigroup: true, skipInstall: true }, quiet);
  await runCreateApi({ dir, group: 'shop', version: 'v1', kind: 'Order', resource: true, controller: true }, quiet);
  await runCreateApi(
    {
      dir,
      group: 'shop',
      version: 'v1',
      kind: 'Basket',
      resource: true,
      controller: false,
      namespaced: false,
      plural: 'baskets',
    },
    quiet,
  );
  await runCreateApi(
    {
      dir,
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Memcached',
      plugins: 'deploy-image/v1-alpha',
      image: 'memcached:1.6.26-alpine',
      imageContainerPort: '11211',
      runAsUser: '1001',
    },
    quiet,
  );
  await runCreateWebhook(
    { dir, group: 'shop', version: 'v1', kind: 'Order', defaulting: true, programmaticValidation: true },
    quiet,
  );
  await runCreateWebhook({ dir, group: 'core', version: 'v1', kind: 'Pod', defaulting: true }, quiet);
  return dir;
}

/** Runs alpha generate from `project` into `output`, expects the same files byte for byte, and returns them. */
async function regeneratesAlike(project: string, output: string): Promise<Record<string, string>> {
  await runAlphaGenerate({ inputDir: project, outputDir: output }, quiet);
  const want = tree(project);
  const got = tree(output);
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const path of Object.keys(want)) expect(got[path], path).toBe(want[path]);
  return want;
}

describe('tsop alpha generate', () => {
  it('re-scaffolds an unedited project from PROJECT byte for byte', async () => {
    const project = await scaffold('original');
    const output = join(root, 'regenerated');
    const want = await regeneratesAlike(project, output);
    const controller = Object.keys(want).find((p) => p.endsWith('/memcached-controller.ts'));
    expect(want[controller ?? '']).toContain('MEMCACHED_IMAGE'); // the deploy-image controller, not the plain one
    expect(Object.keys(want).filter((p) => p.startsWith('config/webhook/')).length).toBeGreaterThan(0);
    expect(readFileSync(join(project, 'PROJECT'), 'utf8')).toMatch(/- core: true\n {2}group: core\n {2}kind: Pod\n/);
  }, 120_000);

  it("re-scaffolds controllers for another project's kinds and a cluster-scoped built-in kind byte for byte", async () => {
    const project = join(root, 'external');
    mkdirSync(project);
    await runInit({ dir: project, domain: 'example.com', skipInstall: true }, quiet);
    const controllerOnly = { resource: false, controller: true, make: false } as const;
    await runCreateApi(
      {
        dir: project,
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        externalApiPath: '@acme/cert-manager-api/v1',
        externalApiDomain: 'io',
        ...controllerOnly,
      },
      quiet,
    );
    await runCreateApi(
      {
        dir: project,
        group: 'widgets',
        version: 'v1beta1',
        kind: 'Widget',
        externalApiPath: 'src/external/widget.ts',
        ...controllerOnly,
      },
      quiet,
    );
    await runCreateApi({ dir: project, group: 'core', version: 'v1', kind: 'Node', ...controllerOnly }, quiet);
    const output = join(root, 'external-regenerated');
    const want = await regeneratesAlike(project, output);
    expect(want['src/controllers/certificate-controller.ts']).toContain(
      "import type { Certificate } from '@acme/cert-manager-api/v1';",
    );
    expect(want['src/controllers/node-controller.test.ts']).toContain("const req: Request = { name: 'missing-node' };");
  }, 60_000);

  it("re-scaffolds named controllers, custom webhook paths and webhooks for another project's kind byte for byte", async () => {
    const project = join(root, 'named');
    mkdirSync(project);
    await runInit({ dir: project, domain: 'example.com', skipInstall: true }, quiet);
    await runCreateApi(
      {
        dir: project,
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        resource: true,
        controller: true,
        make: false,
      },
      quiet,
    );
    await runCreateApi(
      {
        dir: project,
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        resource: false,
        controller: true,
        controllerName: 'memcached-backup',
        make: false,
      },
      quiet,
    );
    await runCreateWebhook(
      {
        dir: project,
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        defaulting: true,
        defaultingPath: '/my-mutate',
        programmaticValidation: true,
        make: false,
      },
      quiet,
    );
    await runCreateWebhook(
      {
        dir: project,
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        programmaticValidation: true,
        externalApiPath: '@acme/cert-manager-api/v1',
        externalApiDomain: 'io',
        externalApiModule: '@acme/cert-manager-api@1.18.2',
        make: false,
      },
      quiet,
    );
    // alpha generate ends with manifests, as a project with an API has them.
    await runManifests({ dir: project }, quiet);
    const output = join(root, 'named-regenerated');
    const want = await regeneratesAlike(project, output);
    expect(want['PROJECT']).toContain('  controllers:\n  - name: memcached\n  - name: memcached-backup\n');
    expect(want['PROJECT']).toContain('    defaultingPath: /my-mutate\n');
    expect(want['src/webhooks/v1/certificate-webhook.ts']).toContain(
      "import type { Certificate } from '@acme/cert-manager-api/v1';",
    );
    expect(want['package.json']).toContain('"@acme/cert-manager-api": "1.18.2"');
  }, 60_000);

  it('refuses a missing or non-empty --output-dir', async () => {
    const project = join(root, 'original');
    await expect(runAlphaGenerate({ inputDir: project }, quiet)).rejects.toThrow(
      /^alpha generate: --output-dir is required/,
    );
    await expect(runAlphaGenerate({ inputDir: project, outputDir: project }, quiet)).rejects.toThrow(
      /^alpha generate: --output-dir .* is not empty; pass a new or empty directory$/,
    );
  });
});

describe('tsop alpha update refuses', () => {
  it('a project outside git, and a dirty tree, with one line each', async () => {
    const project = join(root, 'original');
    const notGit = runAlphaUpdate({ dir: project, fromVersion: '0.0.1' }, quiet);
    await expect(notGit).rejects.toBeInstanceOf(UserError);
    await expect(notGit).rejects.toThrow(
      /^alpha update: .* is not in a git work tree; commit the project to git first/,
    );
    const git = (...args: string[]) =>
      execa('git', args, {
        cwd: project,
        env: {
          GIT_AUTHOR_NAME: 'U',
          GIT_AUTHOR_EMAIL: 'u@example.com',
          GIT_COMMITTER_NAME: 'U',
          GIT_COMMITTER_EMAIL: 'u@example.com',
        },
      });
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'scaffold');
    writeFileSync(join(project, 'src/main.ts'), '// mine\n', { flag: 'a' });
    writeFileSync(join(project, 'notes.txt'), 'new\n');
    const dirty = runAlphaUpdate({ dir: project, fromVersion: '0.0.1' }, quiet);
    const refusal = new RegExp(
      [
        String.raw`^alpha update: .* has 2 uncommitted change\(s\) \(first: .*\); commit or stash them first, `,
        String.raw`so that no change of yours can be lost `,
        String.raw`\(package\.json and package-lock\.json may stay uncommitted: the update takes them along\)$`,
      ].join(''),
    );
    await expect(dirty).rejects.toThrow(refusal);
    expect((await git('status', '--porcelain')).stdout.split('\n').sort()).toEqual([' M src/main.ts', '?? notes.txt']);
  });
});
