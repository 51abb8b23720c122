/**
 * `tsop init --plugins` with operator-sdk's manifests/v2 and scorecard/v2 keys (or tsop's twins):
 * the OLM overlay, the scorecard configuration, `npm run bundle` / `bundle-build` and the PROJECT
 * entries; and the commands' bad input: one line, nothing written.
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  mkdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBundleValidate } from '../../src/cli/bundle-validate.js';
import { runGenerateBundle, runKustomizeManifests } from '../../src/cli/generate-olm.js';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runInit } from '../../src/cli/init.js';
import { manifestsKustomization } from '../../src/plugins/olm/scaffold.js';
import { runScorecard } from '../../src/cli/scorecard.js';
import { parseProject } from '../../src/project/config.js';
import { captured } from '../scaffold/harness.js';

const work = mkdtempSync(join(tmpdir(), 'tsop-olm-plugin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const newDir = (): string => join(work, `p${++n}`, 'memcached-operator');

describe('init --plugins with the OLM plugins', () => {
  it("takes operator-sdk's keys and records tsop's", async () => {
    const dir = newDir();
    await runInit(
      {
        dir,
        domain: 'example.com',
        skipInstall: true,
        plugins: 'go/v4,manifests.sdk.operatorframework.io/v2,scorecard.sdk.operatorframework.io/v2',
      },
      captured(),
    );
    const project = parseProject(readFileSync(join(dir, 'PROJECT'), 'utf8'));
    expect(project.plugins['manifests.sdk.tsop.dev/v2']).toEqual({});
    expect(project.plugins['scorecard.sdk.tsop.dev/v2']).toEqual({});
    expect(readdirSync(join(dir, 'config/scorecard/patches')).sort()).toEqual(['basic.config.yaml', 'olm.config.yaml']);
    expect(readFileSync(join(dir, 'config/manifests/kustomization.yaml'), 'utf8')).toContain('- ../scorecard');
    const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts['bundle']).toContain('tsop generate bundle -q --version ${VERSION:-0.0.1}');
    expect(scripts['bundle-build']).toBe(
      '${CONTAINER_TOOL:-docker} build -f bundle.Dockerfile -t ${BUNDLE_IMG:-memcached-operator-bundle:v${VERSION:-0.0.1}} .',
    );
  });

  it('adds only the scorecard configuration for the scorecard plugin alone', async () => {
    const dir = newDir();
    await runInit({ dir, domain: 'example.com', skipInstall: true, plugins: 'scorecard.sdk.tsop.dev/v2' }, captured());
    expect(existsSync(join(dir, 'config/scorecard/bases/config.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'config/manifests'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.bundle).toBeUndefined();
  });

  it('refuses an unknown plugin key and writes nothing', async () => {
    const dir = newDir();
    await expect(
      runInit(
        { dir, domain: 'example.com', skipInstall: true, plugins: 'manifests.sdk.operatorframework.io/v3' },
        captured(),
      ),
    ).rejects.toThrow(
      /--plugins: 'manifests\.sdk\.operatorframework\.io\/v3' is not a plugin init knows; .*'manifests\.sdk\.tsop\.dev\/v2'/,
    );
    expect(existsSync(dir)).toBe(false);
  });
});

describe('create webhook in a project with the OLM overlay', () => {
  it("turns on the overlay's patch that leaves the webhook certificate to OLM", async () => {
    const dir = newDir();
    await runInit(
      { dir, domain: 'example.com', skipInstall: true, plugins: 'manifests.sdk.operatorframework.io/v2' },
      captured(),
    );
    const overlay = join(dir, 'config/manifests/kustomization.yaml');
    expect(readFileSync(overlay, 'utf8')).toBe(manifestsKustomization('memcached-operator', false));
    await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
    await runCreateWebhook(
      { dir, group: 'cache', version: 'v1', kind: 'Memcached', defaulting: true, make: false },
      captured(),
    );
    const text = readFileSync(overlay, 'utf8');
    expect(text).toBe(manifestsKustomization('memcached-operator', true));
    expect(text).toContain('\n    - op: remove\n      path: /spec/template/spec/volumes/0');
  });
});

describe('generate bundle reads flags as operator-sdk does', () => {
  it("takes an empty --default-channel (operator-sdk's Makefile passes `--default-channel=`) as none", async () => {
    const dir = newDir();
    mkdirSync(join(dir, 'in'), { recursive: true });
    copyFileSync(join(import.meta.dirname, 'parity/bundle-input.yaml'), join(dir, 'in/all.yaml'));
    await runGenerateBundle(
      { dir, inputDir: 'in', version: '0.0.1', package: 'memcached-operator', defaultChannel: '', quiet: true },
      captured(),
    );
    const annotations = readFileSync(join(dir, 'bundle/metadata/annotations.yaml'), 'utf8');
    expect(annotations).toContain('operators.operatorframework.io.bundle.channels.v1: alpha\n');
    expect(annotations).not.toContain('channel.default');
  });
});

describe('a CSV whose spec.version OLM cannot read', () => {
  it('stops generate bundle, with --version or without, and writes nothing', async () => {
    const dir = newDir();
    mkdirSync(join(dir, 'in'), { recursive: true });
    const input = readFileSync(join(import.meta.dirname, 'parity/bundle-input.yaml'), 'utf8');
    writeFileSync(join(dir, 'in/all.yaml'), input.replace('\n  version: 0.0.0\n', '\n  version: banana\n'));
    for (const version of [undefined, '0.0.2']) {
      await expect(
        runGenerateBundle(
          { dir, inputDir: 'in', package: 'memcached-operator', quiet: true, ...(version ? { version } : {}) },
          captured(),
        ),
      ).rejects.toThrow(
        [
          'generate bundle: ClusterServiceVersion memcached-operator.v0.0.0: spec.version "banana" is not a',
          'semantic version (Invalid character(s) found in major number "0banana"); write MAJOR.MINOR.PATCH,',
          'e.g. 0.0.1',
        ].join(' '),
      );
    }
    expect(existsSync(join(dir, 'bundle'))).toBe(false);
  });

  it('stops generate kustomize manifests at the base, naming the file', { timeout: 60_000 }, async () => {
    const dir = newDir();
    await runInit(
      { dir, domain: 'example.com', skipInstall: true, plugins: 'manifests.sdk.operatorframework.io/v2' },
      captured(),
    );
    await runKustomizeManifests({ dir, quiet: true }, captured());
    const base = join(dir, 'config/manifests/bases/memcached-operator.clusterserviceversion.yaml');
    const text = readFileSync(base, 'utf8');
    writeFileSync(base, text.replace(/\n {2}version: .*\n/, '\n  version: banana\n'));
    await expect(runKustomizeManifests({ dir, quiet: true }, captured())).rejects.toThrow(
      'config/manifests/bases/memcached-operator.clusterserviceversion.yaml: spec.version "banana" is not a semantic version (Invalid character(s) found in major number "0banana")',
    );
    expect(readFileSync(base, 'utf8')).toContain('\n  version: banana\n');
  });
});

describe('bad input to the OLM commands', () => {
  const dir = newDir();
  const project = runInit({ dir, domain: 'example.com', skipInstall: true }, captured());

  it.each([
    [
      { version: 'v0.0.1' },
      "--version: 'v0.0.1' is not a semantic version (MAJOR.MINOR.PATCH, e.g. 0.0.1, no leading 'v'); OLM orders bundles by it",
    ],
    [{ version: '1.2' }, "--version: '1.2' is not a semantic version"],
    [{ channels: 'alpha,,beta' }, "--channels: 'alpha,,beta' has an empty channel name"],
    [{ channels: 'alpha', defaultChannel: 'stable' }, "--default-channel: 'stable' is not one of --channels (alpha)"],
    [{ package: 'Memcached_Operator' }, "--package: 'Memcached_Operator' is not a valid package name"],
    [{ outputDir: '../elsewhere' }, "--output-dir: '../elsewhere' must be a folder inside the project"],
  ])('generate bundle %o', async (flags, message) => {
    await project;
    await expect(runGenerateBundle({ dir, ...flags }, captured())).rejects.toThrow(message);
    expect(existsSync(join(dir, 'bundle'))).toBe(false);
    expect(existsSync(join(dir, 'bundle.Dockerfile'))).toBe(false);
  });

  it('generate kustomize manifests outside a project', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    await expect(runKustomizeManifests({ dir: empty }, captured())).rejects.toThrow(
      `generate kustomize manifests: ${empty} is not a tsop project (no PROJECT file)`,
    );
  });

  it('bundle validate on a folder that is not a bundle', async () => {
    await project;
    await expect(runBundleValidate(dir, {}, captured())).rejects.toThrow(
      `bundle validate: ${dir} has no metadata/ folder with annotations.yaml, so it is not a bundle`,
    );
    await expect(runBundleValidate(undefined, {}, captured())).rejects.toThrow(
      'bundle validate: a bundle directory is required',
    );
    await expect(runBundleValidate(dir, { output: 'yaml' }, captured())).rejects.toThrow(
      "--output: 'yaml' is not a format; use 'text' or 'json-alpha1'",
    );
    await expect(runBundleValidate(dir, { selectOptional: 'suite=operatorhub' }, captured())).rejects.toThrow(
      '--select-optional: selector "suite=operatorhub" does not match any validator labels',
    );
  });

  it('scorecard with a bad flag', async () => {
    await expect(runScorecard(dir, { output: 'xunit' }, captured())).rejects.toThrow(
      "--output: 'xunit' is not a format; use 'text' or 'json'",
    );
    await expect(runScorecard(dir, { waitTime: 'soon' }, captured())).rejects.toThrow(
      "--wait-time: 'soon' is not a number of seconds above 0",
    );
  });

  it('lists the optional validators', async () => {
    const io = captured();
    await runBundleValidate(undefined, { listOptional: true }, io);
    expect(io.stdout).toMatch(/^NAME\s+LABELS\s+DESCRIPTION\n/);
    expect(io.stdout).toMatch(/good-practices\s+name=good-practices/);
    expect(io.stdout).toMatch(/\n\s+suite=operatorframework/);
  });
});
