/**
 * Go constructs with a natural TypeScript twin (issue 44, codegen): each generates what
 * controller-gen (v0.21) generates for the Go twin, or stops at file:line saying why. The
 * expected schemas were written from controller-gen's output on the Go twin named in each test.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_VERSION, PRELUDE, crds, errors, field, run, spec } from './harness.js';

/** A kind `T` whose `spec` is the class or interface `TSpec` declared in `decls`. */
function kindFiles(decls: string): Record<string, string> {
  return {
    'src/api/v1/groupversion.ts': GROUP_VERSION,
    'src/api/v1/t.ts': `${PRELUDE}\n${decls}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
  };
}

/** The schema of `spec` from kindFiles(decls), and the warnings. */
function specOf(decls: string): { spec: Record<string, any>; warnings: string[] } {
  const r = run(kindFiles(decls));
  expect(r.errors.map((e) => e.message)).toEqual([]);
  const crd = Object.values(crds(r))[0];
  return { spec: crd?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec, warnings: r.warnings };
}

const EMBEDDED = 'export class Embedded {\n  /** A is embedded. */\n  a!: string;\n  b?: int32;\n}';
const EMBEDDED_PROPS = {
  a: { type: 'string', description: 'A is embedded.' },
  b: { type: 'integer', format: 'int32' },
};

describe('1. declaration merging (Go: an embedded struct on a type with its own markers)', () => {
  it('an interface merged with a class adds its bases and fields; the class keeps its markers', () => {
    // Go: type TSpec struct { Embedded `json:",inline"`; Own string } with an XValidation marker.
    const { spec } = specOf(
      `${EMBEDDED}\nexport interface TSpec extends Embedded {}\n@XValidation({ rule: "self.a != ''", message: 'a set' })\nexport class TSpec {\n  own?: string;\n}`,
    );
    expect(spec).toEqual({
      type: 'object',
      properties: { ...EMBEDDED_PROPS, own: { type: 'string' } },
      required: ['a'],
      'x-kubernetes-validations': [{ rule: "self.a != ''", message: 'a set' }],
    });
  });

  it('interfaces merged with interfaces, several heritage clauses and generic bases lose no field', () => {
    const { spec } = specOf(
      [
        EMBEDDED,
        'export class Other { c?: boolean }',
        'export class Page<T> { items?: T[] }',
        '/** The spec. */',
        'export interface TSpec extends Embedded, Other { d?: string }',
        'export interface TSpec extends Page<int64> {}',
        '/** @MinProperties(1) */',
        'export interface TSpec { e?: string }',
      ].join('\n'),
    );
    expect(spec).toEqual({
      type: 'object',
      description: 'The spec.',
      minProperties: 1,
      properties: {
        ...EMBEDDED_PROPS,
        c: { type: 'boolean' },
        d: { type: 'string' },
        e: { type: 'string' },
        items: { type: 'array', items: { type: 'integer', format: 'int64' } },
      },
      required: ['a'],
    });
  });

  it('a class and an interface merged as a kind keep both its fields', () => {
    const r = run({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\nexport interface T { status?: { ready?: boolean } }\n@Resource()\nexport class T { spec?: { n?: string } }\n`,
    });
    expect(r.errors).toEqual([]);
    const props = Object.values(crds(r))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties;
    expect(Object.keys(props).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  });
});

