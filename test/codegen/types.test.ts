/** Golden tests of the type rules: a TypeScript field type → its schema. */
import { describe, expect, it } from 'vitest';
import { QUANTITY_PATTERN } from '../../src/codegen/known.js';
import { errors, field, spec } from './harness.js';

describe('primitive types', () => {
  it('string, boolean, number (number stays number: TypeScript has no integer type)', () => {
    expect(field('f!: string;')).toEqual({ type: 'string' });
    expect(field('f!: boolean;')).toEqual({ type: 'boolean' });
    expect(field('f!: number;')).toEqual({ type: 'number' });
  });
  it('int32 and int64 become integers with a format', () => {
    expect(field('f!: int32;')).toEqual({ type: 'integer', format: 'int32' });
    expect(field('f!: int64;')).toEqual({ type: 'integer', format: 'int64' });
  });
});

describe('fields without an annotation', () => {
  it('take their type from a literal or `new Class()` initializer', () => {
    const s = spec("name = 'x'; count = 1; on = false; inner = new Inner();", 'class Inner { a?: string }');
    expect(s.properties).toEqual({
      name: { type: 'string' },
      count: { type: 'number' },
      on: { type: 'boolean' },
      inner: { type: 'object', properties: { a: { type: 'string' } } },
    });
    expect(s.required).toEqual(['count', 'inner', 'name', 'on']);
  });
});

describe('optional and required', () => {
  it('fields without ? are required, the list sorted; ? and | undefined are optional', () => {
    const s = spec('zeta!: string; alpha!: string; maybe?: string; orUndef!: string | undefined;');
    expect(s.required).toEqual(['alpha', 'zeta']);
  });
  it('no required list when every field is optional', () => {
    expect(spec('a?: string;').required).toBeUndefined();
  });
});

describe('enums', () => {
  it('a string-literal union becomes an enum', () => {
    expect(field("f!: 'Allow' | 'Forbid';")).toEqual({ type: 'string', enum: ['Allow', 'Forbid'] });
  });
  it('a type alias of a literal union, and a string TS enum', () => {
    expect(field('f!: Policy;', "type Policy = 'A' | 'B';")).toEqual({ type: 'string', enum: ['A', 'B'] });
    expect(field('f!: Color;', "enum Color { Red = 'red', Blue = 'blue' }")).toEqual({
      type: 'string',
      enum: ['red', 'blue'],
    });
  });
  it("an alias's or enum's doc describes the field unless the field has its own", () => {
    expect(field('f!: Policy;', "/** How to run. */ type Policy = 'A' | 'B';")).toEqual({
      type: 'string',
      enum: ['A', 'B'],
      description: 'How to run.',
    });
    expect(field('/** Mine. */ f!: Color;', "/** Colors. */ enum Color { Red = 'red' }")).toEqual({
      type: 'string',
      enum: ['red'],
      description: 'Mine.',
    });
  });
  it('a numeric TS enum becomes an integer enum', () => {
    expect(field('f!: Level;', 'enum Level { Low = 1, Mid, High = 10 }')).toEqual({
      type: 'integer',
      enum: [1, 2, 10],
    });
  });
  it('true | false is a boolean', () => {
    expect(field('f!: true | false;')).toEqual({ type: 'boolean' });
  });
});

describe('arrays and maps', () => {
  it('T[], Array<T> and readonly T[] become arrays', () => {
    expect(field('f!: string[];')).toEqual({ type: 'array', items: { type: 'string' } });
    expect(field('f!: Array<int32>;')).toEqual({ type: 'array', items: { type: 'integer', format: 'int32' } });
    expect(field('f!: readonly boolean[];')).toEqual({ type: 'array', items: { type: 'boolean' } });
  });
  it('Record<string, T> and index signatures become additionalProperties', () => {
    expect(field('f!: Record<string, string>;')).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    expect(field('f!: { [key: string]: int64 };')).toEqual({
      type: 'object',
      additionalProperties: { type: 'integer', format: 'int64' },
    });
  });
});

describe('nested types', () => {
  it('classes, interfaces and inline object types nest, with their docs', () => {
    const s = field(
      '/** Field doc wins. */ f!: Inner; g!: Other; h!: { x?: string; y: int32 };',
      '/** Inner doc. */ class Inner { a!: string; b?: boolean; }\n/** Other doc. */ interface Other { c: number }',
    );
    expect(s).toEqual({
      type: 'object',
      description: 'Field doc wins.',
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['a'],
    });
    const all = spec(
      'f!: Inner; g!: Other; h!: { x?: string; y: int32 };',
      'class Inner { a!: string; }\n/** Other doc. */ interface Other { c: number }',
    );
    expect(all.properties?.['g']).toEqual({
      type: 'object',
      description: 'Other doc.',
      properties: { c: { type: 'number' } },
      required: ['c'],
    });
    expect(all.properties?.['h']).toEqual({
      type: 'object',
      properties: { x: { type: 'string' }, y: { type: 'integer', format: 'int32' } },
      required: ['y'],
    });
  });
  it('fields of base classes and interfaces are included; a redeclared field wins', () => {
    const s = field(
      'f!: Child;',
      'class Base { a!: string; b!: string; }\nclass Child extends Base { override b!: string; c?: int32; }',
    );
    expect(Object.keys(s.properties ?? {})).toEqual(['a', 'b', 'c']);
    expect(s.required).toEqual(['a', 'b']);
  });
  it('static, private and #private members are not fields', () => {
    const s = field('f!: C;', 'class C { static s = 1; private p = 1; #q = 1; pub!: string; }');
    expect(Object.keys(s.properties ?? {})).toEqual(['pub']);
  });
  it('T | null is nullable', () => {
    expect(field('f!: string | null;')).toEqual({ type: 'string', nullable: true });
  });
});

