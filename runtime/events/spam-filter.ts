/**
 * Per-object event rate limit, as client-go's EventSourceObjectSpamFilter: each regarding
 * object (per reporting controller) has a token bucket of 25 events refilled at one per five
 * minutes; an event without a token is dropped. A reconcile loop failing on one object then
 * cannot flood the API server with Events, while other objects keep theirs.
 */
import type { ObjectReference } from './event.js';

export interface SpamFilterOptions {
  /** Events an object may have in a burst (default 25, as client-go). */
  burst?: number;
  /** One token comes back per this many ms (default 5 min, as client-go's qps 1/300). */
  refillMs?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class SpamFilter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly refillMs: number;

  constructor(opts: SpamFilterOptions = {}) {
    this.burst = opts.burst ?? 25;
    this.refillMs = opts.refillMs ?? 5 * 60_000;
  }

  /** Takes a token for the object's bucket; false when the event must be dropped. */
  allow(source: string, regarding: ObjectReference, nowMs: number): boolean {
    const key = [source, regarding.kind, regarding.namespace, regarding.name, regarding.uid]
      .map((x) => x ?? '')
      .join('/');
    const b = this.refilled(this.buckets.get(key), nowMs);
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    return true;
  }

  /** Forgets buckets that have refilled completely (they would behave as new ones). */
  sweep(nowMs: number): void {
    for (const [key, b] of this.buckets) if (this.refilled(b, nowMs).tokens >= this.burst) this.buckets.delete(key);
  }

  private refilled(b: Bucket | undefined, nowMs: number): Bucket {
    if (!b) return { tokens: this.burst, at: nowMs };
    const gained = Math.floor((nowMs - b.at) / this.refillMs);
    if (gained <= 0) return b;
    return { tokens: Math.min(this.burst, b.tokens + gained), at: b.at + gained * this.refillMs };
  }
}
