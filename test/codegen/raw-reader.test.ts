/**
 * What the reader computes itself now that it walks raw TypeScript nodes instead of asking
 * ts-morph (and, for enums, ts-morph's type checker): enum member values, JSDoc descriptions and
 * tags, and line numbers, each as the earlier reader gave them. Also checks that reading a model
 * never loads ts-morph itself (only the TypeScript compiler it bundles).
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import type { ApiModel, FieldDef, TypeRef } from '../../src/codegen/model.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const GV = "export const groupVersion = { group: 'raw.example.com', version: 'v1' };";
const MARKERS = "import { Resource, Default, Minimum } from '../../runtime/markers/index.js';";

function model(files: Record<string, string>): ApiModel {
  return readApiModel({ 'src/api/v1/groupversion.ts': GV, ...files });
}

function fields(m: ApiModel, type: string): Record<string, FieldDef> {
  const def = Object.values(m.types).find((t) => t.name === type);
  if (!def) throw new Error(`no type ${type}`);
  return Object.fromEntries(def.fields.map((f) => [f.name, f]));
}

const enumValues = (t: TypeRef): unknown =>
  t.kind === 'enum' ? t.values : t.kind === 'unsupported' ? t.reason : t.kind;

describe('enum member values, computed from the syntax as the checker does', () => {
  const m = model({
    'src/lib/consts.ts':
      "export const BASE = 10;\nexport enum Remote { A = 3, B, C = 'c' }\nexport * from './more.js';",
    'src/lib/more.ts': 'export const MORE = 7;\nexport enum Far { X = 1 << 3, Y = X | 1, Z = ~X }',
    'src/api/v1/e.ts': [
      MARKERS,
      "import { BASE, Remote, Far } from '../../lib/consts.js';",
      "import * as c from '../../lib/consts.js';",
      'export enum Level { Low, Mid, High = 10, Top, Quoted = Top + 1 }',
      'export enum Refs { A = Level.Mid, B = Remote.B, C = BASE, D = c.MORE, E = Far.Y, F = Level["High"], G = -BASE, H = (1 + 2) * 3, I = 2 ** 3 }',
      "export enum Strs { A = 'a', B = `b${BASE}`, C = A + 'c' }",
      'export enum Fwd { A = B, B = 2 }',
      "export enum Comp { A = 'x'.length, B }",
      "export enum AfterStr { A = 'a', B }",
      'const LOCAL = 5;',
      'export enum Consts { A = LOCAL, B = LATER }',
      'const LATER = 6;',
      'export enum Num { A = 0x10, B = 1e3, C = .5 }',
      '@Resource()',
      'export class E {',
      '  level?: Level; refs?: Refs; strs?: Strs; fwd?: Fwd; comp?: Comp; afterStr?: AfterStr; consts?: Consts; num?: Num;',
      '  @Default(Level.Top) top?: number;',
      '  @Minimum(-Level.High) neg?: number;',
      '  @Default(Far.Z) far?: number;',
      '  @Default(Remote.B) remote?: number;',
      '}',
    ].join('\n'),
  });
  const f = fields(m, 'E');

  it('numbers the members without an initializer from the one before (0 first)', () => {
    expect(enumValues(f['level']!.type)).toEqual([0, 1, 10, 11, 12]);
    expect(enumValues(f['num']!.type)).toEqual([16, 1000, 0.5]);
  });

  it('follows other members, other enums and consts, in the file and imported (also through export * and a namespace)', () => {
    expect(enumValues(f['refs']!.type)).toEqual([1, 4, 10, 7, 9, -10, 8]); // an enum's values are kept once each
    expect(enumValues(f['strs']!.type)).toEqual(['a', 'b10', 'ac']);
  });

  it('counts a member used before it is declared as 0, as the checker does (it also reports it)', () => {
    expect(enumValues(f['fwd']!.type)).toEqual([0, 2]);
  });

  it('reports members with no constant value', () => {
    expect(enumValues(f['comp']!.type)).toBe('enum member A has a computed value');
    expect(enumValues(f['afterStr']!.type)).toBe('enum member B has a computed value');
    expect(enumValues(f['consts']!.type)).toBe('enum member B has a computed value'); // LATER is declared after the enum
  });

  it('gives marker arguments the same values', () => {
    expect(f['top']!.markers.map((x) => x.args)).toEqual([[11]]);
    expect(f['neg']!.markers.map((x) => x.args)).toEqual([[-10]]);
    expect(f['far']!.markers.map((x) => x.args)).toEqual([[-9]]);
    expect(f['remote']!.markers.map((x) => x.args)).toEqual([[4]]);
    expect(m.diagnostics).toEqual([]);
  });
});

describe('JSDoc read by position', () => {
  const m = model({
    'src/api/v1/d.ts': [
      MARKERS, // line 1
      '/**',
      ' * Mail someone@example.com about {@link Other}.',
      ' *',
      ' * @see Other',
      ' */',
      '@Resource()',
      'export class D {', // line 8
      '  /** first */',
      '  // a line comment between',
      '  /** second wins */',
      '  @Minimum(1) /** after the decorator: not its doc */ n?: number;',
      '  /**/ notDoc?: string;',
      '  /** @internal only a tag */ onlyTag?: string;',
      '  /**',
      '   * @param a - the a, spanning',
      '   *     two lines',
      '   * @param b typed b',
      '   */',
      '  constructor(public a: string, readonly b: string, plain: string) {}',
      '  o?: Other;',
      '}',
      '/**',
      ' * A name.',
      ' * @pattern ^[a-z]+(@[a-z]+)?$',
      ' *   @maxLength 30',
      ' * @minimum',
      ' */',
      'export type Name = string;',
      'export interface Other { n?: Name }',
    ].join('\n'),
  });
  const d = fields(m, 'D');

  it('takes the description of the last block before its first tag', () => {
    expect(m.types['src/api/v1/d.ts#D']?.description).toBe('Mail someone@example.com about {@link Other}.');
    expect(d['n']?.description).toBe('second wins');
    expect(d['notDoc']?.description).toBeUndefined();
    expect(d['onlyTag']?.description).toBeUndefined();
  });

  it("reads a parameter property's @param from the constructor's doc, and only parameter properties are fields", () => {
    expect(d['a']?.description).toBe('the a, spanning\ntwo lines');
    expect(d['b']?.description).toBe('typed b');
    expect(d['plain']).toBeUndefined();
  });

  it("turns a type alias's tags into markers at their lines", () => {
    const n = fields(m, 'Other')['n']!.type;
    expect(n.markers?.map((x) => [x.name, x.args, x.pos.line])).toEqual([
      ['Pattern', ['^[a-z]+(@[a-z]+)?$'], 25],
      ['MaxLength', [30], 26],
    ]);
    expect(m.diagnostics.map((x) => [x.pos.line, x.message])).toEqual([
      [27, "@minimum on type Name: needs a number value, got ''"],
    ]);
  });
});

