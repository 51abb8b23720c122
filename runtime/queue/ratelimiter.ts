/**
 * Rate limiters decide how long a failed key waits before its retry. Each is a small piece:
 * per-item exponential backoff, an overall token bucket, and a combiner taking the maximum —
 * controller-runtime's default is max(exponential 5 ms → 1000 s, bucket 10/s burst 100).
 */
import { realClock, type Clock } from './clock.js';

export interface RateLimiter {
  /** Delay in ms before `key` may be retried; records one more failure of `key`. */
  when(key: string): number;
  /** Clears the failure history of `key` (call after a success). */
  forget(key: string): void;
  numRequeues(key: string): number;
}

/** base · 2^failures, capped at max. Defaults: 5 ms doubling to 1000 s. */
export class ItemExponentialRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {}

  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    // Beyond 2^1023 the float is Infinity; the cap keeps the answer finite either way.
    const delay = this.baseMs * 2 ** n;
    return Number.isFinite(delay) ? Math.min(delay, this.maxMs) : this.maxMs;
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/**
 * An overall token bucket shared by all keys (qps tokens per second, at most `burst` saved up).
 * Each `when` reserves a token; when none is left the answer is the time until one will be.
 */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps = 10,
    private readonly burst = 100,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_key: string): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1; // reservations may drive the balance negative: later callers wait longer
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  forget(_key: string): void {}

  numRequeues(_key: string): number {
    return 0;
  }
}

/** The longest delay of several limiters; forget/numRequeues go to all of them. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    let delay = 0;
    for (const l of this.limiters) delay = Math.max(delay, l.when(key));
    return delay;
  }

  forget(key: string): void {
    for (const l of this.limiters) l.forget(key);
  }

  numRequeues(key: string): number {
    let n = 0;
    for (const l of this.limiters) n = Math.max(n, l.numRequeues(key));
    return n;
  }
}

/** controller-runtime's default: exponential 5 ms → 1000 s, and a 10 qps / 100 burst bucket. */
export function defaultControllerRateLimiter(clock: Clock = realClock): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialRateLimiter(5, 1_000_000), new BucketRateLimiter(10, 100, clock));
}
