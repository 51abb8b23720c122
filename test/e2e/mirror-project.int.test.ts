/**
 * A generated project's `npm test` on a machine with no control-plane binaries cached and a
 * download mirror in the real layout on loopback (runtime/envtest/testdata/mirror.ts): the
 * project's embedded harness downloads, checks and caches what its tests ask for (the deploy-image
 * controller test asks for the fuller plane) in setup-envtest's layout, and the tests pass.
 * `tsop envtest use` then finds everything there and asks the mirror nothing.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED_KUBE_VERSION, requireAssets } from '../../runtime/envtest/index.js';
import { startMirror, type Mirror } from '../../runtime/envtest/testdata/mirror.js';
import { skipReason } from '../../runtime/testing/control-plane.js';
import { MINUTES, scaffoldSeed, TSOP, type SeedProject } from './seeds/seed-project.js';

describe.skipIf(skipReason({ controllers: true }) !== undefined)(
  "a generated project's npm test with binaries from a mirror",
  () => {
    let mirror: Mirror;
    let project: SeedProject;
    const cache = mkdtempSync(join(tmpdir(), 'tsop-mirror-cache-'));
    // The machine's binaries are served, never used: the project must find none of its own.
    const env = (): Record<string, string> => ({
      ...mirror.env,
      TSOP_ASSETS_ROOT: cache,
      KUBEBUILDER_ASSETS: '',
      TEST_ASSET_ETCD: '',
      TEST_ASSET_KUBE_APISERVER: '',
    });

    beforeAll(async () => {
      mirror = await startMirror({
        binaries: join(requireAssets(undefined, process.env, { controllers: true }).kubeApiserver, '..'),
        version: PINNED_KUBE_VERSION,
      });
      project = await scaffoldSeed({
        name: 'memcached-operator',
        init: ['--domain', 'example.com'],
        apis: [
          [
            '--group',
            'cache',
            '--version',
            'v1alpha1',
            '--kind',
            'Memcached',
            '--plugins',
            'deploy-image/v1-alpha',
            '--image',
            'memcached:1.6.26-alpine',
            '--image-container-port',
            '11211',
          ],
        ],
      });
    }, 5 * MINUTES);

    afterAll(async () => {
      await mirror?.close();
      rmSync(cache, { recursive: true, force: true });
    });

    it(
      'downloads, checks and caches the binaries its tests need, and passes',
      async () => {
        const test = await project.run('npm', ['test'], env());
        expect(test.exitCode, test.all).toBe(0);
        expect(test.all).toMatch(/Tests\s+5 passed/);
        expect(test.all).toMatch(
          /\[envtest\] installed etcd, kube-apiserver, kubectl, kube-controller-manager, kube-scheduler, kwok in /,
        );
        const dir = join(cache, 'k8s', `${PINNED_KUBE_VERSION}-linux-amd64`);
        expect(readdirSync(dir).sort()).toEqual([
          'etcd',
          'kube-apiserver',
          'kube-controller-manager',
          'kube-scheduler',
          'kubectl',
          'kwok',
        ]);
        // Fetched once each.
        const got = (suffix: string): number =>
          mirror.requests.filter((r) => r.path.endsWith(suffix) && r.status < 300).length;
        expect([
          got('.tar.gz'),
          got('/kube-controller-manager'),
          got('/kube-scheduler'),
          got('/kwok-linux-amd64'),
        ]).toEqual([1, 1, 1, 1]);
      },
      10 * MINUTES,
    );

    it(
      'tsop envtest use --fuller then finds them in the cache and asks the mirror nothing',
      async () => {
        const asked = mirror.requests.length;
        const use = await execa(
          process.execPath,
          [join(TSOP, 'bin/tsop.js'), 'envtest', 'use', '--fuller', '-p', 'path'],
          { env: { ...process.env, ...env() }, all: true, reject: false },
        );
        expect(use.exitCode, use.all).toBe(0);
        expect(use.stdout).toBe(join(cache, 'k8s', `${PINNED_KUBE_VERSION}-linux-amd64`));
        expect(mirror.requests.length).toBe(asked);
      },
      2 * MINUTES,
    );
  },
);
