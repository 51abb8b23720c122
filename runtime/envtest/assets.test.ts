import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateAssets, PINNED_KUBE_VERSION, requireAssets } from './assets.js';

function fakeBinaries(dir: string, names = ['etcd', 'kube-apiserver']): string {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

// Every temp dir of this file lives under one root, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'tsop-assets-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;

describe('locating control-plane binaries', () => {
  it('honours KUBEBUILDER_ASSETS', () => {
    const dir = fakeBinaries(mkdtempSync(join(scratch, 'assets-')), ['etcd', 'kube-apiserver', 'kubectl']);
    const found = locateAssets(undefined, { KUBEBUILDER_ASSETS: dir });
    expect(found).toMatchObject({
      etcd: join(dir, 'etcd'),
      kubeApiserver: join(dir, 'kube-apiserver'),
      kubectl: join(dir, 'kubectl'),
    });
  });

  it('honours per-binary TEST_ASSET_* variables before KUBEBUILDER_ASSETS', () => {
    const dir = fakeBinaries(mkdtempSync(join(scratch, 'assets-')));
    const other = fakeBinaries(mkdtempSync(join(scratch, 'assets-')));
    const found = locateAssets(undefined, {
      TEST_ASSET_ETCD: join(dir, 'etcd'),
      TEST_ASSET_KUBE_APISERVER: join(dir, 'kube-apiserver'),
      KUBEBUILDER_ASSETS: other,
    });
    expect(found?.etcd).toBe(join(dir, 'etcd'));
  });

  it('prefers the pinned version in the setup-envtest cache layout, else the newest', () => {
    const root = mkdtempSync(join(scratch, 'assets-root-'));
    fakeBinaries(join(root, 'k8s', `1.99.0-${platform}`));
    fakeBinaries(join(root, 'k8s', `1.30.0-${platform}`));
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })?.source).toBe(join(root, 'k8s', `1.99.0-${platform}`));
    fakeBinaries(join(root, 'k8s', `${PINNED_KUBE_VERSION}-${platform}`));
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })?.source).toBe(
      join(root, 'k8s', `${PINNED_KUBE_VERSION}-${platform}`),
    );
  });

  it('skips incomplete directories', () => {
    const root = mkdtempSync(join(scratch, 'assets-root-'));
    fakeBinaries(join(root, 'k8s', `1.40.0-${platform}`), ['etcd']);
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })).toBeUndefined();
  });

  it('explains how to get the binaries when none are found', () => {
    const empty = mkdtempSync(join(scratch, 'assets-none-'));
    expect(() => requireAssets(undefined, { KUBEBUILDER_ASSETS: empty })).toThrow(
      `etcd and kube-apiserver not found in KUBEBUILDER_ASSETS=${empty}; point it at a directory ` +
        `with both ('npx tsop envtest use -p path' downloads them and prints one), or unset it to ` +
        `use the cache`,
    );
  });
});

describe("locating the fuller plane's binaries", () => {
  const TRIO = ['etcd', 'kube-apiserver', 'kubectl'];
  const FULL = [...TRIO, 'kube-controller-manager', 'kube-scheduler', 'kwok'];
  const made: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(scratch, 'assets-full-'));
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('finds them next to kube-apiserver and requires them only when asked', () => {
    const dir = fakeBinaries(tempDir(), FULL);
    const found = locateAssets(undefined, { KUBEBUILDER_ASSETS: dir }, { controllers: true });
    expect(found).toMatchObject({
      kubeControllerManager: join(dir, 'kube-controller-manager'),
      kubeScheduler: join(dir, 'kube-scheduler'),
      kwok: join(dir, 'kwok'),
    });
    const trio = fakeBinaries(tempDir(), TRIO);
    expect(locateAssets(undefined, { KUBEBUILDER_ASSETS: trio })?.etcd).toBe(join(trio, 'etcd'));
    expect(locateAssets(undefined, { KUBEBUILDER_ASSETS: trio }, { controllers: true })).toBeUndefined();
  });

  it('lets TEST_ASSET_KUBE_CONTROLLER_MANAGER, _KUBE_SCHEDULER and _KWOK point anywhere', () => {
    const trio = fakeBinaries(tempDir(), TRIO);
    const extra = fakeBinaries(tempDir(), ['kcm', 'sched', 'kw']);
    const env = {
      KUBEBUILDER_ASSETS: trio,
      TEST_ASSET_KUBE_CONTROLLER_MANAGER: join(extra, 'kcm'),
      TEST_ASSET_KUBE_SCHEDULER: join(extra, 'sched'),
      TEST_ASSET_KWOK: join(extra, 'kw'),
    };
    expect(locateAssets(undefined, env, { controllers: true })).toMatchObject({
      kwok: join(extra, 'kw'),
      kubeScheduler: join(extra, 'sched'),
    });
  });

  it('takes a cached version with the fuller plane over the pinned one without it', () => {
    const root = tempDir();
    fakeBinaries(join(root, 'k8s', `${PINNED_KUBE_VERSION}-${platform}`), TRIO);
    fakeBinaries(join(root, 'k8s', `1.30.0-${platform}`), FULL);
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })?.source).toBe(
      join(root, 'k8s', `${PINNED_KUBE_VERSION}-${platform}`),
    );
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root }, { controllers: true })?.source).toBe(
      join(root, 'k8s', `1.30.0-${platform}`),
    );
  });

  it('names what is missing, the script and the variables when only the trio exists', () => {
    const trio = fakeBinaries(tempDir(), [...TRIO, 'kube-scheduler']);
    expect(() => requireAssets(undefined, { KUBEBUILDER_ASSETS: trio }, { controllers: true })).toThrow(
      `kube-controller-manager, kwok not found next to kube-apiserver (KUBEBUILDER_ASSETS=${trio}), and \`controllers: true\` needs them; ` +
        `get them into the cache with 'npx tsop envtest use --fuller' and use that directory ('-p path' prints it), or set TEST_ASSET_KUBE_CONTROLLER_MANAGER, TEST_ASSET_KWOK`,
    );
  });
});
