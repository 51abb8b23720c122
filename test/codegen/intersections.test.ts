/** Issue 11, item 4 (part): intersections of object types become one object with every part's fields. */
import { describe, expect, it } from 'vitest';
import { errors, field } from './harness.js';

describe('intersections', () => {
  it('of a class, an interface and an object literal type: their fields together, required as declared', () => {
    const extra =
      'class Base { name!: string }\ninterface Sized { size?: int32 }\ntype Labelled = { labels?: Record<string, string> };';
    expect(field('f?: Base & Sized & Labelled & { extra?: boolean };', extra)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        size: { type: 'integer', format: 'int32' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        extra: { type: 'boolean' },
      },
      required: ['name'],
    });
  });
  it('a later part wins a field both declare', () => {
    expect(field('f?: { a?: string } & { a: int32 };')).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', format: 'int32' } },
      required: ['a'],
    });
  });
  it('with a part that is not an object type is an error at the field', () => {
    expect(errors('f?: { a?: string } & string;')).toEqual([
      "src/api/v1/t.ts:8: TSpec.f: type '{ a?: string } & string': 'string' in an intersection is not an object type; intersect classes, interfaces or { … } types",
    ]);
  });
});
