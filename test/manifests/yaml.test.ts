import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as yamlModule from '../../src/yaml/go-yaml-writer.js';

const { toYamlDocument } = yamlModule;

/** What any YAML 1.1 reader (kubectl's go-yaml included) reads back from our output. */
const readBack = (text: string): unknown => parse(text.replace(/^---\n/, ''), { version: '1.1' });

describe('toYamlDocument', () => {
  it('round-trips awkward strings through a YAML 1.1 reader', () => {
    const strings = [
      'True',
      'no',
      'ON',
      '~',
      'null',
      '',
      '*',
      '-5',
      '-x',
      '- x',
      '1.5',
      '.5',
      '1e3',
      '0x1F',
      '0b101',
      '017',
      '1_000',
      '12:30',
      '2024-01-01',
      '2024-01-01T00:00:00Z',
      '.inf',
      '.NaN',
      '.spec.x',
      '^(\\+|-)?$',
      "it's: x",
      'a #b',
      'ends:',
      '#x',
      '@x',
      '=',
      '<<',
      '{a}',
      '[a]',
      'a,',
      '%x',
      '!has(self.x)',
      'self == oldSelf',
      'yes please',
      'a\tb',
      'line1\nline2',
      'trail\n',
      'x\n\n',
      '\n',
      ' lead\nx',
      'tab\n\tindented',
      'ünïcödé',
      '"quoted"',
      "'single'",
      'a: b: c',
      '? x',
      '| x',
      '> x',
      '& x',
    ];
    const value = Object.fromEntries(strings.map((s, i) => [`k${String(i).padStart(2, '0')}`, s]));
    expect(readBack(toYamlDocument(value))).toEqual(value);
    expect(readBack(toYamlDocument(strings))).toEqual(strings);
  });

  it('round-trips nesting: lists of maps, lists of lists, empty containers, numbers', () => {
    const value = {
      a: [{ b: [{ c: 'multi\nline', d: [] }], e: {} }, [1, 2.5, -3], null, true],
      f: { g: { h: 1e21 } },
      'x-kubernetes-list-map-keys': ['name'],
    };
    expect(readBack(toYamlDocument(value))).toEqual(value);
  });

  it('sorts keys at every level and writes the layout controller-gen writes', () => {
    const text = toYamlDocument({
      spec: { versions: [{ name: 'v1', served: true }], group: 'g' },
      apiVersion: 'v1',
      desc: 'a\nb',
    });
    expect(text).toBe(
      '---\napiVersion: v1\ndesc: |-\n  a\n  b\nspec:\n  group: g\n  versions:\n  - name: v1\n    served: true\n',
    );
  });

  it('double-quotes what YAML 1.1 reads as another type and single-quotes what cannot be plain', () => {
    expect(toYamlDocument({ enum: ['True', 'False', 'Unknown'], v: '*' })).toBe(
      '---\nenum:\n- "True"\n- "False"\n- Unknown\nv: \'*\'\n',
    );
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
    const worst = [
      '\\'.repeat(500),
      '"'.repeat(500),
      `a${'\n'.repeat(500)}`,
      '\t\n'.repeat(250),
      '\ud800'.repeat(300),
      '\u0001'.repeat(200),
      'é'.repeat(300),
      '',
    ];
    const docs: unknown[] = [
      ...worst,
      worst,
      Object.fromEntries(worst.map((w, i) => [w || `k${i}`, w])),
      [[[[[[1]]]]]],
      { a: { b: { c: { d: {} } } } },
      [{}, [], {}, []],
    ];
    let seed = 5;
    const next = (n: number): number => (
      (seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor(seed / 65536) % n
    );
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
          return Object.fromEntries(
            Array.from({ length: next(4) }, () => [next(3) ? 'abcdefgh'[next(8)] : text(), value(depth + 1)]),
          );
        default:
          return Array.from({ length: next(4) }, () => value(depth + 1));
      }
    };
    for (let i = 0; i < 20000; i++) docs.push(value(0));
    for (const doc of docs) {
      expect(Buffer.byteLength(JSON.stringify(doc) ?? ''), JSON.stringify(doc)).toBeLessThanOrEqual(
        2 * Buffer.byteLength(toYamlDocument(doc)) + 8,
      );
    }
  });

  it('drops undefined values and keeps array order', () => {
    expect(toYamlDocument({ b: [3, 1], a: undefined, c: { z: 1, x: 2 } })).toBe(
      '---\nb:\n- 3\n- 1\nc:\n  x: 2\n  z: 1\n',
    );
  });
});

