/**
 * Where the control-plane binaries are. Same conventions as envtest, so a setup-envtest user's
 * binaries are found as they are: an explicit directory, then TEST_ASSET_ETCD /
 * TEST_ASSET_KUBE_APISERVER / TEST_ASSET_KUBECTL, then KUBEBUILDER_ASSETS, then the cache that
 * scripts/control-plane.sh fills (setup-envtest's layout: <root>/k8s/<version>-<os>-<arch>/).
 * The fuller plane's binaries (kube-controller-manager, kube-scheduler, kwok) are looked for in
 * the same directory, each overridable by its own TEST_ASSET_* variable. When the cache lacks
 * what is needed, `ensureAssets` downloads it there (download/: setup-envtest's archives, the
 * Kubernetes and kwok release binaries, all checked), unless the user named a directory or turned
 * downloads off; scripts/control-plane.sh builds the same from source.
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  downloadFailureLine,
  downloadsEnabled,
  downloadSources,
  installBinaries,
  isDownloadProblem,
} from './download/index.js';

/** The Kubernetes version tsop is tested with (scripts/control-plane.sh builds it); preferred when several are cached. */
export const PINNED_KUBE_VERSION = '1.36.3';

export interface BinaryAssets {
  etcd: string;
  kubeApiserver: string;
  /** Present when the directory has one; the harness itself does not need it. */
  kubectl?: string;
  /** The fuller plane's binaries, present when found (see FULL_PLANE_BINARIES). */
  kubeControllerManager?: string;
  kubeScheduler?: string;
  kwok?: string;
  /** Where they were found, for messages. */
  source: string;
}

export interface AssetRequirements {
  /** Also require kube-controller-manager, kube-scheduler and kwok. */
  controllers?: boolean;
}

/** The fuller plane's binaries: file name, field, and the variable that overrides each. */
export const FULL_PLANE_BINARIES = [
  { file: 'kube-controller-manager', field: 'kubeControllerManager', env: 'TEST_ASSET_KUBE_CONTROLLER_MANAGER' },
  { file: 'kube-scheduler', field: 'kubeScheduler', env: 'TEST_ASSET_KUBE_SCHEDULER' },
  { file: 'kwok', field: 'kwok', env: 'TEST_ASSET_KWOK' },
] as const;

/** The fuller plane's binaries missing from `assets`, by file name. */
export function missingFullPlaneBinaries(assets: BinaryAssets): string[] {
  return FULL_PLANE_BINARIES.filter((b) => !assets[b.field]).map((b) => b.file);
}

function withFullPlane(assets: BinaryAssets, dir: string | undefined, env: NodeJS.ProcessEnv): BinaryAssets {
  const out: BinaryAssets = { ...assets };
  for (const b of FULL_PLANE_BINARIES) {
    const path = env[b.env] ?? (dir === undefined ? undefined : join(dir, b.file));
    if (path !== undefined && executable(path)) out[b.field] = path;
  }
  return out;
}

// Not a type guard on purpose: a false answer does not mean "undefined".
const satisfies = (assets: BinaryAssets | undefined, needs: AssetRequirements): boolean =>
  assets !== undefined && (!needs.controllers || missingFullPlaneBinaries(assets).length === 0);

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

