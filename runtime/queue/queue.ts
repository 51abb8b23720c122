/**
 * The work queue controllers pull keys from. Semantics follow client-go's rate-limiting queue:
 * - a key is handed to at most one worker at a time (the `processing` set);
 * - adding a key that is already queued, or in flight, folds into one follow-up run (`dirty`);
 * - `addAfter` keeps one ready time per key, the earliest wins; a queued key ignores it; every
 *   call counts as a retry (workqueue_retries_total), as client-go's delaying queue counts it;
 * - `addRateLimited` delays by the rate limiter's answer; `forget` resets it;
 * - after `shutDown`, `get` resolves undefined and adds are dropped; `shutDownWithDrain`
 *   also waits for in-flight keys to be marked done;
 * - priority, as controller-runtime's priority queue: `addWithPriority(key, p)` with p < 0
 *   (LOW_PRIORITY: the initial list, resyncs) queues behind every key added at priority ≥ 0
 *   (real changes); a key re-added at a higher priority moves up. Two lanes, each FIFO;
 * - triggers: an add may name its cause; the cause travels beside the key, never inside it, so
 *   de-duplication is unchanged. The first cause of a queued item is kept and later adds folded
 *   into it are counted; `triggerOf` gives a handed-out key's trigger until `done`.
 */
import { realClock, type Clock, type TimerHandle } from './clock.js';
import { DelaySet } from './delays.js';
import { Fifo } from './fifo.js';
import { noopQueueMetrics, type QueueMetrics, type UnfinishedWork } from './metrics.js';
import { defaultControllerRateLimiter, type RateLimiter } from './ratelimiter.js';
import type { Trigger, TriggerCause } from '../reconcile/index.js';

/** controller-runtime's handler.LowPriority: events that are not changes (initial list, resync). */
export const LOW_PRIORITY = -100;

/** Items are object keys ('ns/name' or 'name'). */
export interface WorkQueue {
  /** `cause`: why (see reconcile/trigger.ts); kept beside the key for the reconcile it leads to. */
  add(key: string, cause?: TriggerCause): void;
  /** `add` at a priority: below 0 waits behind everything added at 0 or more. */
  addWithPriority?(key: string, priority: number, cause?: TriggerCause): void;
  addAfter(key: string, delayMs: number, cause?: TriggerCause): void;
  addRateLimited(key: string, cause?: TriggerCause): void;
  /** Why a handed-out key was queued, from `get` until `done`. */
  triggerOf?(key: string): Trigger | undefined;
  /** What is queued, running and waiting, for /debug/controllers. */
  snapshot?(delayedLimit?: number): QueueSnapshot;
  forget(key: string): void;
  numRequeues(key: string): number;
  /** The next ready key; waits while none is ready; undefined once shut down. */
  get(): Promise<string | undefined>;
  /** Must follow every `get` that returned a key, whatever the outcome of the work. */
  done(key: string): void;
  /** Keys ready to be handed out (not counting in-flight or delayed keys). */
  len(): number;
  shutDown(): void;
  shutDownWithDrain(): Promise<void>;
  readonly shuttingDown: boolean;
}

/** A point-in-time view of a queue; times are milliseconds from now. */
export interface QueueSnapshot {
  /** Keys ready to be handed out. */
  depth: number;
  inFlight: Array<{ key: string; forMs: number; trigger?: Trigger }>;
  /** Delayed keys (requeueAfter, backoff), soonest first. */
  delayed: Array<{ key: string; inMs: number; trigger?: Trigger }>;
  /** How many keys wait for a ready time in all (`delayed` may be cut short). */
  delayedTotal: number;
}

/** The cause of a queued or delayed item and how many more adds folded into it. */
interface Pending {
  cause: TriggerCause | undefined;
  folded: number;
}

export interface WorkQueueOptions {
  /** Used by metrics providers as the `name` label. */
  name?: string;
  rateLimiter?: RateLimiter;
  clock?: Clock;
  metrics?: QueueMetrics;
}

export class RateLimitingQueue implements WorkQueue {
  readonly name: string;
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  private readonly metrics: QueueMetrics;

