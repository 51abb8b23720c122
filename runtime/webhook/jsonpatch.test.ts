import { describe, expect, it } from 'vitest';
import { applyPatch, createPatch, escapePointerToken } from './jsonpatch.js';

describe('createPatch', () => {
  it('adds, replaces and removes object members', () => {
    const before = { spec: { size: 1, image: 'a', gone: true } };
    const after = { spec: { size: 3, image: 'a', port: 11211 } };
    expect(createPatch(before, after)).toEqual([
      { op: 'replace', path: '/spec/size', value: 3 },
      { op: 'remove', path: '/spec/gone' },
      { op: 'add', path: '/spec/port', value: 11211 },
    ]);
  });

  it('escapes ~ and / in keys (RFC 6901)', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    const ops = createPatch({ metadata: {} }, { metadata: { annotations: { 'example.com/x~y': 'v' } } });
    expect(ops).toEqual([{ op: 'add', path: '/metadata/annotations', value: { 'example.com/x~y': 'v' } }]);
    const deeper = createPatch({ a: { 'k/1': 1, 'k~2': 2 } }, { a: { 'k/1': 5, 'k~2': 6 } });
    expect(deeper.map((o) => o.path)).toEqual(['/a/k~11', '/a/k~02']);
  });

  it('diffs arrays element-wise, removes from the end first and appends', () => {
    const grow = createPatch({ l: [1, 2] }, { l: [1, 9, 3, 4] });
    expect(grow).toEqual([
      { op: 'replace', path: '/l/1', value: 9 },
      { op: 'add', path: '/l/-', value: 3 },
      { op: 'add', path: '/l/-', value: 4 },
    ]);
    const shrink = createPatch({ l: [1, 2, 3, 4] }, { l: [1] });
    expect(shrink).toEqual([
      { op: 'remove', path: '/l/3' },
      { op: 'remove', path: '/l/2' },
      { op: 'remove', path: '/l/1' },
    ]);
  });

  it('answers nothing for equal documents and ignores undefined members', () => {
    expect(createPatch({ a: [{ b: 1 }], c: 'x' }, { c: 'x', a: [{ b: 1 }], d: undefined })).toEqual([]);
  });

  it('replaces a value whose type changes', () => {
    expect(createPatch({ a: { b: 1 } }, { a: [1] })).toEqual([{ op: 'replace', path: '/a', value: [1] }]);
    expect(createPatch({ a: null }, { a: 0 })).toEqual([{ op: 'replace', path: '/a', value: 0 }]);
  });

  it('round-trips: applying the patch to before gives after', () => {
    const cases: Array<[unknown, unknown]> = [
      [
        { spec: { containers: [{ name: 'a', ports: [1] }, { name: 'b' }] } },
        { spec: { containers: [{ name: 'a', ports: [1, 2] }], tolerations: [] } },
      ],
      [{ 'a/b': { '~': [null, true] } }, { 'a/b': { '~': [false], '/': 'x' } }],
      [{ x: [[1, 2], [3]] }, { x: [[1], [3, 4], []] }],
    ];
    for (const [before, after] of cases) expect(applyPatch(before, createPatch(before, after))).toEqual(after);
  });
});
