/** Unified diffs as `diff -u` writes them. */
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/manifests/diff.js';

const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'a', 'b')).toBe('');
  });
  it('one change: three lines of context, diff -u header and hunk ranges', () => {
    const a = lines(10);
    const b = [...a];
    b[4] = 'changed';
    expect(unifiedDiff(`${a.join('\n')}\n`, `${b.join('\n')}\n`, 'a/f', 'b/f')).toBe(
      '--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+changed\n line 6\n line 7\n line 8\n',
    );
  });
  it('separate hunks for distant changes, one hunk for close ones', () => {
    const a = lines(40);
    const far = [...a];
    far[2] = 'x';
    far[35] = 'y';
    expect(unifiedDiff(`${a.join('\n')}\n`, `${far.join('\n')}\n`, 'a', 'b').match(/^@@/gm)).toHaveLength(2);
    const near = [...a];
    near[2] = 'x';
    near[8] = 'y';
    expect(unifiedDiff(`${a.join('\n')}\n`, `${near.join('\n')}\n`, 'a', 'b').match(/^@@/gm)).toHaveLength(1);
  });
  it('new and deleted files', () => {
    expect(unifiedDiff('', 'x\ny\n', 'a/f', 'b/f')).toBe('--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(unifiedDiff('x\n', '', 'a/f', 'b/f')).toBe('--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n');
  });
  it('insertions and deletions keep both sides consistent (applying the diff gives the new text)', () => {
    const a = lines(30);
    const b = [...a.slice(0, 5), 'new 1', 'new 2', ...a.slice(5, 20), ...a.slice(23), 'tail'];
    const diff = unifiedDiff(`${a.join('\n')}\n`, `${b.join('\n')}\n`, 'a', 'b');
    expect(apply(a, diff)).toEqual(b);
  });
});

/** A minimal patch(1) for the test: replays hunks onto the old lines. */
function apply(old: string[], diff: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (const hunk of diff.split(/^@@ /m).slice(1)) {
    const [header = '', ...body] = hunk.split('\n');
    const start = Number(/^-(\d+)/.exec(header)?.[1]) - 1;
    out.push(...old.slice(at, start));
    at = start;
    for (const l of body) {
      if (l.startsWith(' ')) out.push(l.slice(1)), at++;
      else if (l.startsWith('-')) at++;
      else if (l.startsWith('+')) out.push(l.slice(1));
    }
  }
  return [...out, ...old.slice(at)];
}
