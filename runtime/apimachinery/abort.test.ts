import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortWaiters, checkOnRead, linkSignals, onAbort } from './abort.js';

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

describe('linkSignals', () => {
  it('aborts with the reason of whichever given signal aborts first, and lets go of the others', () => {
    const fence = new AbortController();
    const own = new AbortController();
    const linked = linkSignals(own.signal, fence.signal);
    expect(abortWaiters(fence.signal)).toBe(1);
    own.abort(new Error('timeout'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('timeout');
    expect(abortWaiters(fence.signal)).toBe(0);
  });

  it('holds nothing on a long-lived signal once disposed, however many links were made', () => {
    const fence = new AbortController();
    for (let i = 0; i < 1000; i++) linkSignals(new AbortController().signal, fence.signal).dispose();
    expect(abortWaiters(fence.signal)).toBe(0);
    expect(getEventListeners(fence.signal, 'abort')).toHaveLength(1);
  });

  it('returns a single signal as is, and an already aborted one aborted', () => {
    const one = new AbortController().signal;
    expect(linkSignals(one, undefined).signal).toBe(one);
    expect(linkSignals(undefined).signal).toBeUndefined();
    const done = new AbortController();
    done.abort('gone');
    const linked = linkSignals(new AbortController().signal, done.signal);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('gone');
  });
});

describe('checkOnRead', () => {
  /** A lease that expires when `expired` is set: its check aborts the controller, as a manager's does. */
  function leased(): { ctl: AbortController; expire(): void; checks: () => number } {
    const ctl = new AbortController();
    let expired = false;
    let checks = 0;
    checkOnRead(ctl.signal, () => {
      checks++;
      if (expired) ctl.abort(new Error('lost the lease'));
    });
    return { ctl, expire: () => (expired = true), checks: () => checks };
  }

  it('aborts the signal on the line that reads it, with no timer run in between', () => {
    const lease = leased();
    expect(lease.ctl.signal.aborted).toBe(false);
    lease.expire(); // what a blocked loop does: time passes, nothing runs
    expect(lease.ctl.signal.aborted).toBe(true);
    expect((lease.ctl.signal.reason as Error).message).toBe('lost the lease');
  });

  it("makes throwIfAborted throw the check's reason", () => {
    const lease = leased();
    expect(() => lease.ctl.signal.throwIfAborted()).not.toThrow();
    lease.expire();
    expect(() => lease.ctl.signal.throwIfAborted()).toThrow('lost the lease');
  });

  it("is inherited by a signal linked from it, as a reconcile's is from the manager's", () => {
    const lease = leased();
    const deadline = new AbortController();
    const linked = linkSignals(lease.ctl.signal, deadline.signal);
    expect(linked.signal.aborted).toBe(false);
    lease.expire();
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('lost the lease');
    linked.dispose();
  });

  it('stops checking once the signal has aborted', () => {
    const lease = leased();
    lease.ctl.abort();
    const before = lease.checks();
    expect(lease.ctl.signal.aborted).toBe(true);
    expect(lease.checks()).toBe(before);
  });
});
