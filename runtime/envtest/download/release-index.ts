/**
 * setup-envtest's release index, read as setup-envtest reads it: `releases` maps a version
 * (`v1.36.2`) to its archives, each named `envtest-v<version>-<os>-<arch>.tar.gz` with a `hash`
 * (sha512, hex) and a `selfLink`. Archive names that do not follow the pattern are skipped.
 * Choosing a version from it is a pure function, so it is tested without a network.
 */
import { parse } from 'yaml';
import type { Platform } from './sources.js';

export interface EnvtestArchive {
  /** Without the `v`: 1.36.2, 1.37.0-beta.0. */
  version: string;
  os: string;
  arch: string;
  name: string;
  /** sha512 of the archive, hex. */
  sha512: string;
  url: string;
}

/** The index could not be read, or names nothing usable. */
export class ReleaseIndexError extends Error {
  override readonly name = 'ReleaseIndexError';
}

const ARCHIVE = /^envtest-v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)-([a-z0-9]+)-([a-z0-9]+)\.tar\.gz$/;

type Raw = { releases?: Record<string, Record<string, { hash?: unknown; selfLink?: unknown } | null> | null> | null };

export function parseReleaseIndex(text: string, source: string): EnvtestArchive[] {
  let raw: Raw;
  try {
    raw = parse(text) as Raw;
  } catch (error) {
    throw new ReleaseIndexError(
      `${source} is not YAML (${(error as Error).message.split('\n')[0]}); point it at setup-envtest's envtest-releases.yaml or a mirror of it`,
    );
  }
  if (typeof raw !== 'object' || raw === null || typeof raw.releases !== 'object' || raw.releases === null) {
    throw new ReleaseIndexError(
      `${source} has no 'releases' map; point it at setup-envtest's envtest-releases.yaml or a mirror of it`,
    );
  }
  const out: EnvtestArchive[] = [];
  for (const archives of Object.values(raw.releases)) {
    for (const [name, entry] of Object.entries(archives ?? {})) {
      const m = ARCHIVE.exec(name);
      if (!m || typeof entry?.hash !== 'string' || typeof entry.selfLink !== 'string') continue;
      out.push({ version: m[1]!, os: m[2]!, arch: m[3]!, name, sha512: entry.hash.toLowerCase(), url: entry.selfLink });
    }
  }
  return out;
}

/** Numeric parts and pre-release tag of a version, for ordering. */
function parts(version: string): { nums: number[]; pre: string | undefined } {
  const [core, ...pre] = version.split('-');
  return { nums: (core ?? '').split('.').map(Number), pre: pre.length ? pre.join('-') : undefined };
}

/** Newer first; a release sorts before its own pre-releases. */
export function compareVersionsDesc(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) {
    const d = (y.nums[i] ?? 0) - (x.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return -1;
  if (y.pre === undefined) return 1;
  return y.pre.localeCompare(x.pre, 'en', { numeric: true });
}

/**
 * What `use` was asked for: an exact version (1.36.2), the newest patch of a minor (1.36,
 * 1.36.x), or the newest release (`latest`). Undefined: `pinned` if the index has it, else the
 * newest patch of its minor.
 */
export type VersionRequest = { kind: 'exact'; version: string } | { kind: 'minor'; minor: string } | { kind: 'latest' };

export function parseVersionRequest(spec: string): VersionRequest | undefined {
  const s = spec.trim().replace(/^v/, '');
  if (s === 'latest') return { kind: 'latest' };
  if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(s)) return { kind: 'exact', version: s };
  const minor = /^(\d+\.\d+)(\.x)?$/.exec(s);
  return minor ? { kind: 'minor', minor: minor[1]! } : undefined;
}

/** Does `version` satisfy `request` (pre-releases only when asked for exactly)? */
export function satisfiesRequest(version: string, request: VersionRequest): boolean {
  if (request.kind === 'exact') return version === request.version;
  if (version.includes('-')) return false;
  return request.kind === 'latest' || version.startsWith(`${request.minor}.`);
}

/** The archive for `platform` that answers `spec`, or undefined. */
export function chooseArchive(
  archives: readonly EnvtestArchive[],
  spec: string | undefined,
  platform: Platform,
  pinned: string,
): EnvtestArchive | undefined {
  const forHost = archives
    .filter((a) => a.os === platform.os && a.arch === platform.arch)
    .sort((a, b) => compareVersionsDesc(a.version, b.version));
  const request = spec === undefined ? undefined : parseVersionRequest(spec);
  if (request) return forHost.find((a) => satisfiesRequest(a.version, request));
  const minor = pinned.split('.').slice(0, 2).join('.');
  return (
    forHost.find((a) => a.version === pinned) ??
    forHost.find((a) => satisfiesRequest(a.version, { kind: 'minor', minor }))
  );
}

/** The index's versions for `platform`, newest first (for listings and error messages). */
export function versionsFor(
  archives: ReadonlyArray<Pick<EnvtestArchive, 'version' | 'os' | 'arch'>>,
  platform: Platform,
): string[] {
  return [
    ...new Set(archives.filter((a) => a.os === platform.os && a.arch === platform.arch).map((a) => a.version)),
  ].sort(compareVersionsDesc);
}
