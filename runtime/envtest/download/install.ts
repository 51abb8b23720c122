/**
 * Puts checked binaries into setup-envtest's cache layout, `<root>/k8s/<version>-<os>-<arch>/`,
 * so setup-envtest and tsop share one cache: the envtest trio from its release archive, then
 * (with `fuller`) kube-controller-manager, kube-scheduler and kwok one by one. Nothing partial
 * is ever visible there: downloads land in `<root>/k8s/.tsop-downloads/` (where a cut download
 * is resumed by the next run), are checked against their published digests, and only then move
 * in, a whole new directory or one file at a time, each by a rename. One process per directory
 * at a time (lock.ts); the others wait and find the result.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveError, extractTarGz } from './tar.js';
import { acquireLock } from './lock.js';
import { DownloadFailedError, DownloadUnreachableError, downloadFile, fetchText, type Digest } from './fetch.js';
import {
  chooseArchive,
  parseReleaseIndex,
  parseVersionRequest,
  satisfiesRequest,
  versionsFor,
  type EnvtestArchive,
} from './release-index.js';
import { hostPlatform, PINNED_KWOK_VERSION, versionDirName, type DownloadSources, type Platform } from './sources.js';
import { installedVersions } from './store.js';

export const ENVTEST_BINARIES = ['etcd', 'kube-apiserver', 'kubectl'] as const;
export const FULLER_BINARIES = ['kube-controller-manager', 'kube-scheduler', 'kwok'] as const;

export interface InstallRequest {
  /** Exact (1.36.2), a minor (1.36, 1.36.x) or `latest`; default: `pinned`, else the newest patch of its minor. */
  version?: string;
  /** Also kube-controller-manager, kube-scheduler and kwok. */
  fuller?: boolean;
  /** The cache root (`<root>/k8s/<version>-<os>-<arch>/`). */
  root: string;
  sources: DownloadSources;
  /** The version tsop is tested with. */
  pinned: string;
  kwokVersion?: string;
  platform?: Platform;
  /** Progress, one line at a time. */
  log?: (line: string) => void;
  /** Sent to GitHub's API only (raises its rate limit), e.g. from GITHUB_TOKEN. */
  githubToken?: string;
}

export interface InstallResult {
  dir: string;
  version: string;
  /** The binaries this call downloaded (empty when all were there). */
  fetched: string[];
}

/** A request that names no version the index (or the cache) has. */
export class VersionNotFoundError extends Error {
  override readonly name = 'VersionNotFoundError';
}

/** No digest was published for a binary: it is not installed unchecked. */
export class ChecksumUnavailableError extends Error {
  override readonly name = 'ChecksumUnavailableError';
}

