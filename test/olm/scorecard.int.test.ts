/**
 * `tsop scorecard` on the tutorials' Memcached operator (deploy-image, defaulting and validating
 * webhooks, the CSV decorators of parity/memcached.ts.txt): scaffolded, its bundle generated with
 * `kubectl kustomize`, its CRDs installed and samples applied on the worker's control plane. Every
 * test of the basic and olm suites passes; with a sample that has no spec the command fails and
 * names olm-spec-descriptors (and basic-check-spec only suggests, as operator-sdk's does), and
 * olm-crds-have-validation reports that the API server refused the sample. Once, the built CLI runs
 * the same bundle on the control plane it starts itself, as a user's `tsop scorecard` does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runCreateWebhook } from '../../src/cli/create-webhook.js';
import { runGenerateBundle, runKustomizeManifests } from '../../src/cli/generate-olm.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { runScorecard } from '../../src/cli/scorecard.js';
import { scorecard, type PlaneStarter } from '../../src/olm/scorecard/run.js';
import { tlsOf } from '../../src/verify/plane.js';
import { captured } from '../scaffold/harness.js';

const PARITY = join(import.meta.dirname, 'parity');
const REPO = join(import.meta.dirname, '../..');

describeWithControlPlane('tsop scorecard on the Memcached operator', { shared: true }, (env) => {
  const work = mkdtempSync(join(tmpdir(), 'tsop-scorecard-'));
  const dir = join(work, 'memcached-operator');
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  // The worker's plane stands in for the embedded one; it outlives the suite, so stop does nothing.
  const plane: PlaneStarter = async () => ({
    server: env.cp.server,
    tls: tlsOf(env.cp.kubeconfigYaml),
    stop: async () => {},
  });
  const bundleEnv = () => ({
    ...process.env,
    KUBECTL: env.cp.assets.kubectl ?? 'kubectl',
    IMG: 'quay.io/example/memcached-operator:v0.0.1',
  });

  beforeAll(async () => {
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    await runCreateApi(
      {
        dir,
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        plugins: 'deploy-image/v1-alpha',
        image: 'memcached:1.6.26-alpine3.19',
        imageContainerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
        imageContainerPort: '11211',
        runAsUser: '1001',
        make: false,
      },
      captured(),
    );
    await runCreateWebhook(
      {
        dir,
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        defaulting: true,
        programmaticValidation: true,
        make: false,
      },
      captured(),
    );
    writeFileSync(join(dir, 'src/api/v1alpha1/memcached.ts'), readFileSync(join(PARITY, 'memcached.ts.txt'), 'utf8'));
    await runManifests({ dir }, { out: () => {}, err: () => {} });
    await runKustomizeManifests({ dir, quiet: true }, captured());
    await runGenerateBundle({ dir, version: '0.0.1', quiet: true }, captured(), bundleEnv());
  }, 120_000);

  it('passes every test of the basic and olm suites', async () => {
    const { items, passed } = await scorecard(join(dir, 'bundle'), {
      waitMs: 30_000,
      startPlane: plane,
      namespace: env.namespace,
    });
    const states = Object.fromEntries(items.map((i) => [i.status.results?.[0]?.name, i.status.results?.[0]?.state]));
    expect(states).toEqual({
      'basic-check-spec': 'pass',
      'olm-bundle-validation': 'pass',
      'olm-crds-have-validation': 'pass',
      'olm-crds-have-resources': 'pass',
      'olm-spec-descriptors': 'pass',
      'olm-status-descriptors': 'pass',
    });
    expect(passed).toBe(true);
  });

  it('passes through the built CLI, on the control plane it starts itself', async () => {
    const run = await execa(
      process.execPath,
      [join(REPO, 'bin/tsop.js'), 'scorecard', join(dir, 'bundle'), '-o', 'json'],
      { reject: false },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const list = JSON.parse(run.stdout) as {
      items: Array<{ status: { results: Array<{ name: string; state: string }> } }>;
    };
    expect(list.items.map((i) => i.status.results[0]?.state)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
  });

  it('fails and names olm-spec-descriptors when a sample has no spec', async () => {
    const sample = join(dir, 'config/samples/cache_v1alpha1_memcached.yaml');
    writeFileSync(sample, readFileSync(sample, 'utf8').replace(/^spec:[\s\S]*$/m, ''));
    await runGenerateBundle({ dir, version: '0.0.1', quiet: true }, captured(), bundleEnv());
    const io = captured();
    const run = runScorecard(join(dir, 'bundle'), { output: 'text' }, io, plane, await env.newNamespace());
    // The CRD requires spec, so the API server refuses the sample too: olm-crds-have-validation says so.
    await expect(run).rejects.toThrow(
      'scorecard: 2 tests did not pass: olm-crds-have-validation, olm-spec-descriptors',
    );
    expect(io.stdout).toContain('Name: olm-spec-descriptors\n\tState: fail');
    expect(io.stdout).toContain('memcached-sample has no spec block');
    expect(io.stdout).toContain('spec missing from [memcached-sample]');
    expect(io.stdout).toMatch(/memcached-sample: the API server refused it: .*spec/);
  });

  it('lists the tests a selector picks without running them', async () => {
    const io = captured();
    await runScorecard(join(dir, 'bundle'), { output: 'json', selector: 'suite=basic', list: true }, io, async () => {
      throw new Error('--list starts no control plane');
    });
    const list = JSON.parse(io.stdout) as { kind: string; items: Array<{ spec: { entrypoint: string[] } }> };
    expect(list.kind).toBe('TestList');
    expect(list.items.map((i) => i.spec.entrypoint)).toEqual([['scorecard-test', 'basic-check-spec']]);
  });
});
