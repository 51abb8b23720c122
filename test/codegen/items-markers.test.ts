/**
 * Issue 11, item 3 (part): controller-gen's `validation:items:` twins of the extension markers, and
 * `@ItemsType` applied before the other element markers whatever the decorator order.
 */
import { describe, expect, it } from 'vitest';
import { errors, field } from './harness.js';

describe('Items twins of the extension markers', () => {
  it('@ItemsXIntOrString makes each element int-or-string', () => {
    expect(field('@ItemsXIntOrString() f?: string[];')).toEqual({
      type: 'array',
      items: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
    });
  });
  it('@ItemsXEmbeddedResource and @ItemsPreserveUnknownFields mark each element', () => {
    expect(field('@ItemsXEmbeddedResource() @ItemsPreserveUnknownFields() f?: RawExtension[];')).toEqual({
      type: 'array',
      items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    });
  });
  it('on a field that is not an array, they say which marker to use instead', () => {
    expect(errors('@ItemsXIntOrString() f?: string;')).toEqual([
      'src/api/v1/t.ts:8: TSpec.f: @ItemsXIntOrString applies to array fields, but this one is string; use @XIntOrString instead',
    ]);
  });
});

describe('@ItemsType', () => {
  it('is applied first, so element markers written before it see the new type', () => {
    expect(field("@ItemsMaxLength(3) @ItemsType('string') f?: int32[];")).toEqual({
      type: 'array',
      items: { type: 'string', maxLength: 3 },
    });
    expect(field("@ItemsType('string') @ItemsMaxLength(3) f?: int32[];")).toEqual({
      type: 'array',
      items: { type: 'string', maxLength: 3 },
    });
  });
});