const executable = (path: string): boolean => {
  try {
    return (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

function missingIn(dir: string, names: readonly string[]): string[] {
  return names.filter((n) => !executable(join(dir, n)));
}

export async function installBinaries(req: InstallRequest): Promise<InstallResult> {
  const platform = req.platform ?? hostPlatform();
  const log = req.log ?? (() => undefined);
  const k8s = join(req.root, 'k8s');
  const needed = [...ENVTEST_BINARIES, ...(req.fuller ? FULLER_BINARIES : [])];

  let archive: EnvtestArchive | undefined;
  let version = cachedVersion(req, platform, needed);
  if (version === undefined) {
    archive = await findArchive(req, platform);
    version = archive.version;
  }
  const dir = join(k8s, versionDirName(version, platform));
  if (missingIn(dir, needed).length === 0) return { dir, version, fetched: [] };

  const staging = join(k8s, '.tsop-downloads', versionDirName(version, platform));
  mkdirSync(staging, { recursive: true });
  const lock = await acquireLock(join(k8s, '.tsop-downloads', `${versionDirName(version, platform)}.lock`), {
    timeoutMs: 20 * 60_000,
    onWait: (pid) => log(`waiting for another download of ${version} (pid ${pid}) to finish`),
  });
  const started = Date.now();
  const fetched: string[] = [];
  try {
    // Another process may have installed them while this one waited for the lock.
    const trio = missingIn(dir, ENVTEST_BINARIES);
    if (trio.length > 0) {
      archive ??= await findArchive({ ...req, version }, platform);
      const url = req.sources.archiveUrl
        ? `${req.sources.archiveUrl}/envtest-v${archive.version}/${archive.name}`
        : archive.url;
      log(`downloading ${ENVTEST_BINARIES.join(', ')} ${version} (${platform.os}/${platform.arch}) from ${url}`);
      const file = join(staging, `${archive.name}.partial`);
      await downloadFile(url, file, { algorithm: 'sha512', hex: archive.sha512 });
      const unpacked = join(staging, 'bin');
      rmSync(unpacked, { recursive: true, force: true });
      mkdirSync(unpacked);
      const names = await extractTarGz(file, unpacked, (n) => (ENVTEST_BINARIES as readonly string[]).includes(n));
      const absent = ENVTEST_BINARIES.filter((n) => !names.includes(n));
      if (absent.length > 0)
        throw new ArchiveError(`${archive.name} from ${url} has no ${absent.join(', ')}; it is not an envtest archive`);
      for (const n of names) chmodSync(join(unpacked, n), 0o755);
      placeAll(unpacked, dir, trio);
      rmSync(file, { force: true });
      fetched.push(...trio);
    }
    for (const name of missingIn(dir, req.fuller ? FULLER_BINARIES : [])) {
      const { url, digest } = await fullerSource(name, version, platform, req);
      log(
        `downloading ${name} ${name === 'kwok' ? `v${req.kwokVersion ?? PINNED_KWOK_VERSION}` : version} from ${url}`,
      );
      const file = join(staging, `${name}.partial`);
      await downloadFile(url, file, digest);
      chmodSync(file, 0o755);
      placeFile(file, dir, name);
      fetched.push(name);
    }
    if (fetched.length > 0)
      log(`installed ${fetched.join(', ')} in ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    rmSync(staging, { recursive: true, force: true });
    return { dir, version, fetched };
  } finally {
    // A partial download stays for the next run to resume; an empty folder does not.
    if (existsSync(staging) && readdirSync(staging).length === 0) rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}

/** A version already in the cache that answers the request with every binary needed: no network then. */
function cachedVersion(req: InstallRequest, platform: Platform, needed: readonly string[]): string | undefined {
  const request = req.version === undefined ? undefined : parseVersionRequest(req.version);
  if (req.version !== undefined && request === undefined)
    throw new VersionNotFoundError(`'${req.version}' is not a version; use e.g. 1.36.3, 1.36, 1.36.x or latest`);
  if (request?.kind === 'exact') return request.version;
  const installed = installedVersions(req.root, platform);
  const complete = installed.filter((i) => needed.every((n) => i.binaries.includes(n)));
  const trioOnly = installed.filter((i) => ENVTEST_BINARIES.every((n) => i.binaries.includes(n)));
  if (request === undefined) {
    // What is there is used (setup-envtest's too): the pinned minor first, complete before trio
    // only (the fuller plane is then added at that version), else any version, newest first.
    const minor = req.pinned.split('.').slice(0, 2).join('.');
    const fits = (v: string): boolean => v === req.pinned || satisfiesRequest(v, { kind: 'minor', minor });
    const found =
      complete.find((i) => fits(i.version)) ?? trioOnly.find((i) => fits(i.version)) ?? complete[0] ?? trioOnly[0];
    return found?.version;
  }
  // `latest` and minors ask the index for the newest; a complete install of one is fine offline.
  return request.kind === 'minor' ? complete.find((i) => satisfiesRequest(i.version, request))?.version : undefined;
}

async function findArchive(req: InstallRequest, platform: Platform): Promise<EnvtestArchive> {
  const text = await fetchText(req.sources.indexUrl);
  const archives = parseReleaseIndex(text, req.sources.indexUrl);
  const found = chooseArchive(archives, req.version, platform, req.pinned);
  if (found) return found;
  const known = versionsFor(archives, platform);
  const asked = req.version ?? `${req.pinned} or another ${req.pinned.split('.').slice(0, 2).join('.')}.x`;
  throw new VersionNotFoundError(
    `the envtest index ${req.sources.indexUrl} has no ${asked} for ${platform.os}/${platform.arch}` +
      (known.length
        ? ` (newest: ${known.slice(0, 5).join(', ')}); ask for one of those`
        : '; it lists nothing for this platform') +
      `, or build it from source with --source`,
  );
}

/** Where a fuller-plane binary comes from and the digest it must have. */
async function fullerSource(
  name: string,
  version: string,
  platform: Platform,
  req: InstallRequest,
): Promise<{ url: string; digest: Digest }> {
  if (name !== 'kwok') {
    const url = `${req.sources.kubernetesUrl}/v${version}/bin/${platform.os}/${platform.arch}/${name}`;
    return { url, digest: { algorithm: 'sha256', hex: sha256From(await fetchText(`${url}.sha256`), `${url}.sha256`) } };
  }
  const kwok = req.kwokVersion ?? PINNED_KWOK_VERSION;
  const asset = `kwok-${platform.os}-${platform.arch}`;
  const url = `${req.sources.kwokUrl}/v${kwok}/${asset}`;
  const problems: string[] = [];
  const api = `${req.sources.kwokApiUrl}/releases/tags/v${kwok}`;
  try {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      ...(req.githubToken ? { authorization: `Bearer ${req.githubToken}` } : {}),
    };
    const release = JSON.parse(await fetchText(api, { headers })) as {
      assets?: Array<{ name?: string; digest?: string | null }>;
    };
    const digest = release.assets?.find((a) => a.name === asset)?.digest;
    const m = /^sha256:([0-9a-f]{64})$/i.exec(digest ?? '');
    if (m) return { url, digest: { algorithm: 'sha256', hex: m[1]! } };
    problems.push(`${api} lists no sha256 digest for ${asset}`);
  } catch (error) {
    if (
      !(
        error instanceof DownloadFailedError ||
        error instanceof DownloadUnreachableError ||
        error instanceof SyntaxError
      )
    )
      throw error;
    problems.push(error instanceof SyntaxError ? `${api} is not JSON` : error.message);
  }
  try {
    return { url, digest: { algorithm: 'sha256', hex: sha256From(await fetchText(`${url}.sha256`), `${url}.sha256`) } };
  } catch (error) {
    if (
      !(
        error instanceof DownloadFailedError ||
        error instanceof DownloadUnreachableError ||
        error instanceof ChecksumUnavailableError
      )
    )
      throw error;
    problems.push(error.message);
  }
  throw new ChecksumUnavailableError(
    `no published checksum for kwok v${kwok} (${problems.join('; ')}); an unchecked binary is ` +
      `not installed: build it from source with --source, or serve one at a mirror ` +
      `(TSOP_KWOK_API_URL, TSOP_KWOK_RELEASE_URL)`,
  );
}

/** The digest in a `.sha256` file: the hex alone (dl.k8s.io) or `<hex>  <name>` (sha256sum). */
function sha256From(text: string, url: string): string {
  const hex = text.trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hex))
    throw new ChecksumUnavailableError(`${url} holds no sha256 (${JSON.stringify(text.slice(0, 40))})`);
  return hex.toLowerCase();
}

/** Moves `names` from `from` into `dir`: the whole folder at once when `dir` is new. */
function placeAll(from: string, dir: string, names: readonly string[]): void {
  if (!existsSync(dir)) {
    mkdirSync(join(dir, '..'), { recursive: true });
    try {
      renameSync(from, dir);
      return;
    } catch (error) {
      // Created meanwhile by something that takes no lock (setup-envtest): add file by file.
      if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  for (const n of names) placeFile(join(from, n), dir, n);
}

/** Renames one file into `dir`, which setup-envtest may have left read-only (0555). */
function placeFile(file: string, dir: string, name: string): void {
  const mode = statSync(dir).mode & 0o7777;
  const writable = (mode & 0o200) !== 0;
  if (!writable) chmodSync(dir, mode | 0o200);
  try {
    renameSync(file, join(dir, name));
  } finally {
    if (!writable) chmodSync(dir, mode);
  }
}
