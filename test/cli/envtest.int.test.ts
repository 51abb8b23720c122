/**
 * `tsop envtest` from the built CLI against a mirror on loopback in the real layout: `use`
 * downloads the envtest trio and, with --fuller, the rest, printing where they are (`-p path`,
 * `-p env`); `list` and `cleanup` see and remove them. A wrong checksum and an unreachable host
 * end with exit 1 and one error line (the latter naming --source), with nothing installed.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED_KUBE_VERSION, requireAssets } from '../../runtime/envtest/index.js';
import { startMirror, type Mirror } from '../../runtime/envtest/testdata/mirror.js';
import { skipReason } from '../../runtime/testing/control-plane.js';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'tsop-envtest-cli-'));

describe.skipIf(skipReason({ controllers: true }) !== undefined)('tsop envtest (built CLI)', () => {
  let mirror: Mirror;
  const root = join(scratch, 'cache');
  const dir = join(root, 'k8s', `${PINNED_KUBE_VERSION}-linux-amd64`);
  // No Go on PATH: an unreachable host must not turn into a build from source here.
  const path = dirname(process.execPath);
  const tsop = (args: string[], extra: Record<string, string> = {}) =>
    execa(process.execPath, [bin, 'envtest', ...args], {
      env: { PATH: path, HOME: scratch, ...mirror.env, TSOP_ASSETS_ROOT: root, ...extra },
      extendEnv: false,
      reject: false,
    });

  beforeAll(async () => {
    mirror = await startMirror({
      binaries: dirname(requireAssets(undefined, process.env, { controllers: true }).kubeApiserver),
      version: PINNED_KUBE_VERSION,
    });
  }, 180_000);

  afterAll(async () => {
    await mirror?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('use downloads the envtest trio and prints where it is; --fuller adds the rest; list and cleanup see them', async () => {
    const use = await tsop(['use']);
    expect(use.exitCode, use.stderr).toBe(0);
    expect(use.stdout.split('\n')[0]).toBe(
      `envtest ${PINNED_KUBE_VERSION} (linux/amd64): etcd, kube-apiserver, kubectl`,
    );
    expect(use.stdout).toContain(`path: ${dir}`);
    expect(use.stderr).toMatch(/^tsop: downloading etcd, kube-apiserver, kubectl /);

    const fuller = await tsop(['use', '--fuller', '-p', 'path']);
    expect(fuller.exitCode, fuller.stderr).toBe(0);
    expect(fuller.stdout).toBe(dir);
    expect(readdirSync(dir).sort()).toEqual([
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kube-scheduler',
      'kubectl',
      'kwok',
    ]);
    expect((await tsop(['use', '-i', '-p', 'env'])).stdout).toBe(`export KUBEBUILDER_ASSETS='${dir}'`);

    const list = await tsop(['list']);
    expect(list.stdout).toBe(`(installed)  v${PINNED_KUBE_VERSION}  linux/amd64  fuller  ${dir}`);
    const cleanup = await tsop(['cleanup']);
    expect(cleanup.stdout).toBe(`removed ${dir}`);
    expect((await tsop(['list', '-i'])).stderr).toMatch(/^tsop: nothing installed in /);
  }, 180_000);

  it('refuses a download whose checksum is wrong: exit 1, one line, nothing installed', async () => {
    mirror.fault(mirror.archiveName, { corrupt: true });
    try {
      const use = await tsop(['use']);
      expect(use.exitCode).toBe(1);
      const errors = use.stderr.split('\n').filter((l) => l.startsWith('tsop: envtest use:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^tsop: envtest use: refused http:\/\/127\.0\.0\.1:\d+\/\S+\.tar\.gz: its sha512 is [0-9a-f]{128}, but the published checksum is [0-9a-f]{128}; nothing was installed/,
      );
      expect(readdirSync(join(root, 'k8s')).filter((e) => !e.startsWith('.'))).toEqual([]);
    } finally {
      mirror.fault(mirror.archiveName, undefined);
    }
  }, 120_000);

  it('says in one line that the index is unreachable, naming the --source fallback', async () => {
    const use = await tsop(['use'], { TSOP_ENVTEST_INDEX_URL: 'http://127.0.0.1:9/envtest-releases.yaml' });
    expect(use.exitCode).toBe(1);
    expect(use.stderr).toBe(
      'tsop: envtest use: http://127.0.0.1:9/envtest-releases.yaml is unreachable (ECONNREFUSED: ' +
        'connect ECONNREFUSED 127.0.0.1:9): no network, or a host you cannot reach from here; ' +
        "point TSOP_ENVTEST_INDEX_URL at a mirror, or build them from source instead with 'npx " +
        "tsop envtest use --source' (needs Go 1.26+)",
    );
  }, 60_000);
});