describe('1. declaration merging, continued', () => {
  it('merged generic interfaces are one generic type', () => {
    const { spec } = specOf(
      'export interface Page<T> { items?: T[] }\nexport interface Page<T> { next?: string }\nexport class TSpec { page?: Page<int32> }',
    );
    expect(spec.properties.page.properties).toEqual({
      items: { type: 'array', items: { type: 'integer', format: 'int32' } },
      next: { type: 'string' },
    });
  });

  it('module augmentation of an API type from another file is an error at the augmentation, not a lost field', () => {
    const r = run({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\nexport class TSpec { a?: string }\n@Resource()\nexport class T { spec?: TSpec; }\n`,
      'src/api/v1/more.ts': "export {};\ndeclare module './t.js' {\n  interface TSpec { b?: string }\n}\n",
    });
    expect(r.errors.map((e) => e.message)).toEqual([
      "src/api/v1/more.ts:3: TSpec in declare module './t.js' adds to the TSpec of " +
        'src/api/v1/t.ts, which tsop manifests does not read from here; declare these fields in ' +
        't.ts (an interface named TSpec there merges with it)',
    ]);
  });
});

describe('2. an alias as a base (Go: an embedded alias, type Alias = Embedded)', () => {
  it("inlines the aliased class's fields", () => {
    const { spec } = specOf(
      `${EMBEDDED}\nexport type Alias = Embedded;\nexport interface TSpec extends Alias { own?: string }`,
    );
    expect(spec).toEqual({
      type: 'object',
      properties: { ...EMBEDDED_PROPS, own: { type: 'string' } },
      required: ['a'],
    });
  });

  it('inlines an alias of an object type or of a generic instantiation', () => {
    const { spec } = specOf(
      'export class Page<T> { items?: T[] }\nexport type Ints = Page<int32>;\nexport type Named = { name?: string };\nexport interface TSpec extends Ints, Named {}',
    );
    expect(spec.properties).toEqual({
      items: { type: 'array', items: { type: 'integer', format: 'int32' } },
      name: { type: 'string' },
    });
  });

  it('an alias of something that is not an object is an error in plain words', () => {
    const at = (decls: string): string[] => run(kindFiles(decls)).errors.map((e) => e.message);
    expect(at('export type Text = string;\nexport interface TSpec extends Text {}')).toEqual([
      "src/api/v1/t.ts:7: TSpec: cannot extend 'Text': it is a string, not an object type; extend a class, an interface, an object type (or an alias of one) or a @kubernetes/client-node type",
    ]);
    expect(at('export interface TSpec extends Time {}')).toEqual([
      "src/api/v1/t.ts:6: TSpec: cannot extend 'Time': Time is one of tsop's scalar types, not " +
        'an object type; extend a class, an interface, an object type (or an alias of one) or a ' +
        '@kubernetes/client-node type',
    ]);
  });
});

describe('messages on the type path speak plainly', () => {
  it('a bigint literal type says which literals have a JSON form', () => {
    expect(errors('f?: 1n;')).toEqual([
      "src/api/v1/t.ts:8: TSpec.f: type '1n': only string, number and boolean literals have a JSON form (a bigint does not)",
    ]);
  });
});

describe('3. Record with a string alias as key (Go: map[URL]string)', () => {
  it('is additionalProperties, as for Record<string, T>', () => {
    expect(field('f?: Record<URL, string>;', 'export type URL = string;')).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
  });

  it('a branded string (Go: type Host string) is a string, as a key and as a value', () => {
    const s = spec(
      'f?: Record<Host, Host>;\ng?: Host;\nh?: Id;',
      "export type Host = string & { readonly __brand: 'Host' };\ndeclare const brand: unique symbol;\nexport type Id = int64 & { readonly [brand]: 'Id' };",
    );
    expect(s.properties?.['h']).toEqual({ type: 'integer', format: 'int64' });
    expect(s.properties?.['f']).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    expect(s.properties?.['g']).toEqual({ type: 'string' });
  });

  it('markers of the key alias are not applied to keys, and the warning says so', () => {
    const r = run({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\n/** @MaxLength(9) */\nexport type URL = string;\nexport class TSpec { f?: Record<URL, string> }\n@Resource()\nexport class T { spec?: TSpec; }\n`,
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(
      /src\/api\/v1\/t\.ts:8: Record<URL, string>: the markers of the key type \(@MaxLength\) do not check a map's keys/,
    );
  });

  it('literal-union keys (an object with fixed properties in TypeScript) are an error at the field', () => {
    expect(errors("f?: Record<'a' | 'b', string>;")).toEqual([
      "src/api/v1/t.ts:8: TSpec.f: type 'Record<'a' | 'b', string>': keys ''a' | 'b'' are a " +
        "fixed set of names: Record<'a' | 'b', T> is an object with each of them as a property, " +
        'which a map schema cannot say; declare a class with those fields (optional ones for ' +
        'Partial<Record<…>>), or use Record<string, T>',
    ]);
  });
});

describe('4. tuples (Go: [3]int32)', () => {
  it('a tuple of one element type is an array of it, its length kept as minItems/maxItems', () => {
    // controller-gen: type: array, items: integer/int32, no bounds (Go's decoder pads or cuts a
    // fixed array; JavaScript does not, so the tuple's length is checked by the API server).
    expect(field('f?: [int32, int32, int32];')).toEqual({
      type: 'array',
      items: { type: 'integer', format: 'int32' },
      minItems: 3,
      maxItems: 3,
    });
    expect(field('f?: [x: string, y?: string];')).toEqual({
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 2,
    });
    expect(field('f?: [int64, ...int64[]];')).toEqual({
      type: 'array',
      items: { type: 'integer', format: 'int64' },
      minItems: 1,
    });
  });

  it('a tuple of different element types is an error at the field naming the rule', () => {
    expect(errors('f?: [string, int32];')).toEqual([
      "src/api/v1/t.ts:8: TSpec.f: type '[string, int32]': a tuple whose elements have different " +
        'types has no schema (a CRD array has one item type); use a class with a named field for ' +
        'each element, or give every element one type',
    ]);
  });
});

describe('5. bytes (Go: []byte)', () => {
  it('Bytes from the markers module is string/byte', () => {
    const extra = "import type { Bytes } from '../../runtime/markers/index.js';";
    expect(field('f?: Bytes;', extra)).toEqual({ type: 'string', format: 'byte' });
  });

  it('Map and Set (no JSON form either) are errors naming what to write instead', () => {
    expect(errors('m?: Map<string, string>;\ns?: Set<string>;')).toEqual([
      "src/api/v1/t.ts:8: TSpec.m: type 'Map<string, string>': a Map has no JSON form (JSON.stringify writes {}); use Record<string, T>",
      "src/api/v1/t.ts:9: TSpec.s: type 'Set<string>': a Set has no JSON form (JSON.stringify writes {}); use T[] with @ListType('set')",
    ]);
  });

  it('Uint8Array is an error at the field pointing to Bytes', () => {
    const lines = errors('f?: Uint8Array;');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^src\/api\/v1\/t\.ts:8: TSpec\.f: type 'Uint8Array': Uint8Array has no JSON form .*use Bytes from tsop's markers module/,
    );
  });
});

describe('6. a class that serialises as a string (Go: encoding.TextMarshaler)', () => {
  it('toJSON(): string makes the type a string with its markers (controller-gen: no description from its doc)', () => {
    const extra =
      "/** Stamp is text. */\n@Pattern('^[0-9]+$')\nexport class Stamp {\n  private v = 0;\n  hidden?: int32;\n  toJSON(): string { return String(this.v); }\n}";
    expect(spec('a?: Stamp;\nb?: Stamp[];', extra).properties).toEqual({
      a: { type: 'string', pattern: '^[0-9]+$' },
      b: { type: 'array', items: { type: 'string', pattern: '^[0-9]+$' } },
    });
  });

  it('a subclass serialises as its base does; toJSON(): this is the object itself', () => {
    const extra = 'export class Text { toJSON(): string { return "" } }\nexport class Sub extends Text { n?: int32 }';
    expect(field('f?: Sub;', extra)).toEqual({ type: 'string' });
    expect(field('f?: Count;', 'export class Count { toJSON(): int64 { return 0 } }')).toEqual({
      type: 'integer',
      format: 'int64',
    });
    expect(field('f?: Self;', 'export class Self { n?: int32; toJSON(): this { return this } }')).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', format: 'int32' } },
    });
  });

  it('a toJSON() without a return type keeps the fields as the schema and warns at the method', () => {
    const { spec, warnings } = specOf('export class TSpec { n?: int32; toJSON() { return { n: this.n } } }');
    expect(spec.properties).toEqual({ n: { type: 'integer', format: 'int32' } });
    expect(warnings).toContain(
      "src/api/v1/t.ts:6: TSpec.toJSON() has no return type, so the schema is built from TSpec's " +
        'fields; JSON.stringify writes what toJSON() returns, so declare it (toJSON(): string for ' +
        'a type that serialises as text)',
    );
  });
});

describe('7. a number alias whose markers settle its type', () => {
  it("/** @Type('integer') */ type int = number is an integer without the float warning", () => {
    const { spec, warnings } = specOf(
      "/** @Type('integer') */\nexport type int = number;\n/** @ItemsType('integer') */\nexport " +
        "type ints = number[];\n/** @Type('integer') */\nexport type nint = number | null;\nexport " +
        'class TSpec { a?: int; b?: int[]; c?: ints; d?: nint }',
    );
    expect(spec.properties).toEqual({
      a: { type: 'integer' },
      b: { type: 'array', items: { type: 'integer' } },
      c: { type: 'array', items: { type: 'integer' } },
      d: { type: 'integer' }, // @Type replaces the node it stands on, nullable included
    });
    expect(warnings.filter((w) => w.includes('float'))).toEqual([]);
  });

  it('a plain number still warns', () => {
    const { warnings } = specOf('export type num = number;\nexport class TSpec { a?: num }');
    expect(warnings.join('\n')).toMatch(/TSpec\.a: TypeScript 'number' becomes a float/);
  });
});
