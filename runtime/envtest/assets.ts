/**
 * Where the control-plane binaries are. Same conventions as envtest, so a setup-envtest user's
 * binaries are found as they are: an explicit directory, then TEST_ASSET_ETCD /
 * TEST_ASSET_KUBE_APISERVER / TEST_ASSET_KUBECTL, then KUBEBUILDER_ASSETS, then the cache that
 * scripts/control-plane.sh fills (setup-envtest's layout: <root>/k8s/<version>-<os>-<arch>/).
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The Kubernetes version scripts/control-plane.sh builds; preferred when several are cached. */
export const PINNED_KUBE_VERSION = '1.36.3';

export interface BinaryAssets {
  etcd: string;
  kubeApiserver: string;
  /** Present when the directory has one; the harness itself does not need it. */
  kubectl?: string;
  /** Where they were found, for messages. */
  source: string;
}

export class ControlPlaneAssetsMissingError extends Error {
  override readonly name = 'ControlPlaneAssetsMissingError';
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function fromDirectory(dir: string, source: string): BinaryAssets | undefined {
  const etcd = join(dir, 'etcd');
  const kubeApiserver = join(dir, 'kube-apiserver');
  if (!executable(etcd) || !executable(kubeApiserver)) return undefined;
  const kubectl = join(dir, 'kubectl');
  return { etcd, kubeApiserver, source, ...(executable(kubectl) ? { kubectl } : {}) };
}

/** The root scripts/control-plane.sh writes to (keep in step with the script). */
export function assetsCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.TSOP_ASSETS_ROOT ?? join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'kubebuilder-envtest');
}

function fromCache(env: NodeJS.ProcessEnv): BinaryAssets | undefined {
  const k8s = join(assetsCacheRoot(env), 'k8s');
  let entries: string[];
  try {
    entries = readdirSync(k8s);
  } catch {
    return undefined;
  }
  const platform = `-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const versions = entries
    .filter((e) => e.endsWith(platform))
    .sort((a, b) => compareVersions(b, a))
    .sort((a, b) => Number(b.startsWith(`${PINNED_KUBE_VERSION}-`)) - Number(a.startsWith(`${PINNED_KUBE_VERSION}-`)));
  for (const version of versions) {
    const found = fromDirectory(join(k8s, version), join(k8s, version));
    if (found) return found;
  }
  return undefined;
}

function compareVersions(a: string, b: string): number {
  const parse = (v: string): number[] => (v.split('-')[0] ?? '').split('.').map((n) => Number(n) || 0);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Finds the binaries or returns undefined; never throws. */
export function locateAssets(directory?: string, env: NodeJS.ProcessEnv = process.env): BinaryAssets | undefined {
  if (directory) return fromDirectory(directory, directory);
  if (env.TEST_ASSET_ETCD && env.TEST_ASSET_KUBE_APISERVER) {
    if (executable(env.TEST_ASSET_ETCD) && executable(env.TEST_ASSET_KUBE_APISERVER)) {
      return {
        etcd: env.TEST_ASSET_ETCD,
        kubeApiserver: env.TEST_ASSET_KUBE_APISERVER,
        source: 'TEST_ASSET_ETCD/TEST_ASSET_KUBE_APISERVER',
        ...(env.TEST_ASSET_KUBECTL ? { kubectl: env.TEST_ASSET_KUBECTL } : {}),
      };
    }
    return undefined;
  }
  if (env.KUBEBUILDER_ASSETS) return fromDirectory(env.KUBEBUILDER_ASSETS, `KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS}`);
  return fromCache(env);
}

/** Finds the binaries or throws an error that says how to get them. */
export function requireAssets(directory?: string, env: NodeJS.ProcessEnv = process.env): BinaryAssets {
  const found = locateAssets(directory, env);
  if (found) return found;
  const where = directory
    ? `in ${directory}`
    : env.KUBEBUILDER_ASSETS
      ? `in KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS}`
      : `in ${join(assetsCacheRoot(env), 'k8s')}/<version>-<os>-<arch>/`;
  throw new ControlPlaneAssetsMissingError(
    `etcd and kube-apiserver not found ${where}; build them with 'bash scripts/control-plane.sh' (needs Go) ` +
      `or point KUBEBUILDER_ASSETS at a directory with both (e.g. from setup-envtest)`,
  );
}
