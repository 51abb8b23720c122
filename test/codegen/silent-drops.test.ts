/**
 * Issue 30, item 3: inputs tsop used to drop or mangle without a word. Each now works (the schema
 * has what was written) or is reported at its file:line.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_VERSION, PRELUDE, crds, errors, field, run, spec, specFiles } from './harness.js';

const MARKERS = "'../../runtime/markers/index.js'";

describe('discriminated unions', () => {
  it('a @Default on a field only some members declare is an error at the default (the API server would refuse the other members)', () => {
    const extra = "export class A { kind!: 'A'; @Default(3) size?: int32; }\nexport class B { kind!: 'B'; }";
    expect(errors('u?: A | B;', extra).join('\n')).toMatch(/src\/api\/v1\/t\.ts:6: .*@Default.*'size'.*only.*'A'/);
  });

  it('a @Default on a field every member declares stays', () => {
    const extra =
      "export class A { kind!: 'A'; @Default(3) size?: int32; }\nexport class B { kind!: 'B'; @Default(3) size?: int32; }";
    expect(spec('u?: A | B;', extra).properties?.['u']?.properties?.['size']?.default).toBe(3);
  });

  it("a member class's rules and one-of markers hold for that member only", () => {
    const extra = [
      "@XValidation({ rule: 'self.min <= self.max', message: 'min above max' })",
      "export class Range { kind!: 'Range'; min!: int32; max!: int32; }",
      "@AtMostOneOf('a', 'b')",
      "export class Pick { kind!: 'Pick'; a?: string; b?: string; }",
    ].join('\n');
    const rules = spec('u?: Range | Pick;', extra).properties?.['u']?.['x-kubernetes-validations'] ?? [];
    expect(rules).toContainEqual({ rule: "self.kind != 'Range' || (self.min <= self.max)", message: 'min above max' });
    expect(rules).toContainEqual({
      rule: "self.kind != 'Pick' || ([has(self.a),has(self.b)].filter(x,x==true).size() <= 1)",
      message: 'at most one of the fields in [a b] may be set',
    });
  });

  it('a class-level marker of a member that cannot hold for one member is an error at the marker', () => {
    const extra = "@MinProperties(2)\nexport class A { kind!: 'A'; x?: string; }\nexport class B { kind!: 'B'; }";
    expect(errors('u?: A | B;', extra).join('\n')).toMatch(/src\/api\/v1\/t\.ts:6: .*@MinProperties.*member/);
  });

  it('a field two members declare with different markers is an error, whatever the member order', () => {
    const extra =
      "export class A { kind!: 'A'; @MaxLength(5) name?: string; }\nexport class B { kind!: 'B'; @MaxLength(9) name?: string; }";
    expect(errors('u?: A | B;', extra).join('\n')).toMatch(/'name'.*(different|differ).*'A'.*'B'/);
    expect(errors('u?: B | A;', extra).join('\n')).toMatch(/'name'.*(different|differ)/);
  });
});

describe("a decorator of the user's own that calls tsop's", () => {
  const files = (decorators: string, use: string): Record<string, string> => ({
    'src/api/v1/groupversion.ts': GROUP_VERSION,
    'src/api/v1/decorators.ts': `import { Minimum, Maximum, Pattern, type FieldMarker } from ${MARKERS.replace('../../', '../../../')};\n${decorators}`,
    'src/api/v1/t.ts': `${PRELUDE}\nimport { PortNumber, Bounded, Named } from './decorators.js';\nexport class TSpec {\n${use}\n}\n@Resource()\nexport class T { spec?: TSpec; }\n`,
  });
  const specOf = (f: Record<string, string>): Record<string, unknown> => {
    const r = run(f);
    expect(r.errors.map((e) => e.message)).toEqual([]);
    return Object.values(crds(r))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties;
  };

  it('is read through: its markers apply where it stands, with its parameters', () => {
    const decorators = [
      'export const PortNumber = (): FieldMarker => (v, c) => { Minimum(1)(v, c); Maximum(65535)(v, c); };',
      'export function Bounded(min: number, max: number): FieldMarker { return (v, c) => { Minimum(min)(v, c); Maximum(max)(v, c); }; }',
      "export const Named: FieldMarker = (v, c) => Pattern('^[a-z]+$')(v, c);",
    ].join('\n');
    const props = specOf(
      files(decorators, '@PortNumber() port?: int32;\n@Bounded(2, 4) n?: int32;\n@Named name?: string;'),
    );
    expect(props['port']).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 65535 });
    expect(props['n']).toEqual({ type: 'integer', format: 'int32', minimum: 2, maximum: 4 });
    expect(props['name']).toEqual({ type: 'string', pattern: '^[a-z]+$' });
  });

  it('one it cannot read through is an error where it stands', () => {
    const decorators = [
      'export const PortNumber = (): FieldMarker => (v, c) => { for (const m of [Minimum(1), Maximum(65535)]) m(v, c); };',
      'export const Bounded = (a: number, b: number): FieldMarker => (v, c) => {};',
      'export const Named: FieldMarker = (v, c) => {};',
    ].join('\n');
    const r = run(files(decorators, '@PortNumber() port?: int32;'));
    expect(r.errors.map((e) => e.message).join('\n')).toMatch(
      /src\/api\/v1\/t\.ts:\d+: .*@PortNumber.*(cannot|can't) read/,
    );
  });
});

describe('JSDoc marker tags on fields', () => {
  it('@default, @minimum, @maximum, @pattern, @format and @example are honoured', () => {
    const s = spec(
      [
        "/** The mode.\n * @default 'Auto'\n */\nmode?: string;",
        '/**\n * @minimum 1\n * @maximum 10\n */\nreplicas?: int32;',
        '/** @pattern ^[a-z]+$ */\nname?: string;',
        '/** @format uri\n * @example "https://example.com"\n */\nurl?: string;',
      ].join('\n'),
    );
    expect(s.properties?.['mode']).toEqual({ type: 'string', description: 'The mode.', default: 'Auto' });
    expect(s.properties?.['replicas']).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 10 });
    expect(s.properties?.['name']).toEqual({ type: 'string', pattern: '^[a-z]+$' });
    expect(s.properties?.['url']).toEqual({ type: 'string', format: 'uri', example: 'https://example.com' });
  });

  it('@default on a type alias is the default of its fields', () => {
    expect(field('f?: Mode;', "/** @default 'Auto' */\nexport type Mode = 'Auto' | 'Manual';")).toEqual({
      type: 'string',
      enum: ['Auto', 'Manual'],
      default: 'Auto',
    });
  });

  it('a @default that is not a literal is an error at the tag; an @example that is not one is a warning', () => {
    expect(errors('/** @default Auto mode */\nf?: string;')[0]).toMatch(
      /^src\/api\/v1\/t\.ts:\d+: @default .*not a literal/,
    );
    const r = run(specFiles('/**\n * @example\n * const x = new Thing();\n */\nf?: string;'));
    expect(r.errors).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(/@example .*not a literal/);
  });
});

