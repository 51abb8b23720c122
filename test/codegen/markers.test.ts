/** Golden tests per field/type marker: decorated field → schema fragment, and misuse → message. */
import { describe, expect, it } from 'vitest';
import { errors, field, spec } from './harness.js';

const L = 'src/api/v1/t.ts:8: TSpec.f:';

describe('numeric bounds', () => {
  it('@Minimum, @Maximum, @ExclusiveMinimum, @ExclusiveMaximum, @MultipleOf', () => {
    expect(field('@Minimum(1) @Maximum(10) f!: int32;')).toEqual({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 10,
    });
    expect(field('@Minimum(0) @ExclusiveMinimum() @Maximum(1) @ExclusiveMaximum(true) f!: number;')).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: true,
    });
    expect(field('@MultipleOf(0.5) f!: number;')).toEqual({ type: 'number', multipleOf: 0.5 });
  });
  it('reject non-numeric fields and fractions on integers', () => {
    expect(errors('@Minimum(1) f!: string;')).toEqual([
      `${L} @Minimum applies to number fields, but this one is string; remove the marker or change the field's type`,
    ]);
    expect(errors('@Maximum(1.5) f!: int32;')).toEqual([`${L} @Maximum(1.5) on an integer field needs a whole number`]);
    expect(errors('@MultipleOf(0) f!: number;')).toEqual([`${L} @MultipleOf(0) needs a positive number`]);
    expect(errors("@Minimum('1') f!: number;")).toEqual([`${L} @Minimum(value: number) takes one number, got ["1"]`]);
  });
});

describe('string markers', () => {
  it('@MinLength, @MaxLength, @Pattern, @Format (also on int-or-string)', () => {
    expect(field("@MinLength(1) @MaxLength(63) @Pattern('^[a-z]+$') @Format('hostname') f!: string;")).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 63,
      pattern: '^[a-z]+$',
      format: 'hostname',
    });
    expect(field("@Pattern('^[0-9]+%?$') f!: IntOrString;")).toMatchObject({
      pattern: '^[0-9]+%?$',
      'x-kubernetes-int-or-string': true,
    });
  });
  it('reject non-strings, negative lengths and broken patterns', () => {
    expect(errors('@MaxLength(3) f!: boolean;')).toEqual([
      `${L} @MaxLength applies to string fields, but this one is boolean; remove the marker or change the field's type`,
    ]);
    expect(errors('@MinLength(-1) f!: string;')).toEqual([
      `${L} @MinLength(value: non-negative integer) takes one non-negative integer, got [-1]`,
    ]);
    expect(errors("@Pattern('([a-z') f!: string;")[0]).toMatch(
      /^src\/api\/v1\/t\.ts:8: TSpec\.f: @Pattern\("\(\[a-z"\): unclosed '\[' at offset 1; the API server matches patterns with RE2/,
    );
  });
});

describe('@Enum, @Type, @Nullable, @Title, @Example, @Default', () => {
  it('@Enum sets the allowed values and checks them against the type', () => {
    expect(field("@Enum('a', 'b') f!: string;")).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(field("@Enum(1, 'all') f!: IntOrString;")).toMatchObject({ enum: [1, 'all'] });
    expect(errors("@Enum('a', 2) f!: string;")).toEqual([
      `${L} @Enum value 2 is not a valid string; make every value match the field's type`,
    ]);
  });
  it('@Type replaces the derived type', () => {
    expect(field("@Type('string') @Format('date') f!: JSONValue;")).toEqual({ type: 'string', format: 'date' });
    expect(errors("@Type('text') f!: string;")).toEqual([
      `${L} @Type('object' | 'array' | 'string' | 'integer' | 'number' | 'boolean') takes one of 'object', 'array', 'string', 'integer', 'number', 'boolean', got ["text"]`,
    ]);
  });
  it('@Nullable, @Title, @Example', () => {
    expect(field("@Nullable() @Title('F') @Example('x') f!: string;")).toEqual({
      type: 'string',
      nullable: true,
      title: 'F',
      example: 'x',
    });
  });
  it('@Default: any JSON literal; {} on an array means []; consts from the same file', () => {
    expect(field("@Default('Allow') f?: 'Allow' | 'Forbid';")).toEqual({
      type: 'string',
      enum: ['Allow', 'Forbid'],
      default: 'Allow',
    });
    expect(field('@Default({}) f?: string[];')).toEqual({ type: 'array', items: { type: 'string' }, default: [] });
    expect(field('@Default(DEF) f?: int32;', 'const DEF = 3;')).toEqual({
      type: 'integer',
      format: 'int32',
      default: 3,
    });
    expect(field("@Default({ a: 'x' }) f?: Inner;", 'class Inner { a?: string; }')).toMatchObject({
      default: { a: 'x' },
    });
  });
  it('a default that does not validate is an error', () => {
    expect(errors('@Default(0) @Minimum(1) f?: int32;')).toEqual([
      "src/api/v1/t.ts:8: T .spec.f: the default 0 is invalid (the value: must be >= 1); change @Default or the field's validations",
    ]);
    expect(errors("@Default({ b: 'x' }) f?: Inner;", 'class Inner { a?: string; }')).toEqual([
      'src/api/v1/t.ts:8: T .spec.f: the default {"b":"x"} is invalid (.b: unknown field, it would be pruned); change @Default or the field\'s validations',
    ]);
  });
  it('arguments must be literals', () => {
    expect(errors('@Minimum(Math.PI) f!: number;')).toEqual([
      "src/api/v1/t.ts:8: @Minimum: 'Math.PI' is not a literal; marker arguments must be literals, consts declared with a literal, or enum members, in the API files or imported from them",
    ]);
  });
});

