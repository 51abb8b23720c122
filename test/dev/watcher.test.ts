/**
 * The dev loop's watcher against every way a save reaches the disk, on whichever Node runs the
 * unit tests (CI runs them on Node 20 and 24): saves by rename (`sed -i`, twice in a row and
 * more; an editor's write-then-rename), truncate-and-write, a save that changes nothing, new and
 * deleted files, new folders (nested, filled at once), folders renamed, removed and made again.
 * The whole-tree rescan is off, so every change here is seen through the events alone; the last
 * test turns it on for a root that disappears and comes back.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TreeWatcher, type FileChange, type TreeWatcherOptions } from '../../src/dev/watcher.js';

const scratch = mkdtempSync(join(tmpdir(), 'tsop-watcher-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const watchers: TreeWatcher[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) w.close();
});

/** A watched tree and everything it reported, with a wait for one change. */
function watched(options: Partial<TreeWatcherOptions> = {}): {
  root: string;
  seen: FileChange[];
  next: (path: string, kind: FileChange['kind']) => Promise<void>;
} {
  const root = mkdtempSync(join(scratch, 'src-'));
  mkdirSync(join(root, 'api', 'v1'), { recursive: true });
  mkdirSync(join(root, 'controllers'));
  writeFileSync(join(root, 'api', 'v1', 'memcached.ts'), 'export const size = 1;\n');
  writeFileSync(join(root, 'controllers', 'memcached-controller.ts'), 'export const name = "a";\n');
  const seen: FileChange[] = [];
  const waiting = new Set<() => void>();
  const watcher = new TreeWatcher(root, {
    include: (rel) => rel.endsWith('.ts') && !rel.endsWith('.test.ts'),
    onChange: (changes) => {
      seen.push(...changes);
      for (const w of waiting) w();
    },
    pollMs: 0,
    ...options,
  });
  watcher.start();
  watchers.push(watcher);
  const consumed = new Set<number>();
  /** Resolves when `path` is reported as `kind` once more than already awaited (any order within a rescan); fails after 4 s. */
  const next = (path: string, kind: FileChange['kind']): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const i = seen.findIndex((c, n) => !consumed.has(n) && c.path === path && c.kind === kind);
        if (i < 0) return;
        consumed.add(i);
        waiting.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`${kind} ${path} was not reported within 4 s; reported: ${JSON.stringify(seen)}`));
      }, 4_000);
      waiting.add(check);
      check();
    });
  return { root, seen, next };
}

describe('the dev watcher', () => {
  it('sees every save by rename: sed -i twice in a row, a third time, and an editor writing a temp file and renaming it over', async () => {
    const { root, seen, next } = watched();
    const file = join(root, 'controllers', 'memcached-controller.ts');
    execFileSync('sed', ['-i', 's/"a"/"b"/', file]);
    await next(file, 'changed');
    execFileSync('sed', ['-i', 's/"b"/"c"/', file]);
    await next(file, 'changed');
    execFileSync('sed', ['-i', 's/"c"/"d"/', file]);
    await next(file, 'changed');
    writeFileSync(`${file}.tmp~`, 'export const name = "e";\n');
    renameSync(`${file}.tmp~`, file);
    await next(file, 'changed');
    // sed's temp files (sedXXXXXX, no .ts) never count.
    expect(seen.every((c) => c.path === file && c.kind === 'changed')).toBe(true);
  });

  it('sees truncate-and-write saves, and not a save that leaves the content as it was', async () => {
    const { root, seen, next } = watched();
    const file = join(root, 'api', 'v1', 'memcached.ts');
    writeFileSync(file, 'export const size = 2;\n');
    await next(file, 'changed');
    writeFileSync(file, 'export const size = 3;\n');
    await next(file, 'changed');
    writeFileSync(file, 'export const size = 3;\n'); // same bytes
    const other = join(root, 'controllers', 'memcached-controller.ts');
    writeFileSync(other, 'export const name = "z";\n');
    await next(other, 'changed');
    expect(seen.filter((c) => c.path === file)).toHaveLength(2);
  });

  it('sees new files, deleted files, and files of other kinds not at all', async () => {
    const { root, seen, next } = watched();
    const added = join(root, 'controllers', 'backup-controller.ts');
    writeFileSync(added, 'export {};\n');
    await next(added, 'added');
    writeFileSync(join(root, 'controllers', 'backup-controller.test.ts'), 'export {};\n');
    writeFileSync(join(root, 'controllers', 'notes.md'), '# notes\n');
    rmSync(added);
    await next(added, 'removed');
    expect(seen.map((c) => c.path)).toEqual([added, added]);
  });

  it('watches new folders, nested and filled at once, and files added to them later', async () => {
    const { root, next } = watched();
    const deep = join(root, 'webhooks', 'v1', 'internal');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'pod-webhook.ts'), 'export {};\n');
    await next(join(deep, 'pod-webhook.ts'), 'added');
    const later = join(root, 'webhooks', 'v1', 'memcached-webhook.ts');
    writeFileSync(later, 'export {};\n');
    await next(later, 'added');
    execFileSync('sed', ['-i', 's/export/export const x = 1;\\nexport/', later]);
    await next(later, 'changed');
    execFileSync('sed', ['-i', 's/x = 1/x = 2/', later]);
    await next(later, 'changed');
  });

  it('follows folders renamed, removed, and made again under the same name', async () => {
    const { root, next } = watched();
    const old = join(root, 'api', 'v1', 'memcached.ts');
    renameSync(join(root, 'api', 'v1'), join(root, 'api', 'v2'));
    await next(old, 'removed');
    const moved = join(root, 'api', 'v2', 'memcached.ts');
    await next(moved, 'added');
    execFileSync('sed', ['-i', 's/1/2/', moved]);
    await next(moved, 'changed');

    rmSync(join(root, 'controllers'), { recursive: true });
    await next(join(root, 'controllers', 'memcached-controller.ts'), 'removed');
    mkdirSync(join(root, 'controllers'));
    const again = join(root, 'controllers', 'memcached-controller.ts');
    writeFileSync(again, 'export const name = "new";\n');
    await next(again, 'added');
    execFileSync('sed', ['-i', 's/new/newer/', again]);
    await next(again, 'changed');
    execFileSync('sed', ['-i', 's/newer/newest/', again]);
    await next(again, 'changed');
  });

  it('with its whole-tree rescan on, picks a removed root up again when it comes back', async () => {
    const { root, next } = watched({ pollMs: 100 });
    rmSync(root, { recursive: true });
    await next(join(root, 'api', 'v1', 'memcached.ts'), 'removed');
    mkdirSync(join(root, 'controllers'), { recursive: true });
    const back = join(root, 'controllers', 'memcached-controller.ts');
    writeFileSync(back, 'export {};\n');
    await next(back, 'added');
    execFileSync('sed', ['-i', 's/export/export const y = 1;\\nexport/', back]);
    await next(back, 'changed');
  });
});
