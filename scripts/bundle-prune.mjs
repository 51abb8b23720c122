// Which files of dist/bundle/ a build removes. A build leaves the chunks of earlier builds
// (content-hashed names) for an hour, for processes still running the CLI they belong to; a build
// made for a package (`npm pack`, `npm publish`: scripts/prepare.mjs says so) keeps none, so the
// tarball holds only what the entries import.
import { readdirSync, rmSync, statSync } from 'node:fs';

export const STALE_KEEP_MS = 3600_000;

/** How long this build keeps files of earlier builds: none when it is made for a package. */
export function staleKeepMs(env = process.env) {
  return env.TSOP_BUNDLE_FOR_PACKAGE === '1' ? 0 : STALE_KEEP_MS;
}

/** Removes the files in `dir` that this build did not write and that are older than `keepMs`; returns their names. */
export function pruneStale(dir, current, keepMs, now = Date.now()) {
  const removed = [];
  for (const name of readdirSync(dir)) {
    const path = `${dir}/${name}`;
    if (current.has(name) || now - statSync(path).mtimeMs < keepMs) continue;
    rmSync(path, { force: true });
    removed.push(name);
  }
  return removed.sort();
}