describe('array and object counts', () => {
  it('@MinItems, @MaxItems, @MinProperties, @MaxProperties', () => {
    expect(field('@MinItems(1) @MaxItems(5) f!: string[];')).toEqual({
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 5,
    });
    expect(field('@MinProperties(1) @MaxProperties(3) f!: Record<string, string>;')).toMatchObject({
      minProperties: 1,
      maxProperties: 3,
    });
    expect(errors('@MinItems(1) f!: string;')).toEqual([
      `${L} @MinItems applies to array fields, but this one is string; remove the marker or change the field's type`,
    ]);
  });
  it('@UniqueItems becomes listType set (the server forbids uniqueItems), only for scalars', () => {
    expect(field('@UniqueItems() f!: string[];')).toEqual({
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'set',
    });
    expect(errors('@UniqueItems() f!: Inner[];', 'class Inner { a!: string }')).toEqual([
      `${L} @UniqueItems needs scalar elements (it becomes listType 'set'); for objects use @ListType('map') with @ListMapKey`,
    ]);
  });
});

describe('Items… markers apply to the elements', () => {
  it('@ItemsMinimum, @ItemsPattern, @ItemsEnum, @ItemsMaxLength', () => {
    expect(field('@ItemsMinimum(0) @ItemsMaximum(9) f!: int32[];')).toEqual({
      type: 'array',
      items: { type: 'integer', format: 'int32', minimum: 0, maximum: 9 },
    });
    expect(field("@ItemsPattern('^x') @ItemsMaxLength(3) @ItemsEnum('xa', 'xb') f!: string[];").items).toEqual({
      type: 'string',
      pattern: '^x',
      maxLength: 3,
      enum: ['xa', 'xb'],
    });
  });
  it.each([
    ['@ItemsExclusiveMinimum() @ItemsMinimum(0) f!: number[];', { type: 'number', minimum: 0, exclusiveMinimum: true }],
    ['@ItemsExclusiveMaximum() @ItemsMaximum(1) f!: number[];', { type: 'number', maximum: 1, exclusiveMaximum: true }],
    ['@ItemsMultipleOf(4) f!: int64[];', { type: 'integer', format: 'int64', multipleOf: 4 }],
    ['@ItemsMinLength(2) f!: string[];', { type: 'string', minLength: 2 }],
    ["@ItemsFormat('uri') f!: string[];", { type: 'string', format: 'uri' }],
    ["@ItemsType('string') f!: JSONValue[];", { type: 'string' }],
    [
      '@ItemsMinItems(1) @ItemsMaxItems(2) f!: string[][];',
      { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
    ],
    [
      '@ItemsUniqueItems() f!: string[][];',
      { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    ],
    [
      '@ItemsMinProperties(1) @ItemsMaxProperties(2) f!: Record<string, string>[];',
      { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1, maxProperties: 2 },
    ],
    ['@ItemsNullable() f!: string[];', { type: 'string', nullable: true }],
    [
      "@ItemsXValidation({ rule: 'self != \\'\\'' }) f!: string[];",
      { type: 'string', 'x-kubernetes-validations': [{ rule: "self != ''" }] },
    ],
  ])('%s', (decl, items) => {
    expect(field(decl).items).toEqual(items);
  });
  it('on a non-array, and with a wrong element type', () => {
    expect(errors('@ItemsMinimum(0) f!: int32;')).toEqual([
      `${L} @ItemsMinimum applies to array fields, but this one is integer; use @Minimum instead`,
    ]);
    expect(errors('@ItemsMinimum(0) f!: string[];')).toEqual([
      `${L} @ItemsMinimum applies to number fields, but this one is string; remove the marker or change the field's type`,
    ]);
  });
});

describe('presence: @Required, @Optional', () => {
  it('override ?', () => {
    expect(spec('@Required() a?: string; @Optional() b!: string; c!: string;').required).toEqual(['a', 'c']);
  });
  it('only on fields', () => {
    expect(errors('f!: Inner;', '@Required() class Inner { a?: string }')).toEqual([
      'src/api/v1/t.ts:6: Inner: @Required stands on fields, not on classes',
    ]);
  });
});

describe('CEL: @XValidation, @Immutable, one-of', () => {
  it('@XValidation on a field and on a class, with every option', () => {
    expect(
      field(
        "@XValidation({ rule: 'self.size() > 0', message: 'must not be empty', reason: 'FieldValueRequired', fieldPath: '.x', messageExpression: 'self', optionalOldSelf: true }) f!: string;",
      ),
    ).toEqual({
      type: 'string',
      'x-kubernetes-validations': [
        {
          rule: 'self.size() > 0',
          message: 'must not be empty',
          reason: 'FieldValueRequired',
          fieldPath: '.x',
          messageExpression: 'self',
          optionalOldSelf: true,
        },
      ],
    });
    expect(
      field(
        'f!: R;',
        "@XValidation({ rule: 'self.min <= self.max', message: 'min must not exceed max' }) class R { min!: int32; max!: int32 }",
      )['x-kubernetes-validations'],
    ).toEqual([{ rule: 'self.min <= self.max', message: 'min must not exceed max' }]);
  });
  it('@XValidation rejects unknown reasons and options', () => {
    expect(errors("@XValidation({ rule: 'true', reason: 'Bad' }) f!: string;")[0]).toContain(
      "option 'reason' must be 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate', got \"Bad\"",
    );
    expect(errors("@XValidation({ rule: 'true', msg: 'x' }) f!: string;")[0]).toContain(
      "unknown option 'msg'; known: rule, message, messageExpression, reason, fieldPath, optionalOldSelf",
    );
  });
  it('@Immutable is self == oldSelf', () => {
    expect(field('@Immutable() f!: string;')['x-kubernetes-validations']).toEqual([
      { rule: 'self == oldSelf', message: 'field is immutable' },
    ]);
  });
  it('@ExactlyOneOf, @AtMostOneOf, @AtLeastOneOf become has() rules over optional fields', () => {
    const v = (m: string): unknown =>
      field('f!: S;', `@${m}('a', 'b') class S { a?: string; b?: string; }`)['x-kubernetes-validations'];
    expect(v('ExactlyOneOf')).toEqual([
      {
        rule: '[has(self.a),has(self.b)].filter(x,x==true).size() == 1',
        message: 'exactly one of the fields in [a b] must be set',
      },
    ]);
    expect(v('AtMostOneOf')).toEqual([
      {
        rule: '[has(self.a),has(self.b)].filter(x,x==true).size() <= 1',
        message: 'at most one of the fields in [a b] may be set',
      },
    ]);
    expect(v('AtLeastOneOf')).toEqual([
      {
        rule: '[has(self.a),has(self.b)].filter(x,x==true).size() >= 1',
        message: 'at least one of the fields in [a b] must be set',
      },
    ]);
    expect(errors('f!: S;', "@ExactlyOneOf('a', 'c') class S { a!: string; b?: string; }")).toEqual([
      "src/api/v1/t.ts:6: S: @ExactlyOneOf: field 'a' is required, so the rule could never hold; declare it with '?'",
    ]);
  });
  it('oldSelf under a list that is not a map is refused', () => {
    expect(errors('f!: Item[];', 'class Item { @Immutable() name!: string }')).toEqual([
      "src/api/v1/t.ts:6: T .spec.f[*].name: CEL rule 'self == oldSelf' uses oldSelf, which is " +
        'only allowed where the node can be matched to its old value (no list parents other than ' +
        "listType 'map'); use @ListType('map') with @ListMapKey on the enclosing list, or drop oldSelf",
    ]);
    expect(() =>
      field("@ListType('map') @ListMapKey('name') f!: Item[];", 'class Item { @Immutable() name!: string }'),
    ).not.toThrow();
  });
});

describe('structure markers', () => {
  it('@PreserveUnknownFields, @XEmbeddedResource, @XIntOrString, @Schemaless', () => {
    expect(field('@PreserveUnknownFields() f!: Record<string, string>;')).toMatchObject({
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(field('@XEmbeddedResource() @PreserveUnknownFields() f!: RawExtension;')).toEqual({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(field('@XIntOrString() f!: string;')).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    expect(
      field('/** Free. */ @Schemaless() @PreserveUnknownFields() f!: Node;', 'class Node { next?: Node }'),
    ).toEqual({ description: 'Free.', 'x-kubernetes-preserve-unknown-fields': true });
  });
  it('@Schemaless alone leaves a node without a type: a structural error', () => {
    expect(errors('@Schemaless() f!: string;')).toEqual([
      'src/api/v1/t.ts:8: T .spec.f: the node has no type; structural schemas need one (add @Type(...), or @PreserveUnknownFields() for free-form data)',
    ]);
  });
  it('@ListType and @ListMapKey', () => {
    expect(
      field(
        "@ListType('map') @ListMapKey('name', 'port') f!: P[];",
        'class P { name!: string; port!: int32; x?: string }',
      ),
    ).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'port'],
    });
    expect(field("@ListType('atomic') f!: string[];")['x-kubernetes-list-type']).toBe('atomic');
  });
  it('list-map keys must exist, be scalar, and be required or defaulted', () => {
    const extra = 'class P { name?: string; sub!: P2; @Default(80) port?: int32 }\nclass P2 { a?: string }';
    const L9 = 'src/api/v1/t.ts:9: TSpec.f:';
    expect(errors("@ListType('map') @ListMapKey('nope') f!: P[];", extra)).toEqual([
      `${L9} @ListMapKey('nope'): the elements have no property 'nope'; name one of name, sub, port`,
    ]);
    expect(errors("@ListType('map') @ListMapKey('sub') f!: P[];", extra)).toEqual([
      `${L9} @ListMapKey('sub'): the key must be a scalar (string, integer, number or boolean), not object`,
    ]);
    expect(errors("@ListType('map') @ListMapKey('name') f!: P[];", extra)).toEqual([
      `${L9} @ListMapKey('name'): the key must be required or have a @Default; remove '?' from 'name' or give it a default`,
    ]);
    expect(() => field("@ListType('map') @ListMapKey('port') f!: P[];", extra)).not.toThrow();
    expect(errors("@ListMapKey('port') f!: P[];", extra)).toEqual([
      "src/api/v1/t.ts:9: T .spec.f: @ListMapKey needs @ListType('map') on the same field",
    ]);
    expect(errors("@ListType('map') f!: string[];")).toEqual([
      `${L} @ListType('map') needs object elements; use 'set' or 'atomic' for scalars`,
    ]);
    expect(errors("@ListType('map') f!: P[];", extra)).toEqual([
      "src/api/v1/t.ts:9: T .spec.f: listType 'map' needs at least one key; add @ListMapKey('name')",
    ]);
  });
  it('@MapType and @StructType', () => {
    expect(field("@MapType('atomic') f!: Record<string, string>;")['x-kubernetes-map-type']).toBe('atomic');
    expect(field("@StructType('atomic') f!: S;", 'class S { a?: string }')['x-kubernetes-map-type']).toBe('atomic');
    expect(errors("@MapType('atomic') f!: string;")).toEqual([
      `${L} @MapType applies to object fields, but this one is string; remove the marker or change the field's type`,
    ]);
  });
});

describe('markers in the wrong place', () => {
  it('kind markers on fields or nested classes, field-only markers on classes', () => {
    expect(errors("@PrintColumn({ name: 'x', type: 'string', jsonPath: '.x' }) f!: string;")).toEqual([
      `${L} @PrintColumn stands on a @Resource class (a kind), not here`,
    ]);
    expect(errors('f!: S;', '@Immutable() class S { a?: string }')).toEqual([
      'src/api/v1/t.ts:6: S: @Immutable stands on fields, not on classes',
    ]);
    expect(errors("@ExactlyOneOf('a') f!: string;")).toEqual([`${L} @ExactlyOneOf stands on classes, not on fields`]);
  });
});
