/**
 * A small map whose entries expire, bounded in size: the metrics auth filter remembers review
 * answers with it, so a Prometheus scraping every few seconds does not cost two API requests
 * per scrape. The bound keeps a flood of made-up tokens from growing memory; the oldest entry
 * goes first.
 */

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(maxEntries >= 1)) throw new RangeError(`maxEntries must be >= 1, got ${maxEntries}`);
  }

  /** The value stored under `key`, or undefined when absent or expired (then it is dropped). */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() >= e.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores `value` for `ttlMs`; a ttl of 0 or less stores nothing. */
  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key); // re-inserting moves the key to the young end
    if (ttlMs <= 0) return;
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
