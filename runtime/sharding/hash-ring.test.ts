import { describe, expect, it } from 'vitest';
import { HashRing, hash48 } from './hash-ring.js';

const keys = Array.from({ length: 3000 }, (_, i) => `ns/g-${i}`);

function counts(ring: HashRing): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) out.set(ring.shardFor(k)!, (out.get(ring.shardFor(k)!) ?? 0) + 1);
  return out;
}

describe('HashRing', () => {
  it('is empty without shards and gives every key to the only shard', () => {
    expect(new HashRing([]).shardFor('ns/a')).toBeUndefined();
    expect(new HashRing([]).empty).toBe(true);
    const one = new HashRing(['only']);
    expect(keys.every((k) => one.shardFor(k) === 'only')).toBe(true);
  });

  it('answers the same whatever order the shards come in (every replica computes the same ring)', () => {
    const a = new HashRing(['s-1', 's-2', 's-3']);
    const b = new HashRing(['s-3', 's-1', 's-2', 's-1']);
    expect(keys.every((k) => a.shardFor(k) === b.shardFor(k))).toBe(true);
    expect(b.shards).toEqual(['s-1', 's-2', 's-3']);
    // A stable hash: the first 6 bytes of SHA-256, the same in every process and Node version.
    expect(hash48('a')).toBe(0xca978112ca1b);
  });

  it('spreads keys evenly: with 3 shards none holds more than 1.2 × its share', () => {
    const ring = new HashRing(['replica-a1b2c', 'replica-d3e4f', 'replica-g5h6i']);
    for (const n of counts(ring).values()) expect(n).toBeLessThan(1.2 * 1000);
    const shares = [...ring.shares().values()];
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    for (const s of shares) expect(s).toBeGreaterThan(0.28);
  });

  it('moves only the new shard’s share when a shard joins, each key from the shard that had it', () => {
    const before = new HashRing(['a', 'b', 'c']);
    const after = new HashRing(['a', 'b', 'c', 'd']);
    let moved = 0;
    for (const k of keys) {
      if (before.shardFor(k) === after.shardFor(k)) continue;
      moved++;
      expect(after.shardFor(k)).toBe('d');
    }
    expect(moved).toBeGreaterThan(0.15 * keys.length);
    expect(moved).toBeLessThan(0.35 * keys.length);
  });

  it('hands only the leaving shard’s keys to the others', () => {
    const before = new HashRing(['a', 'b', 'c']);
    const after = new HashRing(['a', 'c']);
    for (const k of keys) if (before.shardFor(k) !== 'b') expect(after.shardFor(k)).toBe(before.shardFor(k));
  });
});
