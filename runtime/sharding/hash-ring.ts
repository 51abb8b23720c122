/**
 * Consistent hashing: each shard owns many points ("tokens") on a ring of 48-bit numbers, and a
 * key belongs to the shard of the first token at or after the key's own hash. Adding a shard
 * takes about 1/n of the keys, each from the shard that had it; removing one hands only its keys
 * to the others. Hashes are SHA-256 (the first 6 bytes), the same in every process and Node
 * version, so every replica computes the same assignment from the same set of shards. Pure.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_TOKENS_PER_SHARD } from '../manager/sharding-engine.js';

/** Tokens per shard (512: the largest of 3 shards holds about 1.1 × its fair share); the manager's default. */
export { DEFAULT_TOKENS_PER_SHARD };

/** A 48-bit hash of `text` (exact in a double). */
export function hash48(text: string): number {
  return createHash('sha256').update(text).digest().readUIntBE(0, 6);
}

const RING_SIZE = 2 ** 48;

export class HashRing {
  /** Token positions, ascending, and the shard owning each. */
  private readonly points: number[];
  private readonly owners: string[];
  readonly shards: readonly string[];

  constructor(
    shards: Iterable<string>,
    readonly tokensPerShard = DEFAULT_TOKENS_PER_SHARD,
  ) {
    this.shards = [...new Set(shards)].sort();
    const tokens: Array<[number, string]> = [];
    for (const shard of this.shards)
      for (let i = 0; i < tokensPerShard; i++) tokens.push([hash48(`${shard}/${i}`), shard]);
    // Ties (vanishingly rare) are broken by shard name, so every process orders them alike.
    tokens.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    this.points = tokens.map((t) => t[0]);
    this.owners = tokens.map((t) => t[1]);
  }

  get empty(): boolean {
    return this.points.length === 0;
  }

  /** The shard `key` belongs to; undefined when the ring has no shard. */
  shardFor(key: string): string | undefined {
    if (this.points.length === 0) return undefined;
    const h = hash48(key);
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.points[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    return this.owners[lo % this.points.length];
  }

  /** Each shard's fraction of the hash space (what share of keys it should get). */
  shares(): Map<string, number> {
    const out = new Map<string, number>(this.shards.map((s) => [s, 0]));
    const n = this.points.length;
    for (let i = 0; i < n; i++) {
      // Token i owns the arc from the previous token (exclusive) up to itself.
      const prev = i === 0 ? this.points[n - 1]! - RING_SIZE : this.points[i - 1]!;
      const owner = this.owners[i]!;
      out.set(owner, out.get(owner)! + (this.points[i]! - prev) / RING_SIZE);
    }
    return out;
  }
}