describe('types from other packages that share a Kubernetes type name', () => {
  it("are not mapped to the Kubernetes schema: luxon's Duration is an error, tsop's is the known type", () => {
    const withImport = (imp: string, body: string): string[] =>
      run({
        'src/api/v1/groupversion.ts': GROUP_VERSION,
        'src/api/v1/t.ts': `${imp}\nexport class TSpec { ${body} }\n@Resource()\nexport class T { spec?: TSpec; }\n`,
      }).errors.map((e) => e.message);
    expect(withImport("import type { Duration } from 'luxon';", 'f?: Duration;')[0]).toMatch(/'Duration' from 'luxon'/);
    expect(withImport("import type { Condition } from 'other-lib';", 'f?: Condition;')[0]).toMatch(
      /'Condition' from 'other-lib'/,
    );
    expect(field('f?: Duration;')).toEqual({ type: 'string' });
  });
});

describe('computed property keys', () => {
  it('a key naming a string const is that string; another computed key is an error', () => {
    expect(
      spec('[KEY]?: string;', "const KEY = 'app.kubernetes.io/name';").properties?.['app.kubernetes.io/name'],
    ).toEqual({ type: 'string' });
    expect(spec("['quoted']?: string;").properties?.['quoted']).toEqual({ type: 'string' });
    expect(errors('[key()]?: string;', 'function key(): string { return "x"; }')[0]).toMatch(
      /^src\/api\/v1\/t\.ts:\d+: .*computed/,
    );
  });
});

describe('a decorator that is no tsop marker', () => {
  it('misspelt and imported from nowhere: an error naming it', () => {
    expect(errors('@Maximun(3) f?: int32;')[0]).toMatch(/^src\/api\/v1\/t\.ts:\d+: @Maximun .*did you mean @Maximum/);
  });
  it('misspelt and imported from another library: a warning naming it', () => {
    const r = run(specFiles('@Maximun(3) f?: int32;', "import { Maximun } from 'class-validator';"));
    expect(r.errors).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(/@Maximun .*class-validator.*did you mean @Maximum/);
  });
  it("class-transformer's @Type(() => X) is class-transformer's, not tsop's", () => {
    const s = spec(
      '@Type(() => Inner) inner?: Inner;',
      "import { Type } from 'class-transformer';\nexport class Inner { a?: string; }",
    );
    expect(s.properties?.['inner']).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });
});

describe('constants as enum values', () => {
  it('typeof a | typeof b is the union of those literals, the way Go declares an enum', () => {
    const extra =
      "export const PhasePending = 'Pending';\nexport const PhaseRunning = 'Running';\nexport type Phase = typeof PhasePending | typeof PhaseRunning;";
    expect(field('f?: Phase;', extra)).toEqual({ type: 'string', enum: ['Pending', 'Running'] });
  });
  it('(typeof O)[keyof typeof O] is the union of the values of a const object', () => {
    const extra =
      "export const Phase = { Pending: 'Pending', Running: 'Running' } as const;\nexport type Phase = (typeof Phase)[keyof typeof Phase];";
    expect(field('f?: Phase;', extra)).toEqual({ type: 'string', enum: ['Pending', 'Running'] });
  });
});
