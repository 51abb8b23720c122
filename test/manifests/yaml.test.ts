import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sortKeys, toYamlDocument } from '../../src/manifests/yaml.js';

/** What any YAML 1.1 reader (kubectl's go-yaml included) reads back from our output. */
const readBack = (text: string): unknown => parse(text.replace(/^---\n/, ''), { version: '1.1' });

describe('toYamlDocument', () => {
  it('round-trips awkward strings through a YAML 1.1 reader', () => {
    const strings = [
      'True', 'no', 'ON', '~', 'null', '', '*', '-5', '-x', '- x', '1.5', '.5', '1e3', '0x1F', '0b101', '017', '1_000', '12:30',
      '2024-01-01', '2024-01-01T00:00:00Z', '.inf', '.NaN', '.spec.x', '^(\\+|-)?$', "it's: x", 'a #b', 'ends:', '#x', '@x', '=', '<<',
      '{a}', '[a]', 'a,', '%x', '!has(self.x)', 'self == oldSelf', 'yes please', 'a\tb', 'line1\nline2', 'trail\n', 'x\n\n', '\n',
      ' lead\nx', 'tab\n\tindented', 'ünïcödé', '"quoted"', "'single'", 'a: b: c', '? x', '| x', '> x', '& x',
    ];
    const value = Object.fromEntries(strings.map((s, i) => [`k${String(i).padStart(2, '0')}`, s]));
    expect(readBack(toYamlDocument(value))).toEqual(value);
    expect(readBack(toYamlDocument(strings))).toEqual(strings);
  });

  it('round-trips nesting: lists of maps, lists of lists, empty containers, numbers', () => {
    const value = { a: [{ b: [{ c: 'multi\nline', d: [] }], e: {} }, [1, 2.5, -3], null, true], f: { g: { h: 1e21 } }, 'x-kubernetes-list-map-keys': ['name'] };
    expect(readBack(toYamlDocument(value))).toEqual(value);
  });

  it('sorts keys at every level and writes the layout controller-gen writes', () => {
    const text = toYamlDocument({ spec: { versions: [{ name: 'v1', served: true }], group: 'g' }, apiVersion: 'v1', desc: 'a\nb' });
    expect(text).toBe('---\napiVersion: v1\ndesc: |-\n  a\n  b\nspec:\n  group: g\n  versions:\n  - name: v1\n    served: true\n');
  });

  it('double-quotes what YAML 1.1 reads as another type and single-quotes what cannot be plain', () => {
    expect(toYamlDocument({ enum: ['True', 'False', 'Unknown'], v: '*' })).toBe('---\nenum:\n- "True"\n- "False"\n- Unknown\nv: \'*\'\n');
  });

  it('writes a string repeated at other depths with the indentation of each place', () => {
    const doc = 'line one\nline two';
    const text = toYamlDocument({ a: doc, b: { c: doc, d: [doc, { e: doc }] }, f: 'x: y', g: ['x: y'] });
    expect(text).toBe(
      "---\na: |-\n  line one\n  line two\nb:\n  c: |-\n    line one\n    line two\n  d:\n  - |-\n    line one\n    line two\n  - e: |-\n      line one\n      line two\nf: 'x: y'\ng:\n- 'x: y'\n",
    );
    expect(toYamlDocument({ a: doc })).toBe('---\na: |-\n  line one\n  line two\n');
  });

  it('JSON is never more than twice the YAML (generate.ts skips the size check of small CRDs on it)', () => {
    const worst = ['\\'.repeat(500), '"'.repeat(500), `a${'\n'.repeat(500)}`, '\t\n'.repeat(250), '\ud800'.repeat(300), '\u0001'.repeat(200), 'é'.repeat(300), ''];
    const docs: unknown[] = [...worst, worst, Object.fromEntries(worst.map((w, i) => [w || `k${i}`, w])), [[[[[[1]]]]]], { a: { b: { c: { d: {} } } } }, [{}, [], {}, []]];
    let seed = 5;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor(seed / 65536) % n);
    const alphabet = ['a', '"', '\\', '\n', '\t', '\u0001', '\ud800', 'é', ' ', ':', '#', "'", '*', '-', '😀'];
    const text = (): string => Array.from({ length: next(12) }, () => alphabet[next(alphabet.length)]).join('');
    const value = (depth: number): unknown => {
      switch (next(depth > 4 ? 4 : 7)) {
        case 0:
        case 1:
          return text();
        case 2:
          return [0, 1.5, Number.NaN, true, null, undefined][next(6)];
        case 3:
          return '';
        case 4:
        case 5:
          return Object.fromEntries(Array.from({ length: next(4) }, () => [next(3) ? 'abcdefgh'[next(8)] : text(), value(depth + 1)]));
        default:
          return Array.from({ length: next(4) }, () => value(depth + 1));
      }
    };
    for (let i = 0; i < 20000; i++) docs.push(value(0));
    for (const doc of docs) {
      expect(Buffer.byteLength(JSON.stringify(doc) ?? ''), JSON.stringify(doc)).toBeLessThanOrEqual(2 * Buffer.byteLength(toYamlDocument(doc)) + 8);
    }
  });

  it('sortKeys drops undefined and keeps array order', () => {
    expect(JSON.stringify(sortKeys({ b: [3, 1], a: undefined, c: { z: 1, y: 2 } }))).toBe('{"b":[3,1],"c":{"y":2,"z":1}}');
  });
});
