/**
 * One line for a download that did not happen: what failed, which value (the URL, the digest),
 * and how to go on (a mirror through its variable, or the build from source).
 */
import { ChecksumMismatchError, DownloadFailedError, DownloadUnreachableError } from './fetch.js';
import { ChecksumUnavailableError, VersionNotFoundError } from './install.js';
import { LockTimeoutError } from './lock.js';
import { ReleaseIndexError } from './release-index.js';
import { SOURCE_SETTINGS, type DownloadSources } from './sources.js';
import { ArchiveError } from './tar.js';

const PROBLEMS = [
  DownloadUnreachableError,
  ChecksumMismatchError,
  DownloadFailedError,
  ChecksumUnavailableError,
  VersionNotFoundError,
  LockTimeoutError,
  ReleaseIndexError,
  ArchiveError,
];

/** A download that failed for a reason the user can act on (anything else is a bug). */
export function isDownloadProblem(error: unknown): error is Error {
  return PROBLEMS.some((p) => error instanceof p);
}

export const SOURCE_FALLBACK = "build them from source instead with 'npx tsop envtest use --source' (needs Go 1.26+)";

/** The variable whose base URL `url` starts with, for "set X to a mirror". */
function settingFor(url: string, sources: DownloadSources): string | undefined {
  return SOURCE_SETTINGS.find((s) => {
    const base = sources[s.field];
    return base !== undefined && url.startsWith(base);
  })?.env;
}

/** No answer from a download host (the case a build from source can stand in for). */
export function isUnreachable(error: unknown): error is DownloadUnreachableError {
  return error instanceof DownloadUnreachableError;
}

export function downloadFailureLine(error: unknown, sources: DownloadSources, fallback = SOURCE_FALLBACK): string {
  if (error instanceof DownloadUnreachableError) {
    const env = settingFor(error.url, sources);
    return `${error.message}: no network, or a host you cannot reach from here; ${env ? `point ${env} at a mirror, or ` : ''}${fallback}`;
  }
  if (error instanceof ChecksumMismatchError) {
    return (
      `refused ${error.url}: its ${error.algorithm} is ${error.actual}, but the published ` +
      `checksum is ${error.expected}; nothing was installed (a damaged mirror or a tampered ` +
      `download); ${fallback}`
    );
  }
  if (error instanceof DownloadFailedError) return `${error.message}; nothing was installed; ${fallback}`;
  return `${error instanceof Error ? error.message : String(error)}`;
}
