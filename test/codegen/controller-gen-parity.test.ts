/**
 * Issue 30, item 1: cases where controller-gen v0.21's schema differs from what tsop wrote. Each
 * expectation is what controller-gen writes for the Go twin of the input (checked with the tool).
 */
import { describe, expect, it } from 'vitest';
import { crds, errors, field, run, spec, specFiles } from './harness.js';

describe('a field whose type has validation and adds its own: controller-gen keeps both under allOf', () => {
  const NAME = '/** Name is a short name.\n * @maxLength 10\n * @pattern ^[a-z]+$ */\nexport type Name = string;';

  it("a wider bound on the field does not loosen the type's", () => {
    expect(field('/** wider bound */\n@MaxLength(20) f!: Name;', NAME)).toEqual({
      allOf: [{ maxLength: 10 }, { maxLength: 20 }],
      description: 'wider bound',
      pattern: '^[a-z]+$',
      type: 'string',
    });
  });

  it('an equal bound is kept twice, as controller-gen does', () => {
    expect(field('@MaxLength(10) f!: Name;', NAME)['allOf']).toEqual([{ maxLength: 10 }, { maxLength: 10 }]);
  });

  it('a field without markers takes the type as it is', () => {
    expect(field('f!: Name;', NAME)).toEqual({
      description: 'Name is a short name.',
      maxLength: 10,
      pattern: '^[a-z]+$',
      type: 'string',
    });
  });

  it("an alias of an alias keeps each level's bound, and the field's applies on top", () => {
    const chain = `${NAME}\n/** Longer is another name.\n * @maxLength 20 */\nexport type Longer = Name;`;
    expect(field('f!: Longer;', chain)).toEqual({
      allOf: [{ maxLength: 10 }, { maxLength: 20 }],
      description: 'Longer is another name.',
      pattern: '^[a-z]+$',
      type: 'string',
    });
    expect(field('@MaxLength(30) f!: Longer;', chain)).toMatchObject({
      allOf: [{ maxLength: 10 }, { maxLength: 20 }],
      maxLength: 30,
    });
  });

  it("a class's rules and the field's both apply, the field's first", () => {
    const inner = "@XValidation({ rule: 'self.a > 0', message: 'type rule' })\nexport class Inner { a!: int32; }";
    expect(
      field("@XValidation({ rule: 'self.a < 10', message: 'field rule' }) f!: Inner;", inner)[
        'x-kubernetes-validations'
      ],
    ).toEqual([
      { message: 'field rule', rule: 'self.a < 10' },
      { message: 'type rule', rule: 'self.a > 0' },
    ]);
  });

  it('a class field with a bound of the same kind as its class keeps both', () => {
    const inner = '@MinProperties(1)\nexport class Inner { a?: int32; b?: int32; }';
    expect(field('@MinProperties(2) f!: Inner;', inner)['allOf']).toEqual([{ minProperties: 1 }, { minProperties: 2 }]);
  });
});

describe('@SubresourceStatus on a kind without a status field', () => {
  it('writes subresources.status: {} as controller-gen does, with a warning', () => {
    const r = run({
      ...specFiles('a?: string;'),
      'src/api/v1/t.ts': specFiles('a?: string;')['src/api/v1/t.ts']!.replace(
        '@Resource()',
        '@Resource()\n@SubresourceStatus()',
      ),
    });
    expect(r.errors).toEqual([]);
    const crd = Object.values(crds(r))[0]!;
    expect(crd['spec'].versions[0].subresources).toEqual({ status: {} });
    expect(r.warnings.join('\n')).toMatch(/src\/api\/v1\/t\.ts:\d+: .*@SubresourceStatus.*no status field/);
  });
});

describe("@Type('object') on a class: its own JSON form, not looked inside", () => {
  it('has no properties or required list, as a Go type with its own marshalling and Type=object', () => {
    const opaque =
      "/** Opaque marshals itself. */\n@Type('object')\n@PreserveUnknownFields()\nexport class Opaque { x!: string; }";
    expect(field('f!: Opaque;', opaque)).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });
});

describe('an empty class', () => {
  it('has no properties: {}', () => {
    expect(field('f!: Empty;', '/** Empty has nothing. */\nexport class Empty {}')).toEqual({
      description: 'Empty has nothing.',
      type: 'object',
    });
  });
});

describe('--max-desc-len cuts where controller-gen cuts', () => {
  const description = (text: string, max: number): unknown => {
    const r = run(specFiles(`/** ${text} */\nf?: string;`), { maxDescLen: max });
    return (Object.values(crds(r))[0] as any).spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.f
      .description;
  };
  it('at the last word that fits in max characters, then "..." (one word later than before)', () => {
    expect(description('alpha beta gamma delta', 17)).toBe('alpha beta gamma...');
  });
  it('after the last sentence terminal (., ! or ?) within max characters, wherever it stands', () => {
    expect(description('Use v1.2 of the thing', 10)).toBe('Use v1.');
    expect(description('Really! It works well', 12)).toBe('Really!');
  });
  it('mid-word with "..." when there is no space', () => {
    expect(description('abcdefghijklmnop', 5)).toBe('abcde...');
  });
});

describe('two default markers on one field', () => {
  it('two @Default decorators are an error at the second', () => {
    const errs = errors("@Default('a')\n@Default('b')\nf?: string;");
    expect(errs.join('\n')).toMatch(/@Default.*(twice|more than once)/);
  });
  it('@Default wins over a JSDoc @default, as +kubebuilder:default wins over +default', () => {
    expect(field("/** The mode.\n * @default 'x' */\n@Default('y')\nf?: string;")['default']).toBe('y');
  });
  it('a JSDoc @default alone is the default (+default)', () => {
    expect(spec("/** The mode.\n * @default 'x' */\nf?: string;").properties?.['f']?.default).toBe('x');
  });
});
