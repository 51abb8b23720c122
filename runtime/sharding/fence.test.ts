import { describe, expect, it } from 'vitest';
import { cacheHasPassed, compareResourceVersions, fenceAdmits, takeoverFence, type TakeoverFence } from './fence.js';

describe('resource versions of one resource', () => {
  it('compare as whole numbers of any length, and not at all when either is not one', () => {
    expect(compareResourceVersions('10', '9')).toBeGreaterThan(0);
    expect(compareResourceVersions('9', '10')).toBeLessThan(0);
    expect(compareResourceVersions('123456789012345678901', '123456789012345678901')).toBe(0);
    expect(compareResourceVersions('', '5')).toBeUndefined();
    expect(compareResourceVersions('5', 'a7')).toBeUndefined();
    expect(compareResourceVersions('007', '7')).toBeUndefined();
  });
});

describe('the takeover fence', () => {
  const fence: TakeoverFence = { resourceVersion: '500', keys: new Set(['ns/g1']) };

  it('is passed once the cache has seen the listed version or a later one', () => {
    expect(cacheHasPassed(fence, '499')).toBe(false);
    expect(cacheHasPassed(fence, '500')).toBe(true);
    expect(cacheHasPassed(fence, '1000')).toBe(true);
    // Not comparable: the fence stays.
    expect(cacheHasPassed(fence, '')).toBe(false);
  });

  it('until then admits only what the list found on the shard, so a cache behind a move made before the takeover reconciles nothing that moved', () => {
    expect(fenceAdmits(fence, '499', 'ns/g1')).toBe(true);
    expect(fenceAdmits(fence, '499', 'ns/g2')).toBe(false);
    expect(fenceAdmits(fence, '501', 'ns/g2')).toBe(true);
    expect(fenceAdmits(undefined, '1', 'ns/g2')).toBe(true);
  });

  it('is set only where versions are whole numbers (nothing could lift it elsewhere)', () => {
    expect(takeoverFence('500', new Set(['ns/g1']))).toEqual(fence);
    expect(takeoverFence('', new Set())).toBeUndefined();
    expect(takeoverFence('opaque-7', new Set())).toBeUndefined();
  });
});