describe('line numbers', () => {
  it("count '\\n' only: a lone '\\r' or a line separator does not start a line (ts-morph's counting)", () => {
    const m = model({
      'src/api/v1/c.ts': `${MARKERS}\r/** cr */\u2028\n@Resource()\nexport class C {\r\n  x?: string;\r\n}\n`,
    });
    expect(m.kinds[0]?.pos).toEqual({ file: 'src/api/v1/c.ts', line: 2 });
    expect(fields(m, 'C')['x']?.pos.line).toBe(4);
  });

  it('places a syntax error where the parser found it', () => {
    const m = model({ 'src/api/v1/s.ts': `${MARKERS}\n\nexport class S {\n  x?: string\n  y: = 1;\n}\n` });
    expect(m.diagnostics[0]).toEqual({
      pos: { file: 'src/api/v1/s.ts', line: 5 },
      message: 'syntax error: Type expected.',
    });
  });
});

it('reads a model without loading ts-morph itself, only the TypeScript compiler it bundles', () => {
  const code = `import { createRequire } from 'node:module';
    const { readApiModel } = await import(${JSON.stringify(join(ROOT, 'src/codegen/reader/index.ts'))});
    const m = readApiModel({ 'src/api/v1/groupversion.ts': ${JSON.stringify(GV)}, 'src/api/v1/a.ts': '@Resource() export class A { /** doc */ x?: string; }' });
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('ts-morph'));
    console.log(JSON.stringify({ kinds: m.kinds.length, loaded }));`;
  const out = execFileSync(
    process.execPath,
    ['--import', join(ROOT, 'runtime/testing/register.mjs'), '--input-type=module', '-e', code],
    { encoding: 'utf8' },
  );
  const { kinds, loaded } = JSON.parse(out.trim()) as { kinds: number; loaded: string[] };
  expect(kinds).toBe(1);
  expect(loaded.map((p) => p.slice(p.lastIndexOf('node_modules/')))).toEqual([
    'node_modules/@ts-morph/common/dist/typescript.js',
  ]);
}, 30_000); // the child transpiles each of the reader's modules from TypeScript before it reads: seconds on a busy machine
