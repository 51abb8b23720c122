/**
 * Generic classes, interfaces and aliases instantiated with concrete types (issue 11 item 4):
 * each instantiation is its own type, with the type parameters replaced by the arguments.
 */
import { describe, expect, it } from 'vitest';
import { crds, errors, run, spec, specFiles } from './harness.js';

const GENERICS = `
/** A page of items. */
export class Page<T> {
  /** The items. */
  items?: T[];
  total!: int32;
  byName?: Record<string, T>;
}
export interface Pair<A, B = string> { first: A; second?: B }
export type Ranged<N> = { min?: N; max?: N };
export class Item { name!: string }
export class Counted<T> extends Page<T> { count?: int64 }
export class Spec2 extends Page<Item> {}
`;

describe('generics', () => {
  it('a generic class, interface (with a default) and alias, instantiated with concrete types', () => {
    const s = spec(
      'items?: Page<Item>;\nnames?: Page<string>;\npair?: Pair<int32>;\nrange?: Ranged<Quantity>;\nnested?: Page<Pair<Item, boolean>>;',
      GENERICS,
    );
    expect(s.properties?.['items']).toEqual({
      type: 'object',
      description: 'A page of items.',
      properties: {
        items: {
          type: 'array',
          description: 'The items.',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        total: { type: 'integer', format: 'int32' },
        byName: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      required: ['total'],
    });
    expect(s.properties?.['names']?.properties?.['items']?.items).toEqual({ type: 'string' });
    expect(s.properties?.['pair']).toEqual({
      type: 'object',
      properties: { first: { type: 'integer', format: 'int32' }, second: { type: 'string' } },
      required: ['first'],
    });
    expect(s.properties?.['range']?.properties?.['min']?.['x-kubernetes-int-or-string']).toBe(true);
    const inner = s.properties?.['nested']?.properties?.['items']?.items;
    expect(inner?.properties?.['second']).toEqual({ type: 'boolean' });
    expect(inner?.properties?.['first']?.properties?.['name']).toEqual({ type: 'string' });
  });

  it('extends a generic base with arguments, passing its own parameter on', () => {
    const s = spec('a?: Counted<int32>;\nb?: Spec2;', GENERICS);
    expect(s.properties?.['a']?.properties?.['items']?.items).toEqual({ type: 'integer', format: 'int32' });
    expect(s.properties?.['a']?.properties?.['count']).toEqual({ type: 'integer', format: 'int64' });
    expect(s.properties?.['b']?.properties?.['items']?.items?.properties?.['name']).toEqual({ type: 'string' });
  });

  it('two instantiations are two types; two files with an Item of their own do not mix', () => {
    const result = run({
      ...specFiles(
        'a?: Page<Item>;\nb?: Page<Other>;',
        "import { Page } from './page.js';\nimport { Item as Other } from './other.js';\nexport class Item { x!: string }",
      ),
      'src/api/v1/page.ts': 'export class Page<T> { items?: T[] }',
      'src/api/v1/other.ts': 'export class Item { y!: string }',
    });
    expect(result.errors).toEqual([]);
    const props = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec
      .properties;
    expect(props.a.properties.items.items.required).toEqual(['x']);
    expect(props.b.properties.items.items.required).toEqual(['y']);
  });

  it('wrong arity, a missing argument and a generic of a package are errors at the field', () => {
    expect(
      errors(
        'a?: Pair;\nok?: Pair<string>;\nb?: Page<string, int32>;\nc?: Item<string>;\nd?: Partial<Item>;',
        GENERICS,
      ),
    ).toEqual([
      "src/api/v1/t.ts:21: TSpec.a: type 'Pair': type parameter A of Pair has no argument and no default",
      "src/api/v1/t.ts:23: TSpec.b: type 'Page<string, int32>': Page takes 1 type argument, got 2",
      "src/api/v1/t.ts:24: TSpec.c: type 'Item<string>': Item takes no type arguments",
      "src/api/v1/t.ts:25: TSpec.d: type 'Partial<Item>': generic types other than Array<T>, Record<string, T> and your own generic classes, interfaces and aliases are not supported",
    ]);
  });
});