  private readonly ready = new Fifo<string>();
  /** low-priority lane; an entry whose key is no longer in `low` was moved up and is skipped */
  private readonly readyLow = new Fifo<string>();
  /** keys that are dirty only at low priority (queued in `readyLow`, or to be when done) */
  private readonly low = new Set<string>();
  private lowQueued = 0;
  /** keys that need a run: queued in `ready`, or waiting for their in-flight run to finish */
  private readonly dirty = new Set<string>();
  /** key → time it became dirty, for queue latency */
  private readonly dirtySince = new Map<string, number>();
  /** key → time it was handed out */
  private readonly processing = new Map<string, number>();
  private readonly delayed = new DelaySet();
  /** cause of each dirty key / each delayed key / each handed-out key */
  private readonly pending = new Map<string, Pending>();
  private readonly delayedPending = new Map<string, Pending>();
  private readonly running = new Map<string, Trigger>();
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private getters: Array<(key: string | undefined) => void> = [];
  private drainWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(opts: WorkQueueOptions = {}) {
    this.name = opts.name ?? '';
    this.clock = opts.clock ?? realClock;
    this.limiter = opts.rateLimiter ?? defaultControllerRateLimiter(this.clock);
    this.metrics = opts.metrics ?? noopQueueMetrics;
    this.metrics.unfinishedWork(() => this.unfinished());
  }

  get shuttingDown(): boolean {
    return this.stopped;
  }

  add(key: string, cause?: TriggerCause): void {
    this.addWithPriority(key, 0, cause);
  }

  addWithPriority(key: string, priority: number, cause?: TriggerCause): void {
    this.push(key, priority, cause, 0);
  }

  /** An add carrying `folded` earlier adds (a delayed item coming due, a superseded delay). */
  private push(key: string, priority: number, cause: TriggerCause | undefined, folded: number): void {
    if (this.stopped) return;
    // An immediate add is the earliest possible ready time: any pending delay is superseded.
    if (this.delayed.has(key)) {
      this.delayed.delete(key);
      const superseded = this.delayedPending.get(key);
      this.delayedPending.delete(key);
      folded += 1 + (superseded?.folded ?? 0);
      this.reschedule();
    }
    const isLow = priority < 0;
    if (this.dirty.has(key)) {
      const p = this.pending.get(key);
      if (p) p.folded += 1 + folded;
      if (!isLow && this.low.delete(key) && !this.processing.has(key)) {
        // Move up: the low-lane entry goes stale and is skipped when it surfaces.
        this.lowQueued--;
        this.enqueue(key);
      }
      return;
    }
    this.dirty.add(key);
    this.pending.set(key, { cause, folded });
    this.dirtySince.set(key, this.clock.now());
    if (isLow) this.low.add(key);
    this.metrics.added();
    if (this.processing.has(key)) return; // re-queued by `done`
    this.enqueue(key);
  }

  addAfter(key: string, delayMs: number, cause?: TriggerCause): void {
    if (this.stopped) return;
    // client-go counts every delayed add as a retry (requeueAfter included), so do we.
    this.metrics.retried();
    if (!(delayMs > 0)) {
      this.add(key, cause);
      return;
    }
    if (this.dirty.has(key)) {
      // Already due now, which is earlier: folded into the queued item.
      const p = this.pending.get(key);
      if (p) p.folded++;
      return;
    }
    const before = this.delayedPending.get(key);
    if (this.delayed.offer(key, this.clock.now() + delayMs)) {
      // The earliest ready time wins, and with it its cause.
      this.delayedPending.set(key, { cause, folded: before ? before.folded + 1 : 0 });
      this.reschedule();
    } else if (before) {
      before.folded++;
    }
  }

  addRateLimited(key: string, cause?: TriggerCause): void {
    if (this.stopped) return;
    const delayMs = this.limiter.when(key);
    // A backoff cause learns the delay the limiter chose.
    this.addAfter(key, delayMs, cause && cause.reason !== 'event' ? { ...cause, delayMs } : cause);
  }

