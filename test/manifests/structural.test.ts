/** The API server's structural-schema rules, checked before anything is written. */
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/codegen/jsonschema.js';
import { checkStructural } from '../../src/manifests/structural.js';
import { validateValue } from '../../src/codegen/values.js';

const root = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const issues = (s: JSONSchemaProps): string[] => checkStructural(s).map((i) => `${i.path}: ${i.message}`);

describe('checkStructural', () => {
  it('accepts a well-formed schema, int-or-string and preserve-unknown-fields nodes without a type', () => {
    expect(
      issues(
        root({
          type: 'object',
          properties: {
            a: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
            b: { 'x-kubernetes-preserve-unknown-fields': true },
          },
        }),
      ),
    ).toEqual([]);
  });
  it('the root must be an object; every node needs a type; arrays need items', () => {
    expect(issues({ type: 'string' })).toEqual([': the root schema must be type object']);
    expect(issues(root({ type: 'object', properties: { a: {}, b: { type: 'array' } } }))).toEqual([
      '.spec.a: the node has no type; structural schemas need one (add @Type(...), or @PreserveUnknownFields() for free-form data)',
      '.spec.b: an array needs an items schema',
    ]);
  });
  it('forbidden keywords: $ref and friends, uniqueItems, properties with additionalProperties', () => {
    const bad = {
      type: 'object',
      $ref: '#/x',
      uniqueItems: true,
      properties: { a: { type: 'string' } },
      additionalProperties: { type: 'string' },
    } as unknown as JSONSchemaProps;
    expect(issues(root(bad))).toEqual([
      ".spec: '$ref' is not allowed in a structural schema; inline the schema instead",
      ".spec: uniqueItems is forbidden by the API server; use @ListType('set')",
      '.spec: properties and additionalProperties are mutually exclusive; use either fields or Record<string, T>',
    ]);
  });
  it('inside anyOf/allOf/oneOf/not: no type, default, description, nullable or x-kubernetes-*', () => {
    const s: JSONSchemaProps = {
      type: 'string',
      anyOf: [{ type: 'string', description: 'x' }],
      allOf: [{ nullable: true, 'x-kubernetes-map-type': 'atomic' } as JSONSchemaProps],
      not: { default: 'a' },
    };
    expect(issues(root(s))).toEqual([
      ".spec: .spec allOf[0]: 'nullable' is not allowed inside allOf; move it to the node itself",
      ".spec: .spec allOf[0]: 'x-kubernetes-map-type' is not allowed inside allOf",
      ".spec: .spec anyOf[0]: 'type' is not allowed inside anyOf; move it to the node itself",
      ".spec: .spec anyOf[0]: 'description' is not allowed inside anyOf; move it to the node itself",
      ".spec: .spec not[0]: 'default' is not allowed inside not; move it to the node itself",
    ]);
  });
  it('int-or-string nodes may set a type (the API server accepts it)', () => {
    expect(issues(root({ type: 'string', 'x-kubernetes-int-or-string': true }))).toEqual([]);
  });
  it('no defaults under apiVersion, kind or metadata', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } },
    };
    expect(issues(s)).toEqual(['.metadata.name: defaults are not allowed under apiVersion, kind or metadata']);
  });
  it('listType set needs scalar items', () => {
    expect(issues(root({ type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'set' }))).toEqual([
      ".spec: listType 'set' needs scalar items; use @ListType('map') with @ListMapKey for objects",
    ]);
  });
});

describe('validateValue (defaults)', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
      n: { type: 'integer', minimum: 1, maximum: 3, exclusiveMaximum: true },
      tags: { type: 'array', maxItems: 1, items: { type: 'string', enum: ['a', 'b'] } },
      any: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      map: { type: 'object', additionalProperties: { type: 'boolean' } },
      ios: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
    },
  };
  it('accepts a valid value, unknown fields where preserved, int-or-string of either kind', () => {
    expect(validateValue({ name: 'ab', n: 2, tags: ['a'], any: { x: 1 }, map: { k: true }, ios: '10%' }, s)).toEqual(
      [],
    );
    expect(validateValue({ name: 'ab', ios: 3 }, s)).toEqual([]);
  });
  it('names every problem with its path', () => {
    expect(validateValue({ n: 3, tags: ['c', 'a'], map: { k: 1 }, extra: 1, ios: 1.5, name: 'A' }, s)).toEqual([
      '.n: must be < 3',
      '.tags: must have at most 1 items',
      '.tags[0]: must be one of "a", "b"',
      '.map.k: must be boolean, got 1',
      '.extra: unknown field, it would be pruned',
      '.ios: must be an integer or a string',
      '.name: must be at least 2 characters',
      '.name: must match ^[a-z]+$',
    ]);
    expect(validateValue({}, s)).toEqual(['.name: is required']);
    expect(validateValue(null, { type: 'string' })).toEqual([
      'the value: null is not allowed (mark the field @Nullable())',
    ]);
  });
});
