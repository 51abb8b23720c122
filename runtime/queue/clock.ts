/**
 * Time as an injectable dependency: the queue, rate limiters and the watcher read `now()` and
 * schedule timers through a `Clock`, so tests drive delays with `FakeClock.advance` instead of
 * sleeping.
 */
import { onAbort } from '../apimachinery/model.js';

export interface TimerHandle {
  /** opaque; pass back to `clearTimeout` */
  readonly id: number;
}

export interface Clock {
  /** milliseconds, monotonic within one clock */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Node fires a longer delay after 1 ms (with a TimeoutOverflowWarning); longer ones are chunked. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The process clock: `performance.now()` (monotonic, unaffected by wall-clock jumps). A timer
 * never fires before its delay has passed on this clock; delays of any length work — beyond
 * Node's 24.8-day limit the timer is re-armed in chunks — and `Infinity` never fires (no Node
 * timer is held for it). NaN and negative delays mean "now".
 */
export class RealClock implements Clock {
  private nextId = 1;
  /** undefined: an `Infinity` timer, pending but holding no Node timer */
  private readonly timers = new Map<number, NodeJS.Timeout | undefined>();

  now(): number {
    return performance.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    const delay = Math.max(ms, 0);
    if (delay === Infinity) {
      this.timers.set(id, undefined);
      return { id };
    }
    const due = performance.now() + delay;
    const arm = (wait: number): void => {
      const chunked = wait > MAX_TIMER_MS;
      const t = setTimeout(
        () => {
          // Node counts a delay from the time its event loop read at the start of the turn, so a
          // timer can fire up to a millisecond (or a long synchronous turn) before `due`: wait out
          // the rest. Node waits at least 1 ms per timer, so this cannot spin.
          const rest = due - performance.now();
          if (chunked || rest > 0) return arm(Math.max(0, rest));
          this.timers.delete(id);
          fn();
        },
        Math.min(wait, MAX_TIMER_MS),
      );
      this.timers.set(id, t);
    };
    arm(delay);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    if (!this.timers.has(handle.id)) return;
    const t = this.timers.get(handle.id);
    if (t !== undefined) clearTimeout(t);
    this.timers.delete(handle.id);
  }

  /** Timers scheduled and not yet fired or cleared; tests assert 0 after a stop. */
  pending(): number {
    return this.timers.size;
  }
}

export const realClock: Clock = new RealClock();

/** Resolves after `ms` on `clock`, or early (without throwing) when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted || !(ms > 0)) return Promise.resolve();
  return new Promise((resolve) => {
    const stopWaiting = signal
      ? onAbort(signal, () => {
          clock.clearTimeout(timer);
          resolve();
        })
      : undefined;
    const timer = clock.setTimeout(() => {
      stopWaiting?.();
      resolve();
    }, ms);
  });
}

interface FakeTimer {
  id: number;
  at: number;
  fn: () => void;
}

/** A manual clock: time moves only through `advance`, which fires due timers in time order. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: FakeTimer[] = [];

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle.id);
  }

  /** Moves time forward by `ms`, firing every timer that falls due (including ones they schedule). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let next: FakeTimer | undefined;
      for (const t of this.timers) {
        if (t.at <= target && (!next || t.at < next.at || (t.at === next.at && t.id < next.id))) next = t;
      }
      if (!next) break;
      const due = next;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }

  pending(): number {
    return this.timers.length;
  }
}
