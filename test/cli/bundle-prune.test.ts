/**
 * What a build removes from dist/bundle/ (scripts/bundle-prune.mjs): files of earlier builds stay
 * an hour for CLI processes still importing them, except in a build for a package (`npm pack`,
 * `npm publish`), whose tarball must hold only the files the entries import.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneStale, STALE_KEEP_MS, staleKeepMs } from '../../scripts/bundle-prune.mjs';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle folder with this build's files, a chunk an earlier build wrote a minute ago and one two hours ago. */
function bundleDir(): { now: number; current: Set<string> } {
  dir = mkdtempSync(join(tmpdir(), 'tsop-bundle-prune-'));
  const now = Date.now();
  const current = new Set(['main.js', 'chunk-NEW.js']);
  for (const name of [...current, 'chunk-MINUTE.js', 'chunk-HOURS.js']) writeFileSync(join(dir, name), '');
  const at = (name: string, ms: number) => utimesSync(join(dir, name), new Date(ms), new Date(ms));
  at('chunk-MINUTE.js', now - 60_000);
  at('chunk-HOURS.js', now - 2 * 3600_000);
  at('main.js', now - 3 * 3600_000); // this build's files stay however old their mtime
  return { now, current };
}

describe('pruning dist/bundle/ after a build', () => {
  it('keeps the chunks of builds from the last hour for processes still running them', () => {
    const { now, current } = bundleDir();
    expect(pruneStale(dir, current, STALE_KEEP_MS, now)).toEqual(['chunk-HOURS.js']);
    expect(readdirSync(dir).sort()).toEqual(['chunk-MINUTE.js', 'chunk-NEW.js', 'main.js']);
  });

  it('keeps only this build in a build for a package', () => {
    const { now, current } = bundleDir();
    const keep = staleKeepMs({ TSOP_BUNDLE_FOR_PACKAGE: '1' });
    expect(keep).toBe(0);
    expect(pruneStale(dir, current, keep, now)).toEqual(['chunk-HOURS.js', 'chunk-MINUTE.js']);
    expect(readdirSync(dir).sort()).toEqual(['chunk-NEW.js', 'main.js']);
  });

  it('keeps the hour in any other build', () => {
    expect(staleKeepMs({})).toBe(STALE_KEEP_MS);
    expect(staleKeepMs({ TSOP_BUNDLE_FOR_PACKAGE: '0' })).toBe(STALE_KEEP_MS);
  });
});
