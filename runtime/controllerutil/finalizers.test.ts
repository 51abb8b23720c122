import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { addFinalizer, containsFinalizer, removeFinalizer } from './index.js';

describe('finalizers', () => {
  it('add is idempotent and reports whether it changed the object', () => {
    const obj: KubeObject = { metadata: { name: 'x' } };
    expect(containsFinalizer(obj, 'example.com/cleanup')).toBe(false);
    expect(addFinalizer(obj, 'example.com/cleanup')).toBe(true);
    expect(addFinalizer(obj, 'example.com/cleanup')).toBe(false);
    expect(obj.metadata?.finalizers).toEqual(['example.com/cleanup']);
    expect(containsFinalizer(obj, 'example.com/cleanup')).toBe(true);
  });

  it('remove drops only the named finalizer', () => {
    const obj: KubeObject = { metadata: { name: 'x', finalizers: ['a', 'b', 'a'] } };
    expect(removeFinalizer(obj, 'a')).toBe(true);
    expect(obj.metadata?.finalizers).toEqual(['b']);
    expect(removeFinalizer(obj, 'a')).toBe(false);
    expect(removeFinalizer({}, 'a')).toBe(false);
  });

  it('add works on an object without metadata', () => {
    const obj: KubeObject = {};
    expect(addFinalizer(obj, 'f')).toBe(true);
    expect(obj.metadata?.finalizers).toEqual(['f']);
  });
});
