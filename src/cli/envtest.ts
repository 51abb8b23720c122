/**
 * `tsop envtest use | list | cleanup`: setup-envtest's commands for tsop's control-plane binaries.
 * `use` downloads (checked) what the cache lacks into setup-envtest's layout, the fuller plane's
 * binaries too with --fuller, and builds from the Go module proxy instead with --source or when
 * the download hosts cannot be reached and Go is installed. The download code is
 * runtime/envtest/download (TypeScript source, loaded as `manifests --verify` loads the harness).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError, UserError } from '../errors.js';
import { buildFromSource, CONTROL_PLANE_SCRIPT, goInstalled } from '../envtest/source-build.js';
import { loadRuntimeModule } from '../verify/plane.js';
import { TSOP_ROOT } from '../version.js';
import type { CommandIO } from './io.js';
import { stdio } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { ENVTEST_LIST_FLAGS, ENVTEST_SOURCE_FLAGS, ENVTEST_USE_FLAGS } from './command-flags.js';

/** The flags every `tsop envtest` command takes: the base URLs (one per SOURCE_SETTINGS row). */
export type EnvtestSourceFlags = FlagsOf<typeof ENVTEST_SOURCE_FLAGS>;

export type EnvtestUseFlags = FlagsOf<typeof ENVTEST_USE_FLAGS>;

export type EnvtestListFlags = FlagsOf<typeof ENVTEST_LIST_FLAGS>;

/** runtime/envtest/download's DownloadSources: the base URLs. */
export interface Sources {
  indexUrl: string;
  archiveUrl: string | undefined;
  kubernetesUrl: string;
  kwokUrl: string;
  kwokApiUrl: string;
}

/** The parts of runtime/envtest/download and runtime/envtest/assets this command uses (test/cli checks they fit). */
export interface DownloadModule {
  installBinaries(req: {
    version?: string;
    fuller?: boolean;
    root: string;
    sources: Sources;
    pinned: string;
    log?: (line: string) => void;
    githubToken?: string;
  }): Promise<{ dir: string; version: string; fetched: string[] }>;
  installedVersions(
    root: string,
  ): Array<{ version: string; os: string; arch: string; dir: string; binaries: string[] }>;
  removeVersions(root: string, spec: string | undefined): string[];
  downloadSources(env?: NodeJS.ProcessEnv, overrides?: Partial<Record<keyof Sources, string>>): Sources;
  parseReleaseIndex(text: string, source: string): Array<{ version: string; os: string; arch: string }>;
  versionsFor(
    archives: Array<{ version: string; os: string; arch: string }>,
    platform: { os: string; arch: string },
  ): string[];
  hostPlatform(): { os: string; arch: string };
  fetchText(url: string): Promise<string>;
  isDownloadProblem(error: unknown): error is Error;
  downloadFailureLine(error: unknown, sources: Sources, fallback?: string): string;
  isUnreachable(error: unknown): boolean;
  ENVTEST_BINARIES: readonly string[];
  FULLER_BINARIES: readonly string[];
}
export interface AssetsModule {
  assetsCacheRoot(env?: NodeJS.ProcessEnv): string;
  PINNED_KUBE_VERSION: string;
}

const DOWNLOAD = pathToFileURL(join(TSOP_ROOT, 'runtime/envtest/download/index.ts'));
const ASSETS = pathToFileURL(join(TSOP_ROOT, 'runtime/envtest/assets.ts'));
const PRINT_FORMATS = ['overview', 'path', 'env'];

interface Loaded {
  download: DownloadModule;
  assets: AssetsModule;
  root: string;
  sources: Sources;
}

async function load(flags: EnvtestSourceFlags): Promise<Loaded> {
  const download = await loadRuntimeModule<DownloadModule>(DOWNLOAD, process.cwd(), 'envtest');
  const assets = await loadRuntimeModule<AssetsModule>(ASSETS, process.cwd(), 'envtest');
  const overrides: Partial<Record<keyof Sources, string>> = {};
  const byField: Array<[keyof Sources, string | undefined]> = [
    ['indexUrl', flags.index],
    ['archiveUrl', flags.archiveUrl],
    ['kubernetesUrl', flags.kubernetesUrl],
    ['kwokUrl', flags.kwokUrl],
    ['kwokApiUrl', flags.kwokApiUrl],
  ];
  for (const [field, value] of byField) {
    if (value === undefined) continue;
    if (!/^https?:\/\/[^/]/.test(value))
      throw new UsageError(
        `envtest: ${value} is not an http(s) URL; pass the base URL of a mirror, e.g. https://mirror.example.com/envtest-releases.yaml`,
      );
    overrides[field] = value;
  }
  return {
    download,
    assets,
    root: assets.assetsCacheRoot(process.env),
    sources: download.downloadSources(process.env, overrides),
  };
}

