/**
 * Issue 30, item 2: a type alias carries any type-level marker, as a Go named type does, written in
 * its JSDoc exactly as the decorator is written (`/** @Minimum(1) @Maximum(65535) *\/ type Port =
 * int32`); every field of the alias's type gets it.
 */
import { describe, expect, it } from 'vitest';
import { CSV_MARKERS } from '../../src/codegen/markers/csv.js';
import { markerHelp, MARKERS } from '../../src/codegen/markers/index.js';
import { errors, field, spec } from './harness.js';

/** Marker (as a decorator) and the type it needs, for each type-level marker of the catalog. */
const CASES: Array<[string, string]> = [
  ['@Minimum(1) @Maximum(65535)', 'int32'],
  ['@Minimum(0) @ExclusiveMinimum()', 'number'],
  ['@Maximum(1) @ExclusiveMaximum()', 'number'],
  ['@MultipleOf(5)', 'int32'],
  ['@MinLength(1) @MaxLength(63)', 'string'],
  ["@Pattern('^[a-z]+(@[a-z]+)?$')", 'string'],
  ["@Enum('Allow', 'Forbid')", 'string'],
  ["@Format('uri')", 'string'],
  ["@Type('string')", 'int32'],
  ['@MinItems(1) @MaxItems(3)', 'string[]'],
  ['@UniqueItems()', 'string[]'],
  ['@MinProperties(1) @MaxProperties(9)', 'Record<string, string>'],
  ['@Nullable()', 'string'],
  ["@XValidation({ rule: 'self.size() > 2', message: 'too short' })", 'string'],
  ["@Default('Allow')", 'string'],
  ["@KubernetesDefault('Allow')", 'string'],
  ["@Example('10m')", 'string'],
  ["@Title('Port')", 'int32'],
  ["@Description('A port.  ')", 'int32'],
  ["@ExternalDocs({ url: 'https://example.com/docs', description: 'Guide' })", 'string'],
  ["@ExactlyOneOf('a', 'b')", '{ a?: string; b?: string }'],
  ["@AtMostOneOf('a', 'b')", '{ a?: string; b?: string }'],
  ["@AtLeastOneOf('a', 'b')", '{ a?: string; b?: string }'],
  ['@PreserveUnknownFields()', '{ a?: string }'],
  ['@XEmbeddedResource() @PreserveUnknownFields()', 'RawExtension'],
  ['@XIntOrString()', 'string'],
  ["@ListType('map') @ListMapKey('name')", '{ name: string; v?: string }[]'],
  ["@ListType('set')", 'string[]'],
  ["@MapType('atomic')", 'Record<string, string>'],
  ["@StructType('atomic')", '{ a?: string }'],
  ["@ItemsMaxLength(5) @ItemsPattern('^a')", 'string[]'],
  ['@ItemsMinimum(0)', 'int32[]'],
  ['@Immutable()', 'string'],
];

describe('every type-level marker, in the JSDoc of a type alias', () => {
  for (const [markers, type] of CASES) {
    it(`${markers} on an alias of ${type} is what it is on the field (on a class, for class markers)`, () => {
      const onClass = /OneOf/.test(markers);
      const direct = onClass
        ? field('f!: C;', `${markers}\nexport class C ${type.replaceAll(';', ';\n')}`)
        : field(`${markers}\nf!: ${type};`);
      const aliased = field('f!: A;', `/**\n * ${markers}\n */\nexport type A = ${type};`);
      expect(aliased).toEqual(direct);
    });
  }

  it('covers every marker of the catalog that may stand on a type', () => {
    const covered = new Set(CASES.flatMap(([m]) => [...m.matchAll(/@(\w+)\(/g)].map((x) => x[1])));
    // The CSV markers and @DefaultsWhenPresent change no schema: nothing to compare.
    const typeLevel = MARKERS.filter(
      (m) =>
        m.target === 'schema' &&
        !CSV_MARKERS.includes(m) &&
        !['Required', 'Optional', 'Schemaless', 'DefaultsWhenPresent'].includes(m.name) &&
        !m.name.startsWith('Items'),
    );
    expect(typeLevel.map((m) => m.name).filter((n) => !covered.has(n))).toEqual([]);
  });

  it('applies to every field of the type, to the elements of a list of it, and under a field marker', () => {
    const s = spec(
      'a!: Port;\nb?: Port[];\n@Maximum(8080) c?: Port;',
      '/** @Minimum(1) @Maximum(65535) */\nexport type Port = int32;',
    );
    expect(s.properties?.['a']).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 65535 });
    expect(s.properties?.['b']?.items).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 65535 });
    expect(s.properties?.['c']).toEqual({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      allOf: [{ maximum: 65535 }, { maximum: 8080 }],
    });
  });

  it('arguments may span lines and name consts of the file', () => {
    const extra =
      "const LIMIT = 9;\n/**\n * @XValidation({\n *   rule: 'self <= 9',\n *   message: 'at most nine',\n * })\n * @Maximum(LIMIT)\n */\nexport type Small = int32;";
    expect(field('f!: Small;', extra)).toEqual({
      type: 'integer',
      format: 'int32',
      maximum: 9,
      'x-kubernetes-validations': [{ rule: 'self <= 9', message: 'at most nine' }],
    });
  });

  it('a marker that does not fit the alias, or cannot be read, is an error at the tag', () => {
    expect(errors('f!: Bad;', '/** @MaxLength(3) */\ntype Bad = int32;')[0]).toMatch(
      /^src\/api\/v1\/t\.ts:6: TSpec\.f: @MaxLength applies to string fields/,
    );
    expect(errors('f!: Bad;', '/** @Maximum(x) */\ntype Bad = int32;')[0]).toMatch(
      /^src\/api\/v1\/t\.ts:6: @Maximum on type Bad: .*'x' is not a literal/,
    );
    expect(errors('f!: Bad;', '/** @Required() */\ntype Bad = string;')[0]).toMatch(
      /^src\/api\/v1\/t\.ts:6: TSpec\.f: @Required stands on fields, not on type aliases/,
    );
  });

  it('interface members take the JSDoc form too', () => {
    const s = spec('inner?: Inner;', 'export interface Inner {\n  /** @Minimum(1) */\n  n?: int32;\n}');
    expect(s.properties?.['inner']?.properties?.['n']).toEqual({ type: 'integer', format: 'int32', minimum: 1 });
  });
});

describe('manifests --help shows how each type-level marker is written on an alias', () => {
  const help = markerHelp();
  it('has a section on type aliases', () => {
    expect(help).toMatch(/type alias/i);
  });
  for (const m of MARKERS.filter(
    (d) => d.target === 'schema' && !['Required', 'Optional', 'Schemaless'].includes(d.name),
  )) {
    it(`@${m.name}`, () => {
      expect(help).toMatch(new RegExp(`/\\*\\* [^\\n]*@${m.name}\\(.*\\*/ (export )?type \\w+ = `));
    });
  }
});
