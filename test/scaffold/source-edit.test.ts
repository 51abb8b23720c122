/**
 * The one editor of user TypeScript on its own: what it counts as a decorator, the layouts its
 * property and import edits keep, and that it writes into the tree only when something changed.
 */
import { describe, expect, it } from 'vitest';
import { editSource, SourceEditor, stringListValue, stringLiteralValue } from '../../src/scaffold/source-edit.js';
import { Tree, type FileSource } from '../../src/scaffold/tree.js';

const memory = (files: Record<string, string>): FileSource => ({ read: (p) => files[p] });
const edited = (text: string, plan: (s: SourceEditor) => void): string => {
  const s = new SourceEditor('a.ts', text);
  plan(s);
  return s.result();
};

describe('SourceEditor', () => {
  it('finds decorators by name in code only, with their lines, called or not', () => {
    const s = new SourceEditor(
      'a.ts',
      [
        '/** @Hub() in a comment */',
        "const t = '@Hub()';",
        '@Hub',
        'class A {',
        '  @Hub() m() {}',
        '}',
        '@HubX()',
        'class B {}',
        '',
      ].join('\n'),
    );
    expect(s.decorators('Hub').map((d) => [d.line, d.call !== undefined])).toEqual([
      [3, false],
      [5, true],
    ]);
  });

  it('reads string literals and lists of them, and nothing else', () => {
    const s = new SourceEditor(
      'a.ts',
      "@R({ a: 'x', b: `y`, c: ['p', \"q\"], d: [x], e: `${z}`, f: [...l] })\nclass A {}\n",
    );
    const obj = s.decorators('R')[0]!.call!.arguments[0]!;
    const props = s.properties(obj as Parameters<SourceEditor['properties']>[0]);
    const value = (k: string) => props.find((p) => p.key === k)?.value;
    expect([stringLiteralValue(value('a')), stringLiteralValue(value('b')), stringLiteralValue(value('e'))]).toEqual([
      'x',
      'y',
      undefined,
    ]);
    expect([stringListValue(value('c')), stringListValue(value('d')), stringListValue(value('f'))]).toEqual([
      ['p', 'q'],
      undefined,
      undefined,
    ]);
  });

  it.each([
    ['one line', "import { A, C } from './m/markers/index.js';", "import { A, B, C } from './m/markers/index.js';"],
    [
      'one line, at the end',
      "import { A } from './m/markers/index.js';",
      "import { A, B } from './m/markers/index.js';",
    ],
    [
      'one line, before type imports',
      "import { A, type Z } from './m/markers/index.js';",
      "import { A, B, type Z } from './m/markers/index.js';",
    ],
    ['empty', "import {} from './m/markers/index.js';", "import { B } from './m/markers/index.js';"],
    [
      'several lines',
      "import {\n  A,\n  C,\n} from './m/markers/index.js';",
      "import {\n  A,\n  B,\n  C,\n} from './m/markers/index.js';",
    ],
    [
      'several lines, at the end, trailing comma',
      "import {\n  A,\n} from './m/markers/index.js';",
      "import {\n  A,\n  B,\n} from './m/markers/index.js';",
    ],
    [
      'several lines, at the end, no trailing comma',
      "import {\n  A\n} from './m/markers/index.js';",
      "import {\n  A,\n  B\n} from './m/markers/index.js';",
    ],
    ['already there', "import { B } from './m/markers/index.js';", "import { B } from './m/markers/index.js';"],
  ])('adds a name to an import in name order: %s', (_, before, after) => {
    const text = `import { B as Other } from './other.js';\n${before}\n`;
    expect(
      edited(text, (s) => s.add(...s.addNamedImportEdits(s.namedImport((m) => m.endsWith('/markers/index.js'))!, 'B'))),
    ).toBe(`import { B as Other } from './other.js';\n${after}\n`);
  });

  it('puts a line above a decorator with its indentation', () => {
    const text = 'class A {\n    @Resource({ x: 1 })\n    m() {}\n}\n';
    expect(edited(text, (s) => s.add(s.lineAboveEdit(s.decorators('Resource')[0]!.decorator, '@Hub()')))).toBe(
      'class A {\n    @Hub()\n    @Resource({ x: 1 })\n    m() {}\n}\n',
    );
  });

  it.each([
    ['one line', '@R({ a: 1 })', '@R({ a: 1, b: 2 })'],
    ['empty', '@R({})', '@R({ b: 2 })'],
    [
      'a comment after the last property',
      '@R({\n  a: 1 /* one */ // the first\n})',
      '@R({\n  a: 1, /* one */ // the first\n  b: 2\n})',
    ],
  ])("adds a property in the literal's layout and removes it again: %s", (_, before, after) => {
    const text = `${before}\nclass A {}\n`;
    const object = (s: SourceEditor) =>
      s.decorators('R')[0]!.call!.arguments[0] as Parameters<SourceEditor['properties']>[0];
    const added = edited(text, (s) => s.add(...s.addPropertyEdits(object(s), 'b: 2')));
    expect(added).toBe(`${after}\nclass A {}\n`);
    const removed = edited(added, (s) =>
      s.add(
        ...s.removePropertyEdits(
          object(s),
          s.properties(object(s)).findIndex((p) => p.key === 'b'),
        ),
      ),
    );
    expect(removed).toBe(text);
  });

  it('editSource writes into the tree only when the edit changed the file, and not at all when it throws', () => {
    const tree = new Tree(memory({ 'a.ts': '@Resource()\nclass A {}\n' }));
    editSource(tree, 'a.ts', () => undefined);
    expect(tree.listChanges()).toEqual([]);
    expect(() =>
      editSource(tree, 'a.ts', (s) => {
        s.add(s.lineAboveEdit(s.decorators('Resource')[0]!.decorator, '@Hub()'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(tree.listChanges()).toEqual([]);
    editSource(tree, 'a.ts', (s) => s.add(s.lineAboveEdit(s.decorators('Resource')[0]!.decorator, '@Hub()')));
    expect(tree.read('a.ts')).toBe('@Hub()\n@Resource()\nclass A {}\n');
  });
});