export async function runEnvtestUse(
  version: string | undefined,
  given: EnvtestUseFlags,
  io: CommandIO = stdio,
): Promise<void> {
  const flags = checkFlags(ENVTEST_USE_FLAGS, given);
  const print = flags.print ?? 'overview';
  if (!PRINT_FORMATS.includes(print))
    throw new UsageError(`envtest use: --print ${print} is not one of ${PRINT_FORMATS.join(', ')}`);
  const { download, assets, root, sources } = await load(flags);
  const fuller = flags.fuller === true;
  const needed = [...download.ENVTEST_BINARIES, ...(fuller ? download.FULLER_BINARIES : [])];
  let dir: string;
  let resolved: string;
  if (flags.installedOnly) {
    const found = download
      .installedVersions(root)
      .find(
        (v) => matches(v.version, version, assets.PINNED_KUBE_VERSION) && needed.every((b) => v.binaries.includes(b)),
      );
    if (!found)
      throw new UserError(
        `envtest use -i: no ${version ?? assets.PINNED_KUBE_VERSION}${fuller ? ' (with the fuller plane)' : ''} in ${join(root, 'k8s')}; leave -i out to download it`,
      );
    ({ dir, version: resolved } = found);
  } else if (flags.source) {
    if (version !== undefined && !/^\d+\.\d+\.\d+$/.test(version.replace(/^v/, '')))
      throw new UsageError(
        `envtest use --source: ${version} is not an exact version; --source builds one release, e.g. 1.36.3`,
      );
    resolved = version?.replace(/^v/, '') ?? assets.PINNED_KUBE_VERSION;
    dir = await fromSource(resolved, fuller, root, io);
  } else {
    try {
      const installed = await download.installBinaries({
        root,
        sources,
        pinned: assets.PINNED_KUBE_VERSION,
        fuller,
        log: (line) => io.err(`tsop: ${line}\n`),
        ...(version !== undefined ? { version } : {}),
        ...(process.env['GITHUB_TOKEN'] ? { githubToken: process.env['GITHUB_TOKEN'] } : {}),
      });
      ({ dir, version: resolved } = installed);
    } catch (error) {
      if (!download.isDownloadProblem(error)) throw error;
      if (!download.isUnreachable(error) || !goInstalled())
        throw new UserError(`envtest use: ${download.downloadFailureLine(error, sources)}`);
      io.err(`tsop: ${error.message}; building from source instead (Go is installed)\n`);
      resolved = version?.replace(/^v/, '') ?? assets.PINNED_KUBE_VERSION;
      if (!/^\d+\.\d+\.\d+$/.test(resolved))
        throw new UserError(
          `envtest use: ${error.message}, and ${version} is not an exact version to build from source; name one, e.g. ${assets.PINNED_KUBE_VERSION}`,
        );
      dir = await fromSource(resolved, fuller, root, io);
    }
  }
  if (print === 'path') return io.out(`${dir}\n`);
  if (print === 'env') return io.out(`export KUBEBUILDER_ASSETS='${dir}'\n`);
  const have = download.installedVersions(root).find((v) => v.dir === dir)?.binaries ?? needed;
  io.out(`envtest ${resolved} (${platformText(download)}): ${have.join(', ')}\n`);
  io.out(`path: ${dir}\n`);
  io.out(`tsop's tests, tsop dev and the demo find them there; other tools: export KUBEBUILDER_ASSETS='${dir}'\n`);
}

/** scripts/control-plane.sh for one exact version; its progress goes to stderr as it comes. */
async function fromSource(version: string, fuller: boolean, root: string, io: CommandIO): Promise<string> {
  if (!goInstalled())
    throw new UsageError(
      `envtest: --source builds with Go, which is not installed here; install Go 1.26+ (or leave --source out to download the binaries)`,
    );
  io.err(
    `tsop: building ` +
      `${fuller ? 'etcd, kube-apiserver, kubectl, kube-controller-manager, kube-scheduler and kwok' : 'etcd, kube-apiserver and kubectl'} ` +
      `${version} from the Go module proxy (bash ${CONTROL_PLANE_SCRIPT}; minutes)\n`,
  );
  return buildFromSource({ version, fuller, root });
}

function matches(installed: string, asked: string | undefined, pinned: string): boolean {
  const want = (asked ?? pinned).replace(/^v/, '').replace(/\.x$/, '');
  return installed === want || installed.startsWith(`${want}.`);
}

const platformText = (download: DownloadModule): string =>
  `${download.hostPlatform().os}/${download.hostPlatform().arch}`;

export async function runEnvtestList(given: EnvtestListFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(ENVTEST_LIST_FLAGS, given);
  const { download, root, sources } = await load(flags);
  const installed = download.installedVersions(root);
  const fullerTag = (bins: string[]): string =>
    download.FULLER_BINARIES.every((b) => bins.includes(b))
      ? 'fuller'
      : download.ENVTEST_BINARIES.every((b) => bins.includes(b))
        ? 'envtest'
        : 'partial';
  for (const v of installed)
    io.out(`(installed)  v${v.version}  ${v.os}/${v.arch}  ${fullerTag(v.binaries)}  ${v.dir}\n`);
  if (flags.installedOnly) {
    if (installed.length === 0)
      io.err(`tsop: nothing installed in ${join(root, 'k8s')}; 'tsop envtest use' downloads the binaries\n`);
    return;
  }
  try {
    const archives = download.parseReleaseIndex(await download.fetchText(sources.indexUrl), sources.indexUrl);
    const have = new Set(installed.map((v) => v.version));
    for (const v of download.versionsFor(archives, download.hostPlatform()))
      if (!have.has(v)) io.out(`(available)  v${v}  ${platformText(download)}\n`);
  } catch (error) {
    if (!download.isDownloadProblem(error)) throw error;
    io.err(`tsop: warning: ${download.downloadFailureLine(error, sources)}; only installed versions are listed\n`);
  }
}

export async function runEnvtestCleanup(
  version: string | undefined,
  given: EnvtestSourceFlags,
  io: CommandIO = stdio,
): Promise<void> {
  const flags = checkFlags(ENVTEST_SOURCE_FLAGS, given);
  const { download, root } = await load(flags);
  let removed: string[];
  try {
    removed = download.removeVersions(root, version);
  } catch (error) {
    throw new UsageError(`envtest cleanup: ${(error as Error).message}`);
  }
  if (removed.length === 0) io.out(`nothing to remove in ${join(root, 'k8s')}${version ? ` for ${version}` : ''}\n`);
  for (const r of removed) io.out(`removed ${r}\n`);
}
