/**
 * Control-plane binaries in seconds, from where their makers publish them (setup-envtest's
 * release index, the Kubernetes release binaries, kwok's releases), checked against published
 * digests and installed into setup-envtest's cache layout. Needs only Node and `yaml`, so the CLI
 * can load it outside a project.
 */
export { ChecksumMismatchError, DownloadFailedError, DownloadUnreachableError, fetchText } from './fetch.js';
export {
  ChecksumUnavailableError,
  ENVTEST_BINARIES,
  FULLER_BINARIES,
  installBinaries,
  VersionNotFoundError,
  type InstallRequest,
  type InstallResult,
} from './install.js';
export { LockTimeoutError } from './lock.js';
export { reachableSync } from './probe.js';
export {
  compareVersionsDesc,
  parseReleaseIndex,
  ReleaseIndexError,
  versionsFor,
  type EnvtestArchive,
} from './release-index.js';
export { ArchiveError } from './tar.js';
export {
  DOWNLOAD_SWITCH_ENV,
  downloadsEnabled,
  downloadSources,
  hostPlatform,
  mirrorConfigured,
  PINNED_KWOK_VERSION,
  SOURCE_SETTINGS,
  versionDirName,
  type DownloadSources,
  type Platform,
  type SourceSetting,
} from './sources.js';
export { installedVersions, removeVersions, type InstalledVersion } from './store.js';
export { downloadFailureLine, isDownloadProblem, isUnreachable, SOURCE_FALLBACK } from './explain.js';
