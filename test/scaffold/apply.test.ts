/**
 * applyFiles / commitTree on a real temp directory: permissions survive a replace, nothing of the
 * journal is left after success, and a failure (a directory where a file goes, a failing step
 * after the write) restores every file and removes the directories it created. Permission and
 * locked-file failures are tested as a non-root user in rollback.test.ts.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyFiles, WriteError } from '../../src/scaffold/apply.js';
import { commitTree } from '../../src/scaffold/commit.js';
import { diskSource, Tree } from '../../src/scaffold/tree.js';
import { UserError } from '../../src/errors.js';
import { tempProject } from './harness.js';

/** Every path under `dir` (hidden ones too) with its content, '/' for directories. */
function listing(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (lstatSync(join(dir, rel)).isDirectory()) Object.assign(out, { [`${rel}/`]: '' }, listing(dir, rel));
    else out[rel] = readFileSync(join(dir, rel), 'utf8');
  }
  return out;
}

function seeded(): string {
  const dir = tempProject('apply');
  mkdirSync(join(dir, 'a'));
  writeFileSync(join(dir, 'a/keep.txt'), 'old\n');
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n');
  chmodSync(join(dir, 'run.sh'), 0o750);
  return dir;
}

describe('applyFiles', () => {
  it('writes, replaces keeping the mode, removes, and leaves no staging files', () => {
    const dir = seeded();
    writeFileSync(join(dir, 'gone.yaml'), 'x\n');
    applyFiles(dir, [
      { path: 'a/keep.txt', content: 'new\n' },
      { path: 'b/c/fresh.txt', content: 'fresh\n' },
      { path: 'run.sh', content: '#!/bin/sh\necho hi\n' },
      { path: 'gone.yaml', remove: true },
    ]);
    expect(listing(dir)).toEqual({
      'a/': '',
      'a/keep.txt': 'new\n',
      'b/': '',
      'b/c/': '',
      'b/c/fresh.txt': 'fresh\n',
      'run.sh': '#!/bin/sh\necho hi\n',
    });
    expect(statSync(join(dir, 'run.sh')).mode & 0o777).toBe(0o750);
  });

  it('undoes everything when a directory is in the way of a later file', () => {
    const dir = seeded();
    mkdirSync(join(dir, 'z/blocked'), { recursive: true });
    const before = listing(dir);
    let error: unknown;
    try {
      applyFiles(dir, [
        { path: 'a/keep.txt', content: 'new\n' },
        { path: 'n/e/w.txt', content: 'new\n' },
        { path: 'z/blocked', content: 'file\n' },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteError);
    expect((error as Error).message).toBe(
      `cannot write ${join(dir, 'z/blocked')}: a directory is in the way (EISDIR); nothing was changed, so fix that and run the command again`,
    );
    expect(listing(dir)).toEqual(before);
  });
});

describe('commitTree', () => {
  it('gives scripts mode 755 and restores the plan when the step after it fails', async () => {
    const dir = seeded();
    const before = listing(dir);
    const tree = new Tree(diskSource(dir));
    tree.overwrite('a/keep.txt', 'planned\n');
    tree.create('scripts/x.sh', '#!/bin/sh\n');
    await expect(
      commitTree(dir, tree, async () => {
        expect(readFileSync(join(dir, 'a/keep.txt'), 'utf8')).toBe('planned\n'); // in place while the step runs
        expect(statSync(join(dir, 'scripts/x.sh')).mode & 0o777).toBe(0o755);
        throw new UserError('the manifests step failed');
      }),
    ).rejects.toThrow('the manifests step failed');
    expect(listing(dir)).toEqual(before);
  });
});
