import { describe, expect, it } from 'vitest';
import { TtlCache } from './index.js';

describe('TtlCache', () => {
  it('returns a value until its ttl has passed, then forgets it', () => {
    let now = 1_000;
    const c = new TtlCache<string>(10, () => now);
    c.set('a', 'x', 500);
    now = 1_499;
    expect(c.get('a')).toBe('x');
    now = 1_500;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('gives each entry its own ttl, and a new set restarts it', () => {
    let now = 0;
    const c = new TtlCache<boolean>(10, () => now);
    c.set('allowed', true, 300_000);
    c.set('denied', false, 30_000);
    now = 30_000;
    expect(c.get('allowed')).toBe(true);
    expect(c.get('denied')).toBeUndefined();
    c.set('allowed', true, 1_000);
    now = 31_000;
    expect(c.get('allowed')).toBeUndefined();
  });

  it('stores nothing for a ttl of 0', () => {
    const c = new TtlCache<number>(10);
    c.set('a', 1, 0);
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('drops the oldest entry when full', () => {
    const c = new TtlCache<number>(2);
    c.set('a', 1, 60_000);
    c.set('b', 2, 60_000);
    c.set('a', 3, 60_000); // refreshed: now younger than b
    c.set('c', 4, 60_000);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(3);
    expect(c.get('c')).toBe(4);
    expect(c.size).toBe(2);
  });

  it('refuses a size below one', () => {
    expect(() => new TtlCache(0)).toThrow('maxEntries must be >= 1, got 0');
  });
});
