/**
 * The fast block-YAML reader reads what it accepts exactly as the yaml library does, and gives
 * up (undefined) on the rest: checked on hand-made cases and on every CRD of the import corpus
 * and every CRD tsop writes for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readBlockYaml } from '../../src/yaml/block-reader.js';
import { toYamlDocument } from '../../src/yaml/go-yaml-writer.js';
import { corpusCache, corpusEntries, moduleDir } from './corpus-cache.js';

const library = (text: string): unknown[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((v) => v !== null && v !== undefined);

describe('readBlockYaml', () => {
  it('reads mappings, sequences at their key’s indentation, block scalars, wrapped scalars and typed scalars as the yaml library does', () => {
    const text = `# a comment
---
a: 1
b: -2.5e3
c: "x\\ty \\u00e9"
d: 'it''s'
e: true
f: null
g: ~
h: plain text
i:
- one
- k: v
  l:
    - 0x1F
    - 0o17
    - .inf
m: |-
  first
    indented

  last
n: |
  kept
o: []
p: {}
q:
r: '#not a comment'
s: a long plain line that go-yaml
  wrapped over

  three lines
t: 'a quoted line: it
  wraps too'
u:
- an item that
  wraps
v: "a double-quoted \\"line\\": it
  - wraps,\\n

  escapes \\
  the break"
w: "go-yaml wraps a double-quoted line at a space\\n\\t
  \\ and escapes the next one"
---
- - nested
  - 2
`;
    const fast = readBlockYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(library(text));
  });

  for (const [what, text] of [
    ['flow collections', 'a: [1, 2]\n'],
    ['anchors', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['folded scalars', 'a: >-\n  folded\n  text\n'],
    ['multi-line plain scalars with a comment line', 'a: one\n  # two\n  three\n'],
    ['trailing comments', 'a: 1 # one\n'],
    ['YAML-only escapes', 'a: "\\x41"\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['tabs', 'a:\n\t- 1\n'],
  ] as const) {
    it(`leaves ${what} to the library`, () => expect(readBlockYaml(text)).toBeUndefined());
  }
});

const { cache, skip } = corpusCache();

(skip ? describe.skip : describe)('readBlockYaml on the import corpus', () => {
  it('reads every corpus CRD it accepts, and what tsop writes for it, exactly as the yaml library does', () => {
    let accepted = 0;
    let files = 0;
    for (const e of corpusEntries()) {
      const dir = join(moduleDir(cache!, e.module), posix.dirname(e.pattern));
      const name = new RegExp(
        `^${posix
          .basename(e.pattern)
          .replace(/[.+^${}()|\\]/g, '\\$&')
          .replace(/\*/g, '.*')}$`,
      );
      for (const f of readdirSync(dir).filter((n) => name.test(n))) {
        files++;
        const text = readFileSync(join(dir, f), 'utf8');
        const want = library(text);
        const fast = readBlockYaml(text);
        if (fast !== undefined) {
          accepted++;
          expect(fast, f).toEqual(want);
        }
        for (const doc of want) expect(readBlockYaml(toYamlDocument(doc)), `${f} as tsop writes it`).toEqual([doc]);
      }
    }
    // controller-gen's CRDs are the subset: all but the few hand-edited or older ones.
    expect(accepted).toBeGreaterThan(files * 0.6);
  }, 120_000);
});
