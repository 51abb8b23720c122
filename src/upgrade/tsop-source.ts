/**
 * Where `alpha update` gets another tsop version from, as an npm install spec. tsop is often
 * installed from a tarball or a git ref that no registry knows, so a bare version is looked up
 * first in the project's own package-lock.json (which records where its tsop came from: a
 * `file:` tarball, a git commit, a registry URL whose tarball npm's cache holds), and only then
 * asked of the registry. Anything else the user passes is a spec npm understands: a tarball or
 * directory path (`file:/x/tsop-0.1.0.tgz`, `../tsop-0.1.0.tgz`), a git ref
 * (`git+https://host/tsop.git#v0.1.0`, `github:owner/tsop#v0.1.0`) or a URL.
 */
import { isAbsolute, resolve } from 'node:path';

/** `0.1.0`, `0.2.0-rc.1`: a version, not an install spec. */
const VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export function isVersion(text: string): boolean {
  return VERSION.test(text);
}

/**
 * The npm install spec for `given` (a version or a spec). `lockText` is the project's committed
 * package-lock.json, `root` the project's directory (the lock's `file:` paths are relative to it),
 * `cwd` where the user typed a relative path.
 */
export function tsopSpec(given: string, lockText: string | undefined, root: string, cwd: string): string {
  if (isVersion(given)) {
    const version = given.replace(/^v/, '');
    return lockedSpec(version, lockText, root) ?? `tsop@${version}`;
  }
  if (given.startsWith('file:')) return `file:${absolute(given.slice('file:'.length), cwd)}`;
  if (/^(\.{1,2}\/|\/|~\/)/.test(given) || /\.(tgz|tar\.gz)$/.test(given)) return `file:${absolute(given, cwd)}`;
  return given;
}

/** Where the lock file says this project's tsop `version` came from, when it is that version. */
export function lockedSpec(version: string, lockText: string | undefined, root: string): string | undefined {
  if (lockText === undefined) return undefined;
  let entry: { version?: unknown; resolved?: unknown } | undefined;
  try {
    const lock = JSON.parse(lockText) as { packages?: Record<string, { version?: unknown; resolved?: unknown }> };
    entry = lock.packages?.['node_modules/tsop'];
  } catch {
    return undefined;
  }
  if (entry?.version !== version || typeof entry.resolved !== 'string') return undefined;
  const resolved = entry.resolved;
  if (resolved.startsWith('file:')) return `file:${absolute(resolved.slice('file:'.length), root)}`;
  // A registry tarball: by name and version, so npm finds it in its cache or the configured registry.
  if (/^https?:/.test(resolved) && resolved.endsWith(`/tsop-${version}.tgz`)) return `tsop@${version}`;
  return resolved;
}

function absolute(path: string, from: string): string {
  if (path.startsWith('~/')) return resolve(process.env['HOME'] ?? '~', path.slice(2));
  return isAbsolute(path) ? path : resolve(from, path);
}

/** A branch name from a version (or any text): characters git refuses in a ref become '-'. */
export function branchPart(text: string): string {
  return (
    text
      .replace(/[^0-9A-Za-z._+-]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/^[-.]+|[-.]+$/g, '')
      .replace(/\.lock$/, '') || 'unknown'
  );
}
