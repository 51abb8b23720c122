import { describe, expect, it } from 'vitest';
import { deepCopy } from './deep-copy.js';

describe('deepCopy', () => {
  it('copies a decoded API object so that no part is shared', () => {
    const obj = JSON.parse(
      '{"metadata":{"name":"a","labels":{"x":"y"},"finalizers":["f"]},"spec":{"n":1,"on":true,"none":null,"list":[{"k":[1,2]}]}}',
    ) as Record<string, any>;
    const copied = deepCopy(obj);
    expect(copied).toEqual(obj);
    copied.metadata.labels.x = 'changed';
    copied.metadata.finalizers.push('g');
    copied.spec.list[0].k[0] = 9;
    expect(obj.metadata.labels.x).toBe('y');
    expect(obj.metadata.finalizers).toEqual(['f']);
    expect(obj.spec.list[0].k).toEqual([1, 2]);
  });

  it('keeps a "__proto__" key as data, as JSON.parse made it', () => {
    const obj = JSON.parse('{"spec":{"__proto__":{"polluted":true}}}') as { spec: Record<string, unknown> };
    const copied = deepCopy(obj);
    expect(Object.keys(copied.spec)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copied.spec)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(copied)).toBe(JSON.stringify(obj));
  });

  it('copies values that are not plain JSON (from a cache transform) with structuredClone', () => {
    const when = new Date('2026-11-24T00:00:00Z');
    const obj = {
      metadata: { name: 'a' },
      at: when,
      seen: new Map([['k', { n: 1 }]]),
      bare: Object.assign(Object.create(null) as object, { z: 1 }),
    };
    const copied = deepCopy(obj);
    expect(copied.at).toBeInstanceOf(Date);
    expect(copied.at).not.toBe(when);
    expect(copied.at.getTime()).toBe(when.getTime());
    expect(copied.seen.get('k')).toEqual({ n: 1 });
    expect(copied.seen.get('k')).not.toBe(obj.seen.get('k'));
    expect(Object.getPrototypeOf(copied.bare)).toBeNull();
    expect(copied.bare).not.toBe(obj.bare);
  });
});
