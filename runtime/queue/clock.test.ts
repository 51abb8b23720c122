/**
 * RealClock with delays past Node's 2^31-1 ms limit, on vitest's fake timers (which clamp such
 * delays to 1 ms exactly as Node does), so 30 days pass in an instant.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, RealClock } from './clock.js';
import { RateLimitingQueue } from './queue.js';

const DAY = 24 * 60 * 60 * 1000;

describe('RealClock with long delays', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires a 30-day timer after 30 days, holding one Node timer at a time', () => {
    const clock = new RealClock();
    let fired = 0;
    clock.setTimeout(() => fired++, 30 * DAY);
    vi.advanceTimersByTime(1_000);
    expect(fired).toBe(0); // Node alone would have fired it after 1 ms
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(30 * DAY - 1_001);
    expect(fired).toBe(0);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    expect(clock.pending()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fires exactly at the limit and one past it', () => {
    const clock = new RealClock();
    const at: number[] = [];
    clock.setTimeout(() => at.push(performance.now()), MAX_TIMER_MS);
    clock.setTimeout(() => at.push(performance.now()), MAX_TIMER_MS + 1);
    const t0 = performance.now();
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    expect(at.map((t) => t - t0)).toEqual([MAX_TIMER_MS, MAX_TIMER_MS + 1]);
  });

  it('never fires an Infinity timer and holds no Node timer for it; clearing it leaves nothing pending', () => {
    const clock = new RealClock();
    let fired = false;
    const h = clock.setTimeout(() => (fired = true), Infinity);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(400 * DAY);
    expect(fired).toBe(false);
    expect(clock.pending()).toBe(1);
    clock.clearTimeout(h);
    expect(clock.pending()).toBe(0);
  });

  it('cancels a chunked timer between chunks', () => {
    const clock = new RealClock();
    let fired = false;
    const h = clock.setTimeout(() => (fired = true), 60 * DAY);
    vi.advanceTimersByTime(40 * DAY);
    clock.clearTimeout(h);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(40 * DAY);
    expect(fired).toBe(false);
  });

  it('treats NaN and negative delays as now', () => {
    const clock = new RealClock();
    let fired = 0;
    clock.setTimeout(() => fired++, Number.NaN);
    clock.setTimeout(() => fired++, -5);
    vi.advanceTimersByTime(0);
    expect(fired).toBe(2);
  });

  it('lets the queue hold a key for 40 days (requeueAfter) and hand it out then', async () => {
    const q = new RateLimitingQueue({ clock: new RealClock() });
    q.addAfter('ns/a', 40 * DAY);
    let got: string | undefined;
    void q.get().then((k) => (got = k));
    vi.advanceTimersByTime(DAY);
    await Promise.resolve();
    expect(got).toBeUndefined();
    vi.advanceTimersByTime(39 * DAY);
    await Promise.resolve();
    expect(got).toBe('ns/a');
    q.shutDown();
  });
});

describe('RealClock on real timers', () => {
  it('never fires before its delay has passed on its own clock', async () => {
    // Node counts a delay from its event loop's time in whole milliseconds, read when the turn
    // began: a timer armed later in the turn can fire a fraction of a millisecond too soon.
    const clock = new RealClock();
    const early: number[] = [];
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setImmediate(r));
      const busyUntil = performance.now() + 0.5;
      while (performance.now() < busyUntil);
      const due = performance.now() + 2;
      await new Promise<void>((resolve) =>
        clock.setTimeout(() => {
          if (performance.now() < due) early.push(due - performance.now());
          resolve();
        }, 2),
      );
    }
    expect(early).toEqual([]);
    expect(clock.pending()).toBe(0);
  });
});
