/**
 * A project scaffolded with every plugin passes its own `npm run lint`: Biome (format and lint,
 * with the biome.json `tsop init` writes), tsc and `tsop manifests --check`. The project is made
 * in-process (init with the OLM plugins, create api, deploy-image, create webhook with defaulting,
 * validation and conversion, edit --plugins helm) and linted with tsop's own node_modules, which
 * hold the Biome version the project asks for, and the built CLI as its `tsop`.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { captured, tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const bin = mkdtempSync(join(tmpdir(), 'tsop-lint-bin-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** What `npm run build-installer` would give the Helm plugin, without kubectl. */
const INSTALL = `apiVersion: v1
kind: Namespace
metadata:
  name: every-plugin-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: every-plugin-controller-manager
  namespace: every-plugin-system
spec:
  selector:
    matchLabels:
      control-plane: controller-manager
  template:
    metadata:
      labels:
        control-plane: controller-manager
    spec:
      containers:
      - name: manager
        image: controller:latest
`;

async function everyPlugin(): Promise<string> {
  const dir = tempProject('every-plugin');
  const plugins = 'manifests.sdk.tsop.dev/v2,scorecard.sdk.tsop.dev/v2';
  await runInit({ dir, domain: 'example.com', skipInstall: true, plugins }, captured());
  const api = { dir, group: 'cache', kind: 'Memcached', resource: true, make: false };
  await runCreateApi({ ...api, version: 'v1alpha1', controller: true }, captured());
  await runCreateApi({ ...api, version: 'v2', controller: false }, captured());
  await runCreateApi(
    {
      dir,
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Busybox',
      plugins: 'deploy-image/v1-alpha',
      image: 'busybox:1.36.1',
      imageContainerCommand: 'sleep,infinity',
      imageContainerPort: '8080',
      runAsUser: '1001',
      make: false,
    },
    captured(),
  );
  const hook = { dir, group: 'cache', kind: 'Memcached', make: false };
  await runCreateWebhook({ ...hook, version: 'v1alpha1', defaulting: true, programmaticValidation: true }, captured());
  await runCreateWebhook({ ...hook, version: 'v2', conversion: true, spoke: 'v1alpha1' }, captured());
  await runCreateWebhook(
    { dir, group: 'core', version: 'v1', kind: 'Pod', defaulting: true, programmaticValidation: true, make: false },
    captured(),
  );
  writeFileSync(join(dir, 'install.yaml'), INSTALL);
  await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, captured());
  return dir;
}

describe('a project scaffolded with every plugin', { timeout: 180_000 }, () => {
  it('passes its own npm run lint, with Biome at the version tsop uses', async () => {
    const dir = await everyPlugin();
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const biome = JSON.parse(readFileSync(join(TSOP, 'node_modules/@biomejs/biome/package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.devDependencies['@biomejs/biome']).toBe(biome.version);
    // The same formatter as tsop's own code: a tsop contributor and a tsop user read the same layout.
    const config = (root: string) =>
      JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
    const [ours, theirs] = [config(TSOP), config(dir)];
    expect([theirs['formatter'], theirs['javascript']]).toEqual([ours['formatter'], ours['javascript']]);
    expect(pkg.scripts['lint']).toMatch(/^biome check /);
    expect(pkg.scripts['format']).toBe('biome format --write .');

    linkNodeModules(dir);
    symlinkSync(join(TSOP, 'bin/tsop.js'), join(bin, 'tsop'));
    const npmRun = (script: string) =>
      execa('npm', ['run', script], {
        cwd: dir,
        all: true,
        reject: false,
        env: { NO_COLOR: '1', PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` },
      });
    // The scaffolding ran with make: false, so the generated manifests are written first.
    const manifests = await npmRun('manifests');
    expect(manifests.exitCode, manifests.all).toBe(0);
    const lint = await npmRun('lint');
    expect(lint.exitCode, lint.all).toBe(0);
    expect(lint.all).toMatch(/Checked \d+ files/);

    // And it is a check: code the formatter would change fails it, by file.
    writeFileSync(join(dir, 'src/untidy.ts'), 'export const  untidy = "x"\n');
    const untidy = await npmRun('lint');
    expect(untidy.exitCode).not.toBe(0);
    expect(untidy.all).toContain('src/untidy.ts');
  });
});
