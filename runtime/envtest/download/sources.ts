/**
 * Where control-plane binaries are downloaded from: the places their makers publish them, each
 * base URL overridable by an environment variable (and, in `tsop envtest`, a flag of the same
 * table), so a company can point every download at its own mirror.
 *
 * - etcd, kube-apiserver, kubectl: setup-envtest's release index (controller-tools'
 *   envtest-releases.yaml), whose entries name a .tar.gz per version and platform with its sha512;
 * - kube-controller-manager, kube-scheduler: the Kubernetes release binaries,
 *   `<base>/v<version>/bin/<os>/<arch>/<name>`, each with `<name>.sha256` beside it;
 * - kwok: its GitHub release binary `<base>/v<version>/kwok-<os>-<arch>`, checked against the
 *   sha256 digest GitHub publishes for each release asset (`<api>/releases/tags/v<version>`), or a
 *   `.sha256` file beside the binary where a mirror serves one.
 */

export interface DownloadSources {
  /** setup-envtest's index (YAML: releases → version → archive name → hash, selfLink). */
  indexUrl: string;
  /** When set, archives come from `<archiveUrl>/envtest-v<version>/<archive>` instead of the index's selfLink. */
  archiveUrl: string | undefined;
  /** Kubernetes release binaries: `<kubernetesUrl>/v<version>/bin/<os>/<arch>/<name>`. */
  kubernetesUrl: string;
  /** kwok release binaries: `<kwokUrl>/v<version>/kwok-<os>-<arch>`. */
  kwokUrl: string;
  /** kwok's releases API (GitHub's): `<kwokApiUrl>/releases/tags/v<version>` lists each asset's digest. */
  kwokApiUrl: string;
}

export interface SourceSetting {
  field: keyof DownloadSources;
  env: string;
  flag: string;
  default: string | undefined;
  help: string;
}

/** One row per base URL: its variable, its `tsop envtest` flag, its default and what it serves. */
export const SOURCE_SETTINGS: readonly SourceSetting[] = [
  {
    field: 'indexUrl',
    env: 'TSOP_ENVTEST_INDEX_URL',
    flag: 'index',
    default: 'https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml',
    help: "setup-envtest's release index (etcd, kube-apiserver, kubectl archives with their sha512)",
  },
  {
    field: 'archiveUrl',
    env: 'TSOP_ENVTEST_ARCHIVE_URL',
    flag: 'archive-url',
    default: undefined,
    help: "fetch the index's archives from <url>/envtest-v<version>/<archive> instead of each entry's selfLink",
  },
  {
    field: 'kubernetesUrl',
    env: 'TSOP_KUBERNETES_RELEASE_URL',
    flag: 'kubernetes-url',
    default: 'https://dl.k8s.io/release',
    help: 'Kubernetes release binaries (kube-controller-manager, kube-scheduler) with their .sha256',
  },
  {
    field: 'kwokUrl',
    env: 'TSOP_KWOK_RELEASE_URL',
    flag: 'kwok-url',
    default: 'https://github.com/kubernetes-sigs/kwok/releases/download',
    help: 'kwok release binaries',
  },
  {
    field: 'kwokApiUrl',
    env: 'TSOP_KWOK_API_URL',
    flag: 'kwok-api-url',
    default: 'https://api.github.com/repos/kubernetes-sigs/kwok',
    help: "kwok's releases API, for the sha256 digest of each binary",
  },
];

/** Turns downloads off (`false`, `0`, `off`, `no`): binaries then come only from the cache or a Go build. */
export const DOWNLOAD_SWITCH_ENV = 'TSOP_ENVTEST_DOWNLOAD';

/** The kwok version downloaded and built (keep in step with scripts/control-plane.sh). */
export const PINNED_KWOK_VERSION = '0.7.0';

/** The sources from `env`, each overridden by `overrides` where given. */
export function downloadSources(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Record<keyof DownloadSources, string>> = {},
): DownloadSources {
  const pick = (s: SourceSetting): string | undefined =>
    trimSlash(overrides[s.field] ?? nonEmpty(env[s.env]) ?? s.default);
  const out = {} as Record<keyof DownloadSources, string | undefined>;
  for (const s of SOURCE_SETTINGS) out[s.field] = pick(s);
  return out as unknown as DownloadSources;
}

/** Whether any base URL is set in `env` (a mirror the user asked for). */
export function mirrorConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return SOURCE_SETTINGS.some((s) => nonEmpty(env[s.env]) !== undefined);
}

export function downloadsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(false|0|off|no)$/i.test(env[DOWNLOAD_SWITCH_ENV] ?? '');
}

const nonEmpty = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === '' ? undefined : v.trim();
const trimSlash = (v: string | undefined): string | undefined => v?.replace(/\/+$/, '');

export interface Platform {
  os: string;
  arch: string;
}

/** This machine in Go's names, as release file names spell it (linux/amd64, darwin/arm64). */
export function hostPlatform(): Platform {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return { os, arch };
}

/** setup-envtest's directory name for a version: `<version>-<os>-<arch>`. */
export function versionDirName(version: string, platform: Platform = hostPlatform()): string {
  return `${version}-${platform.os}-${platform.arch}`;
}
