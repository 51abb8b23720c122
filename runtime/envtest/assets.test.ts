import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateAssets, PINNED_KUBE_VERSION, requireAssets } from './assets.js';

function fakeBinaries(dir: string, names = ['etcd', 'kube-apiserver']): string {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;

describe('locating control-plane binaries', () => {
  it('honours KUBEBUILDER_ASSETS', () => {
    const dir = fakeBinaries(mkdtempSync(join(tmpdir(), 'assets-')), ['etcd', 'kube-apiserver', 'kubectl']);
    const found = locateAssets(undefined, { KUBEBUILDER_ASSETS: dir });
    expect(found).toMatchObject({ etcd: join(dir, 'etcd'), kubeApiserver: join(dir, 'kube-apiserver'), kubectl: join(dir, 'kubectl') });
  });

  it('honours per-binary TEST_ASSET_* variables before KUBEBUILDER_ASSETS', () => {
    const dir = fakeBinaries(mkdtempSync(join(tmpdir(), 'assets-')));
    const other = fakeBinaries(mkdtempSync(join(tmpdir(), 'assets-')));
    const found = locateAssets(undefined, {
      TEST_ASSET_ETCD: join(dir, 'etcd'),
      TEST_ASSET_KUBE_APISERVER: join(dir, 'kube-apiserver'),
      KUBEBUILDER_ASSETS: other,
    });
    expect(found?.etcd).toBe(join(dir, 'etcd'));
  });

  it('prefers the pinned version in the setup-envtest cache layout, else the newest', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-root-'));
    fakeBinaries(join(root, 'k8s', `1.99.0-${platform}`));
    fakeBinaries(join(root, 'k8s', `1.30.0-${platform}`));
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })?.source).toBe(join(root, 'k8s', `1.99.0-${platform}`));
    fakeBinaries(join(root, 'k8s', `${PINNED_KUBE_VERSION}-${platform}`));
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })?.source).toBe(join(root, 'k8s', `${PINNED_KUBE_VERSION}-${platform}`));
  });

  it('skips incomplete directories', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-root-'));
    fakeBinaries(join(root, 'k8s', `1.40.0-${platform}`), ['etcd']);
    expect(locateAssets(undefined, { TSOP_ASSETS_ROOT: root })).toBeUndefined();
  });

  it('explains how to get the binaries when none are found', () => {
    const empty = mkdtempSync(join(tmpdir(), 'assets-none-'));
    expect(() => requireAssets(undefined, { KUBEBUILDER_ASSETS: empty })).toThrow(
      `etcd and kube-apiserver not found in KUBEBUILDER_ASSETS=${empty}; build them with 'bash scripts/control-plane.sh'`,
    );
  });
});
