import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortWaiters, onAbort } from './abort.js';

describe('onAbort', () => {
  it('registers one listener on the signal for any number of waiters and calls each once', () => {
    const ac = new AbortController();
    const calls: number[] = [];
    const stops = Array.from({ length: 50 }, (_, i) => onAbort(ac.signal, () => calls.push(i)));
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(1);
    expect(abortWaiters(ac.signal)).toBe(50);
    stops[3]!();
    stops[3]!(); // twice is harmless
    expect(abortWaiters(ac.signal)).toBe(49);
    ac.abort();
    expect(calls).toHaveLength(49);
    expect(calls).not.toContain(3);
    expect(abortWaiters(ac.signal)).toBe(0);
  });

  it('calls at once when the signal has already aborted', () => {
    const ac = new AbortController();
    ac.abort();
    let called = 0;
    onAbort(ac.signal, () => called++)();
    expect(called).toBe(1);
  });

  it('keeps calling the other waiters when one throws', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    onAbort(ac.signal, () => {
      throw new Error('boom');
    });
    onAbort(ac.signal, () => seen.push('second'));
    const thrown = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    ac.abort();
    expect(seen).toEqual(['second']);
    expect(((await thrown) as Error).message).toBe('boom');
  });
});