function fromCache(env: NodeJS.ProcessEnv, needs: AssetRequirements): BinaryAssets | undefined {
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
  let trioOnly: BinaryAssets | undefined;
  for (const version of versions) {
    const dir = join(k8s, version);
    const found = fromDirectory(dir, dir);
    const full = found && withFullPlane(found, dir, env);
    if (full && satisfies(full, needs)) return full;
    trioOnly ??= full;
  }
  // For the error message: the trio was found, the fuller plane was not.
  return trioOnly;
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

/** Whatever is found, complete or not: the trio, plus the fuller plane's binaries that exist. */
function lookUp(
  directory: string | undefined,
  env: NodeJS.ProcessEnv,
  needs: AssetRequirements,
): BinaryAssets | undefined {
  if (directory) {
    const found = fromDirectory(directory, directory);
    return found && withFullPlane(found, directory, env);
  }
  if (env.TEST_ASSET_ETCD && env.TEST_ASSET_KUBE_APISERVER) {
    if (executable(env.TEST_ASSET_ETCD) && executable(env.TEST_ASSET_KUBE_APISERVER)) {
      const found: BinaryAssets = {
        etcd: env.TEST_ASSET_ETCD,
        kubeApiserver: env.TEST_ASSET_KUBE_APISERVER,
        source: 'TEST_ASSET_ETCD/TEST_ASSET_KUBE_APISERVER',
        ...(env.TEST_ASSET_KUBECTL ? { kubectl: env.TEST_ASSET_KUBECTL } : {}),
      };
      return withFullPlane(found, undefined, env);
    }
    return undefined;
  }
  if (env.KUBEBUILDER_ASSETS) {
    const found = fromDirectory(env.KUBEBUILDER_ASSETS, `KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS}`);
    return found && withFullPlane(found, env.KUBEBUILDER_ASSETS, env);
  }
  return fromCache(env, needs);
}

/** Finds the binaries `needs` asks for or returns undefined; never throws. */
export function locateAssets(
  directory?: string,
  env: NodeJS.ProcessEnv = process.env,
  needs: AssetRequirements = {},
): BinaryAssets | undefined {
  const found = lookUp(directory, env, needs);
  return found && satisfies(found, needs) ? found : undefined;
}

/** Finds the binaries or throws an error that says how to get them. */
export function requireAssets(
  directory?: string,
  env: NodeJS.ProcessEnv = process.env,
  needs: AssetRequirements = {},
): BinaryAssets {
  const found = lookUp(directory, env, needs);
  if (found && satisfies(found, needs)) return found;
  if (found) {
    const missing = missingFullPlaneBinaries(found);
    const get = mayDownload(directory, env)
      ? "get them with 'npx tsop envtest use --fuller' (downloads; --source builds them with Go)"
      : "get them into the cache with 'npx tsop envtest use --fuller' and use that directory ('-p path' prints it)";
    throw new ControlPlaneAssetsMissingError(
      `${missing.join(', ')} not found next to kube-apiserver (${found.source}), and \`controllers: true\` needs them; ${get}, or set ` +
        FULL_PLANE_BINARIES.filter((b) => missing.includes(b.file))
          .map((b) => b.env)
          .join(', '),
    );
  }
  if (directory) {
    throw new ControlPlaneAssetsMissingError(
      `etcd and kube-apiserver not found in ${directory}; pass a directory with both ('npx tsop envtest use -p path' downloads them and prints one)`,
    );
  }
  if (env.KUBEBUILDER_ASSETS) {
    throw new ControlPlaneAssetsMissingError(
      `etcd and kube-apiserver not found in KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS}; point it at a directory with both ` +
        `('npx tsop envtest use -p path' downloads them and prints one), or unset it to use the cache`,
    );
  }
  throw new ControlPlaneAssetsMissingError(
    `etcd and kube-apiserver not found in ${join(assetsCacheRoot(env), 'k8s')}/<version>-<os>-<arch>/; get them with 'npx tsop envtest use' ` +
      `(downloads; --source builds them with Go) or point KUBEBUILDER_ASSETS at a directory with both (e.g. from setup-envtest)`,
  );
}

export interface EnsureOptions {
  /** Download progress, one line at a time (default: standard error). */
  progress?: (line: string) => void;
}

/**
 * Whether a missing binary may be downloaded into the cache: not when the user named where the
 * binaries are (a directory, TEST_ASSET_*, KUBEBUILDER_ASSETS; tsop writes nothing there), nor
 * with downloads switched off.
 */
export function mayDownload(directory: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    directory === undefined &&
    !env.TEST_ASSET_ETCD &&
    !env.TEST_ASSET_KUBE_APISERVER &&
    !env.KUBEBUILDER_ASSETS &&
    downloadsEnabled(env)
  );
}

/**
 * Finds the binaries `needs` asks for, downloading what the cache lacks when allowed
 * (`mayDownload`); throws ControlPlaneAssetsMissingError with one line saying what failed and how
 * to go on otherwise.
 */
export async function ensureAssets(
  directory?: string,
  env: NodeJS.ProcessEnv = process.env,
  needs: AssetRequirements = {},
  options: EnsureOptions = {},
): Promise<BinaryAssets> {
  const found = locateAssets(directory, env, needs);
  if (found || !mayDownload(directory, env)) return found ?? requireAssets(directory, env, needs);
  const sources = downloadSources(env);
  try {
    await installBinaries({
      root: assetsCacheRoot(env),
      sources,
      pinned: PINNED_KUBE_VERSION,
      fuller: needs.controllers === true,
      log: options.progress ?? ((line) => void process.stderr.write(`[envtest] ${line}\n`)),
      ...(env.GITHUB_TOKEN ? { githubToken: env.GITHUB_TOKEN } : {}),
    });
  } catch (error) {
    if (!isDownloadProblem(error)) throw error;
    const fallback = `build them from source instead with 'npx tsop envtest use${needs.controllers ? ' --fuller' : ''} --source' (needs Go 1.26+), or point KUBEBUILDER_ASSETS at binaries you have`;
    throw new ControlPlaneAssetsMissingError(
      `control-plane binaries missing and not downloaded: ${downloadFailureLine(error, sources, fallback)}`,
      { cause: error },
    );
  }
  return requireAssets(directory, env, needs);
}