/**
 * Issue 30, item 4: the text controller-gen writes (JSON, then go-yaml v2 through sigs.k8s.io/yaml),
 * byte for byte, so a Go repository moving to tsop sees no diff in its CRDs.
 */
describe('toYamlDocument writes what go-yaml v2 writes', () => {
  it('orders keys as go-yaml does: a non-letter before a letter, digit runs as numbers', () => {
    const keys = {
      v10: 1,
      v2: 2,
      v1: 3,
      'a-b': 4,
      aB: 5,
      Ab: 6,
      a_b: 7,
      'x-kubernetes-validations': 8,
      xy: 9,
      x1: 10,
      x01: 11,
    };
    expect(toYamlDocument(keys)).toBe(
      '---\nAb: 6\na-b: 4\na_b: 7\naB: 5\nv1: 3\nv2: 2\nv10: 1\nx-kubernetes-validations: 8\nx1: 10\nx01: 11\nxy: 9\n',
    );
    expect(typeof (yamlModule as Record<string, unknown>)['compareKeys']).toBe('function');
  });

  it('quotes as go-yaml does: "" for the empty string, double quotes for other types, single quotes for indicators', () => {
    const values = [
      '',
      '*',
      'True',
      '2024-01-01',
      '12:30',
      '0x1F',
      '1_000',
      '.5',
      '- x',
      '-x',
      'a: b',
      'a #b',
      'ends:',
      "it's",
      '@x',
      'yes please',
      'ünïcödé',
    ];
    expect(toYamlDocument(values)).toBe(
      `---\n- ""\n- '*'\n- "True"\n- "2024-01-01"\n- "12:30"\n- "0x1F"\n- "1_000"\n- ".5"\n- '- x'\n- -x\n- 'a: b'\n- 'a #b'\n- 'ends:'\n- it's\n- '@x'\n- yes please\n- ünïcödé\n`,
    );
  });

  it('folds long plain scalars at the first space past column 80, continuing at the value indentation', () => {
    const description =
      'ThingSpec is the spec. This description is long enough that it should be folded by the emitter at eighty columns, we hope, truly and really.';
    expect(toYamlDocument({ description })).toBe(
      '---\ndescription: ThingSpec is the spec. This description is long enough that it should\n  be folded by the emitter at eighty columns, we hope, truly and really.\n',
    );
    const nested = {
      a: {
        b: {
          description:
            'An indented long line of prose that goes on well beyond the eightieth column of the output file.',
        },
      },
    };
    expect(toYamlDocument(nested)).toBe(
      '---\na:\n  b:\n    description: An indented long line of prose that goes on well beyond the eightieth\n      column of the output file.\n',
    );
  });

  it('writes text with a tab, or a line ending in a space, double-quoted with escapes, folded the same way', () => {
    expect(
      toYamlDocument({
        tab: 'A value with\ta tab that is long enough to be folded as a double-quoted scalar at the eightieth column.',
      }),
    ).toBe(
      '---\ntab: "A value with\\ta tab that is long enough to be folded as a double-quoted scalar\n  at the eightieth column."\n',
    );
    expect(
      toYamlDocument({
        trailing:
          'First line with a trailing space \nsecond line that is long enough to be folded as a double quoted scalar in the output.',
      }),
    ).toBe(
      '---\ntrailing: "First line with a trailing space \\nsecond line that is long enough to be\n  folded as a double quoted scalar in the output."\n',
    );
  });

  it('never folds literal blocks', () => {
    const literal =
      'First line\n  indented line that is long enough to exceed the eightieth column but literal blocks never fold\n';
    expect(toYamlDocument({ literal })).toBe(
      `---\nliteral: |\n  First line\n    indented line that is long enough to exceed the eightieth column but literal blocks never fold\n`,
    );
  });

  it("writes numbers as Go's JSON and go-yaml do", () => {
    expect(toYamlDocument([0.00001, 1234567.5, 123456.5, 1e21, 0.0001, -2.5, 100])).toBe(
      '---\n- 1e-05\n- 1.2345675e+06\n- 123456.5\n- 1e+21\n- 0.0001\n- -2.5\n- 100\n',
    );
  });

  it('writes a key longer than 128 bytes as a complex key', () => {
    expect(toYamlDocument({ [`${'k'.repeat(129)}`]: 'long key' })).toBe(`---\n? ${'k'.repeat(129)}\n: long key\n`);
  });
});