describe('known Kubernetes types', () => {
  it('Quantity: int-or-string with the resource.Quantity pattern', () => {
    expect(field('f!: Quantity;')).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      pattern: QUANTITY_PATTERN,
      'x-kubernetes-int-or-string': true,
    });
  });
  it('IntOrString, Time, MicroTime, Duration, RawExtension, JSONValue, ObjectMeta', () => {
    expect(field('f!: IntOrString;')).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    expect(field('f!: Time;')).toEqual({ type: 'string', format: 'date-time' });
    expect(field('f!: MicroTime;')).toEqual({ type: 'string', format: 'date-time' });
    expect(field('f!: Duration;')).toEqual({ type: 'string' });
    expect(field('f!: RawExtension;')).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(field('f!: JSONValue;')).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(field('f!: ObjectMeta;')).toEqual({ type: 'object' });
    expect(field('f!: V1ObjectMeta;')).toEqual({ type: 'object' });
  });
  it('Condition: the metav1.Condition schema with its validations', () => {
    const c = field('f!: Condition[];').items;
    expect(c?.required).toEqual(['lastTransitionTime', 'message', 'reason', 'status', 'type']);
    expect(c?.properties?.['status']).toMatchObject({ type: 'string', enum: ['True', 'False', 'Unknown'] });
    expect(c?.properties?.['reason']).toMatchObject({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    });
    expect(c?.properties?.['observedGeneration']).toMatchObject({ type: 'integer', format: 'int64', minimum: 0 });
    expect(c?.properties?.['type']?.maxLength).toBe(316);
  });
});

describe('core Kubernetes types', () => {
  it('V1Container is embedded in full, with its list-map keys and int-or-string ports', () => {
    const c = field('f!: V1Container;');
    expect(c.required).toEqual(['name']);
    expect(c.properties?.['ports']?.['x-kubernetes-list-type']).toBe('map');
    expect(c.properties?.['ports']?.['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    expect(
      c.properties?.['livenessProbe']?.properties?.['httpGet']?.properties?.['port']?.['x-kubernetes-int-or-string'],
    ).toBe(true);
  });
  it('namespace imports resolve too (k8s.V1PodTemplateSpec)', () => {
    const t = field('f!: k8s.V1PodTemplateSpec;');
    expect(t.properties?.['spec']?.required).toEqual(['containers']);
  });
});

describe('types without a schema are errors with a fix', () => {
  it('any / unknown', () => {
    expect(errors('f!: any;')).toEqual([
      "src/api/v1/t.ts:8: TSpec.f: type 'any': 'any' has no schema; use JSONValue (any JSON) or RawExtension (any object), or declare the shape",
    ]);
  });
  it('unresolvable names, non-literal unions, generic types, non-string map keys, missing annotation', () => {
    const lines = errors(
      'a!: Missing; b!: string | number; c!: Partial<X>; d!: Record<number, string>; e = compute();',
      'class X { x!: string }',
    );
    expect(lines).toEqual([
      "src/api/v1/t.ts:8: TSpec.a: type 'Missing': 'Missing' is not declared in t.ts nor imported",
      "src/api/v1/t.ts:8: TSpec.b: type 'string | number': unions are supported only of literals " +
        '(an enum) or of object types with a discriminator, with null/undefined; use IntOrString ' +
        'for int-or-string',
      "src/api/v1/t.ts:8: TSpec.c: type 'Partial<X>': generic types other than Array<T>, Record<string, T> and your own generic classes, interfaces and aliases are not supported",
      "src/api/v1/t.ts:8: TSpec.d: type 'Record<number, string>': map keys must be string (Record<string, T>)",
      "src/api/v1/t.ts:8: TSpec.e: type 'e': the field has no type annotation; declare its type",
    ]);
  });
  it('recursive types', () => {
    expect(errors('f!: Node;', 'class Node { children?: Node[]; }')).toEqual([
      "src/api/v1/t.ts:6: Node.children: recursive type (Node → Node) has no finite schema; break the cycle, or mark the field @Schemaless() @PreserveUnknownFields() @Type('object')",
    ]);
  });
  it('an unknown @kubernetes/client-node name', () => {
    expect(errors('f!: k8s.V1NoSuchThing;')[0]).toContain(
      "TSpec.f: 'V1NoSuchThing' from @kubernetes/client-node has no known schema",
    );
  });
});
