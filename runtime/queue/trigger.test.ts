import { describe, expect, it } from 'vitest';
import type { TriggerCause } from '../reconcile/index.js';
import { FakeClock, ItemExponentialRateLimiter, LOW_PRIORITY, RateLimitingQueue } from './index.js';

const fakeQueue = (clock = new FakeClock()) => ({
  q: new RateLimitingQueue({ clock, rateLimiter: new ItemExponentialRateLimiter(5, 1000) }),
  clock,
});
const ev = (name: string, event: 'add' | 'update' = 'update'): TriggerCause => ({
  reason: 'event',
  watch: 'owns',
  kind: 'apps/v1/Deployment',
  event,
  object: { namespace: 'ns', name },
});

describe('queue triggers travel beside the key', () => {
  it('keeps the first cause of a queued item and counts the adds folded into it; de-duplication is unchanged', async () => {
    const { q } = fakeQueue();
    q.add('ns/a', ev('d1', 'add'));
    q.add('ns/a', ev('d2'));
    q.addWithPriority('ns/a', LOW_PRIORITY, ev('d3'));
    q.add('ns/b');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('ns/a');
    expect(q.triggerOf('ns/a')).toEqual({ ...ev('d1', 'add'), folded: 2 });
    expect(await q.get()).toBe('ns/b');
    expect(q.triggerOf('ns/b')).toEqual({ reason: 'direct', folded: 0 });
    q.done('ns/a');
    expect(q.triggerOf('ns/a')).toBeUndefined();
  });

  it('an add while the key is in flight starts a new item with its own cause, handed out after done', async () => {
    const { q } = fakeQueue();
    q.add('ns/a', ev('d1'));
    await q.get();
    q.add('ns/a', ev('d2'));
    q.add('ns/a', ev('d3'));
    expect(q.triggerOf('ns/a')).toMatchObject({ object: { name: 'd1' }, folded: 0 });
    q.done('ns/a');
    expect(await q.get()).toBe('ns/a');
    expect(q.triggerOf('ns/a')).toMatchObject({ object: { name: 'd2' }, folded: 1 });
  });

  it('requeueAfter and backoff name themselves with their delay; the earliest delay keeps its cause; an event supersedes a delay and counts it', async () => {
    const { q, clock } = fakeQueue();
    q.addAfter('ns/a', 100, { reason: 'requeueAfter', delayMs: 100 });
    q.addAfter('ns/a', 50, { reason: 'requeueAfter', delayMs: 50 });
    q.addAfter('ns/a', 80, { reason: 'requeueAfter', delayMs: 80 });
    expect(q.snapshot().delayed).toEqual([
      { key: 'ns/a', inMs: 50, trigger: { reason: 'requeueAfter', delayMs: 50, folded: 2 } },
    ]);
    clock.advance(50);
    expect(await q.get()).toBe('ns/a');
    expect(q.triggerOf('ns/a')).toEqual({ reason: 'requeueAfter', delayMs: 50, folded: 2 });
    q.addRateLimited('ns/a', { reason: 'backoff' });
    q.done('ns/a');
    clock.advance(5);
    expect(await q.get()).toBe('ns/a');
    expect(q.triggerOf('ns/a')).toEqual({ reason: 'backoff', delayMs: 5, folded: 0 });
    q.addAfter('ns/a', 1000, { reason: 'requeueAfter', delayMs: 1000 });
    q.done('ns/a');
    q.add('ns/a', ev('d9'));
    expect(q.snapshot().delayedTotal).toBe(0);
    expect(await q.get()).toBe('ns/a');
    expect(q.triggerOf('ns/a')).toEqual({ ...ev('d9'), folded: 1 });
  });

  it('snapshot: depth, in-flight keys with how long, delayed keys soonest first', async () => {
    const { q, clock } = fakeQueue();
    q.add('ns/a', ev('d1'));
    await q.get();
    q.add('ns/b');
    q.addAfter('ns/c', 300, { reason: 'requeueAfter', delayMs: 300 });
    q.addAfter('ns/d', 200, { reason: 'requeueAfter', delayMs: 200 });
    clock.advance(40);
    const s = q.snapshot(1);
    expect(s).toEqual({
      depth: 1,
      inFlight: [{ key: 'ns/a', forMs: 40, trigger: { ...ev('d1'), folded: 0 } }],
      delayed: [{ key: 'ns/d', inMs: 160, trigger: { reason: 'requeueAfter', delayMs: 200, folded: 0 } }],
      delayedTotal: 2,
    });
    q.shutDown();
    expect(q.snapshot().delayedTotal).toBe(0);
  });
});
