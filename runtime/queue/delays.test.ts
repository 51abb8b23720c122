import { describe, expect, it } from 'vitest';
import { DelaySet } from './delays.js';

describe('DelaySet', () => {
  it('returns due keys earliest first, one entry per key', () => {
    const d = new DelaySet();
    const times = Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, at: (i * 7919) % 1000 }));
    for (const t of times) d.offer(t.key, t.at);
    expect(d.offer('k1', 5000)).toBe(false); // later than current: ignored
    expect(d.offer('k1', -1)).toBe(true);
    expect(d.size).toBe(200);
    const due = d.takeDue(499);
    const expected = times
      .map((t) => (t.key === 'k1' ? { ...t, at: -1 } : t))
      .filter((t) => t.at <= 499)
      .sort((a, b) => a.at - b.at)
      .map((t) => t.key);
    expect(due.map((k) => k)).toEqual(expected);
    expect(d.size).toBe(200 - expected.length);
    expect(d.nextAt()).toBeGreaterThan(499);
  });

  it('skips deleted keys', () => {
    const d = new DelaySet();
    d.offer('a', 1);
    d.offer('b', 2);
    d.delete('a');
    expect(d.nextAt()).toBe(2);
    expect(d.takeDue(10)).toEqual(['b']);
    expect(d.nextAt()).toBeUndefined();
  });
});
