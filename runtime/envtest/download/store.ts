/**
 * What the cache holds: each `<root>/k8s/<version>-<os>-<arch>/` directory (setup-envtest's or
 * tsop's) with the binaries in it, and removal of the ones a cleanup names (made writable first:
 * setup-envtest leaves them read-only), with the partial downloads tsop keeps for resuming.
 */
import { chmodSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersionsDesc, parseVersionRequest, satisfiesRequest } from './release-index.js';
import { hostPlatform, type Platform } from './sources.js';

export interface InstalledVersion {
  version: string;
  os: string;
  arch: string;
  dir: string;
  /** The executables in it, sorted. */
  binaries: string[];
}

const DIR = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)*)-([a-z0-9]+)-([a-z0-9]+)$/;

/** Every version directory in the cache, newest first; only `platform`'s unless null. */
export function installedVersions(root: string, platform: Platform | null = hostPlatform()): InstalledVersion[] {
  const k8s = join(root, 'k8s');
  let entries: string[];
  try {
    entries = readdirSync(k8s);
  } catch {
    return [];
  }
  const out: InstalledVersion[] = [];
  for (const name of entries) {
    const m = DIR.exec(name);
    if (!m) continue;
    if (platform && (m[2] !== platform.os || m[3] !== platform.arch)) continue;
    const dir = join(k8s, name);
    let binaries: string[];
    try {
      binaries = readdirSync(dir)
        .filter((f) => (statSync(join(dir, f)).mode & 0o111) !== 0 && statSync(join(dir, f)).isFile())
        .sort();
    } catch {
      continue; // not a directory, or unreadable
    }
    out.push({ version: m[1]!, os: m[2]!, arch: m[3]!, dir, binaries });
  }
  return out.sort((a, b) => compareVersionsDesc(a.version, b.version) || a.dir.localeCompare(b.dir));
}

/** Removes the version directories matching `spec` (all when undefined) and any partial downloads; returns what went. */
export function removeVersions(
  root: string,
  spec: string | undefined,
  platform: Platform | null = hostPlatform(),
): string[] {
  const request = spec === undefined ? undefined : parseVersionRequest(spec);
  if (spec !== undefined && request === undefined)
    throw new Error(`'${spec}' is not a version; use e.g. 1.36.3, 1.36 or 1.36.x`);
  const removed: string[] = [];
  for (const v of installedVersions(root, platform)) {
    if (
      request &&
      !satisfiesRequest(v.version, request) &&
      !(request.kind === 'exact' && v.version === request.version)
    )
      continue;
    chmodSync(v.dir, 0o755);
    rmSync(v.dir, { recursive: true, force: true });
    removed.push(v.dir);
  }
  const partial = join(root, 'k8s', '.tsop-downloads');
  let entries: string[] = [];
  try {
    entries = readdirSync(partial);
  } catch {
    // none
  }
  // A download in progress (its lock is there) keeps its files.
  const idle = entries.filter((e) => !e.endsWith('.lock') && !entries.includes(`${e}.lock`));
  for (const f of idle) rmSync(join(partial, f), { recursive: true, force: true });
  if (idle.length > 0) removed.push(`${partial}/ (partial downloads)`);
  return removed;
}