  triggerOf(key: string): Trigger | undefined {
    return this.running.get(key);
  }

  snapshot(delayedLimit = 10): QueueSnapshot {
    const now = this.clock.now();
    const inFlight = [...this.processing].map(([key, started]) => ({
      key,
      forMs: now - started,
      trigger: this.running.get(key),
    }));
    const delayed = this.delayed.soonest(delayedLimit).map(({ key, at }) => {
      const p = this.delayedPending.get(key);
      return { key, inMs: Math.max(0, at - now), trigger: p && toTrigger(p) };
    });
    return { depth: this.len(), inFlight, delayed, delayedTotal: this.delayed.size };
  }

  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.numRequeues(key);
  }

  get(): Promise<string | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    if (this.len() > 0) return Promise.resolve(this.take());
    return new Promise((resolve) => this.getters.push(resolve));
  }

  done(key: string): void {
    const started = this.processing.get(key);
    if (started === undefined) return;
    this.processing.delete(key);
    this.running.delete(key);
    this.metrics.workDuration((this.clock.now() - started) / 1000);
    if (this.dirty.has(key) && !this.stopped) this.enqueue(key);
    if (this.processing.size === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  len(): number {
    return this.ready.length + this.lowQueued;
  }

  shutDown(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.delayed.clear();
    this.delayedPending.clear();
    this.reschedule();
    const getters = this.getters;
    this.getters = [];
    for (const g of getters) g(undefined);
  }

  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  private enqueue(key: string): void {
    if (this.low.has(key)) {
      this.readyLow.push(key);
      this.lowQueued++;
    } else {
      this.ready.push(key);
    }
    this.metrics.depth(this.len());
    // Hand keys straight to waiting workers; each getter receives a distinct key.
    while (this.getters.length > 0 && this.len() > 0) {
      const getter = this.getters.shift()!;
      getter(this.take());
    }
  }

  /** The next key: the normal lane first, then the low lane (skipping keys that moved up). */
  private next(): string {
    if (this.ready.length > 0) return this.ready.shift()!;
    for (;;) {
      const key = this.readyLow.shift()!;
      if (this.low.delete(key)) {
        this.lowQueued--;
        return key;
      }
    }
  }

  private take(): string {
    const key = this.next();
    const now = this.clock.now();
    this.metrics.depth(this.len());
    this.metrics.queueLatency((now - (this.dirtySince.get(key) ?? now)) / 1000);
    this.dirty.delete(key);
    this.dirtySince.delete(key);
    this.processing.set(key, now);
    const p = this.pending.get(key);
    this.pending.delete(key);
    this.running.set(key, toTrigger(p ?? { cause: undefined, folded: 0 }));
    return key;
  }

  /** Keeps exactly one timer, set for the earliest delayed key. */
  private reschedule(): void {
    const next = this.stopped ? undefined : this.delayed.nextAt();
    if (next === this.timerAt) return;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    if (next === undefined) return;
    this.timerAt = next;
    this.timer = this.clock.setTimeout(() => this.fire(), next - this.clock.now());
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    for (const key of this.delayed.takeDue(this.clock.now())) {
      const p = this.delayedPending.get(key);
      this.delayedPending.delete(key);
      this.push(key, 0, p?.cause, p?.folded ?? 0);
    }
    this.reschedule();
  }

  private unfinished(): UnfinishedWork {
    const now = this.clock.now();
    let total = 0;
    let longest = 0;
    for (const started of this.processing.values()) {
      const s = (now - started) / 1000;
      total += s;
      if (s > longest) longest = s;
    }
    return { unfinishedSeconds: total, longestRunningSeconds: longest };
  }
}

/** The trigger a reconcile sees: the first cause and the count of what folded into it. */
function toTrigger(p: Pending): Trigger {
  return p.cause ? ({ ...p.cause, folded: p.folded } as Trigger) : { reason: 'direct', folded: p.folded };
}

export function newWorkQueue(opts: WorkQueueOptions = {}): WorkQueue {
  return new RateLimitingQueue(opts);
}
