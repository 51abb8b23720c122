import { describe, expect, it } from 'vitest';
import {
  FakeClock,
  LOW_PRIORITY,
  RateLimitingQueue,
  ItemExponentialRateLimiter,
  type QueueMetrics,
  type UnfinishedWork,
} from './index.js';

function fakeQueue(clock = new FakeClock()): { q: RateLimitingQueue; clock: FakeClock } {
  return { q: new RateLimitingQueue({ clock, rateLimiter: new ItemExponentialRateLimiter(5, 1000) }), clock };
}

/** Takes every ready key without blocking. */
async function drainReady(q: RateLimitingQueue): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) out.push((await q.get())!);
  return out;
}

describe('fold and exclusivity', () => {
  it('folds repeated adds of a queued key into one', async () => {
    const { q } = fakeQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.len()).toBe(2);
    expect(await drainReady(q)).toEqual(['a', 'b']);
  });

  it('holds adds of an in-flight key until done, then runs it once more', async () => {
    const { q } = fakeQueue();
    q.add('a');
    const key = await q.get();
    expect(key).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0); // not handed to a second worker while in flight
    q.done('a');
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('a');
    q.done('a');
    expect(q.len()).toBe(0);
  });

  it('hands waiting workers distinct keys', async () => {
    const { q } = fakeQueue();
    const w1 = q.get();
    const w2 = q.get();
    q.add('x');
    q.add('x');
    q.add('y');
    expect(new Set([await w1, await w2])).toEqual(new Set(['x', 'y']));
  });

  it('never runs one key on two workers and loses no adds, under concurrency', async () => {
    const q = new RateLimitingQueue();
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    const running = new Set<string>();
    const lastAdd = new Map<string, number>();
    const lastStart = new Map<string, number>();
    let seq = 0;
    let overlaps = 0;
    let runs = 0;

    const worker = async (): Promise<void> => {
      for (;;) {
        const key = await q.get();
        if (key === undefined) return;
        if (running.has(key)) overlaps++;
        running.add(key);
        lastStart.set(key, ++seq);
        runs++;
        // yield a random number of times so runs interleave with adds and other workers
        for (let i = Math.floor(Math.random() * 5); i >= 0; i--) await new Promise((r) => setImmediate(r));
        running.delete(key);
        q.done(key);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    for (let round = 0; round < 2000; round++) {
      const key = keys[Math.floor(Math.random() * keys.length)]!;
      lastAdd.set(key, ++seq);
      q.add(key);
      if (round % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    // wait until the queue is idle: nothing ready and nothing in flight
    while (q.len() > 0 || running.size > 0) await new Promise((r) => setImmediate(r));
    await q.shutDownWithDrain();
    await Promise.all(workers);

    expect(overlaps).toBe(0);
    expect(runs).toBeLessThan(2000); // folding happened
    // every key started a run after its last add (no add was lost)
    for (const [key, added] of lastAdd) expect(lastStart.get(key)!).toBeGreaterThan(added);
  });
});

describe('addAfter', () => {
  it('releases keys in ready-time order, the earliest time per key winning', async () => {
    const { q, clock } = fakeQueue();
    q.addAfter('a', 100);
    q.addAfter('b', 50);
    q.addAfter('a', 30); // earlier: replaces 100
    q.addAfter('b', 80); // later: ignored
    clock.advance(29);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(await drainReady(q)).toEqual(['a']);
    q.done('a');
    clock.advance(20);
    expect(await drainReady(q)).toEqual(['b']);
    q.done('b');
    clock.advance(1000); // the superseded 100 ms and 80 ms entries never fire
    expect(q.len()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('ignores a delay for a key that is already queued', async () => {
    const { q, clock } = fakeQueue();
    q.add('a');
    q.addAfter('a', 10);
    expect(await drainReady(q)).toEqual(['a']);
    q.done('a');
    clock.advance(100);
    expect(q.len()).toBe(0);
  });

  it('lets an immediate add supersede a pending delay', async () => {
    const { q, clock } = fakeQueue();
    q.addAfter('a', 100);
    q.add('a');
    expect(await drainReady(q)).toEqual(['a']);
    q.done('a');
    clock.advance(200);
    expect(q.len()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('delays an in-flight key until both the delay and done', async () => {
    const { q, clock } = fakeQueue();
    q.add('a');
    await q.get();
    q.addAfter('a', 10);
    clock.advance(10);
    expect(q.len()).toBe(0); // still in flight
    q.done('a');
    expect(await drainReady(q)).toEqual(['a']);
  });

  it('treats a non-positive delay as an immediate add', () => {
    const { q } = fakeQueue();
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    expect(q.len()).toBe(2);
  });
});

describe('rate-limited adds', () => {
  it('backs off per key 5, 10, 20 ms until forget', async () => {
    const { q, clock } = fakeQueue();
    for (const expected of [5, 10, 20]) {
      q.addRateLimited('a');
      clock.advance(expected - 1);
      expect(q.len()).toBe(0);
      clock.advance(1);
      expect(q.len()).toBe(1);
      await q.get();
      q.done('a');
    }
    expect(q.numRequeues('a')).toBe(3);
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
    q.addRateLimited('a');
    clock.advance(5);
    expect(q.len()).toBe(1);
  });
});

describe('shutdown', () => {
  it('wakes blocked workers with undefined and drops later adds', async () => {
    const { q, clock } = fakeQueue();
    const waiting = q.get();
    q.addAfter('late', 10);
    q.shutDown();
    expect(await waiting).toBeUndefined();
    q.add('a');
    q.addRateLimited('b');
    expect(q.len()).toBe(0);
    expect(await q.get()).toBeUndefined();
    expect(q.shuttingDown).toBe(true);
    expect(clock.pending()).toBe(0); // the delay timer is gone
  });

  it('drains: resolves only after every in-flight key is done', async () => {
    const { q } = fakeQueue();
    q.add('a');
    q.add('b');
    q.add('c');
    const a = (await q.get())!;
    const b = (await q.get())!;
    q.add(a); // follow-up of an in-flight key is not started after shutdown
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    expect(await q.get()).toBeUndefined(); // 'c' is not started
    q.done(a);
    await Promise.resolve();
    expect(drained).toBe(false);
    q.done(b);
    await drain;
    expect(drained).toBe(true);
    expect(q.len()).toBe(1); // 'c' stays unstarted
  });

  it('drains at once when nothing is in flight', async () => {
    const { q } = fakeQueue();
    q.add('a');
    await q.shutDownWithDrain();
    expect(q.shuttingDown).toBe(true);
  });
});

describe('metrics hooks', () => {
  it('reports depth, adds, latency, work duration, retries and unfinished work', async () => {
    const seen = { depth: [] as number[], added: 0, latency: [] as number[], work: [] as number[], retried: 0 };
    let probe: (() => UnfinishedWork) | undefined;
    const metrics: QueueMetrics = {
      depth: (n) => seen.depth.push(n),
      added: () => seen.added++,
      queueLatency: (s) => seen.latency.push(s),
      workDuration: (s) => seen.work.push(s),
      retried: () => seen.retried++,
      unfinishedWork: (p) => (probe = p),
    };
    const clock = new FakeClock();
    const q = new RateLimitingQueue({ clock, metrics, rateLimiter: new ItemExponentialRateLimiter() });
    q.add('a');
    q.add('a'); // folded: not counted
    q.add('b');
    expect(seen.added).toBe(2);
    expect(seen.depth.at(-1)).toBe(2);
    clock.advance(250);
    await q.get();
    expect(seen.latency).toEqual([0.25]);
    expect(seen.depth.at(-1)).toBe(1);
    clock.advance(1500);
    expect(probe!()).toEqual({ unfinishedSeconds: 1.5, longestRunningSeconds: 1.5 });
    await q.get();
    clock.advance(500);
    expect(probe!()).toEqual({ unfinishedSeconds: 2.5, longestRunningSeconds: 2 });
    q.done('a');
    expect(seen.work).toEqual([2]);
    q.addRateLimited('a');
    expect(seen.retried).toBe(1);
    // Every delayed add is a retry in client-go's accounting, requeueAfter included.
    q.addAfter('b', 1000);
    q.addAfter('c', 0);
    expect(seen.retried).toBe(3);
    q.shutDown();
    q.addAfter('d', 10);
    expect(seen.retried).toBe(3);
  });
});

describe('priority (controller-runtime priority queue)', () => {
  const drain = async (q: RateLimitingQueue): Promise<string[]> => {
    const out: string[] = [];
    while (q.len() > 0) {
      const k = (await q.get())!;
      out.push(k);
      q.done(k);
    }
    return out;
  };

  it('hands out keys added at priority >= 0 before low-priority ones, each lane in order', async () => {
    const { q } = fakeQueue();
    for (const k of ['l1', 'l2', 'l3']) q.addWithPriority(k, LOW_PRIORITY);
    q.add('change1');
    q.addWithPriority('change2', 0);
    expect(q.len()).toBe(5);
    expect(await drain(q)).toEqual(['change1', 'change2', 'l1', 'l2', 'l3']);
  });

  it('moves a queued low-priority key up when it is added again as a change, without a duplicate', async () => {
    const { q } = fakeQueue();
    for (const k of ['a', 'b', 'c']) q.addWithPriority(k, LOW_PRIORITY);
    q.add('c');
    q.addWithPriority('c', LOW_PRIORITY); // already queued higher: stays there
    expect(q.len()).toBe(3);
    expect(await drain(q)).toEqual(['c', 'a', 'b']);
    expect(q.len()).toBe(0);
  });

  it('re-queues an in-flight key at the highest priority it was added with meanwhile', async () => {
    const { q } = fakeQueue();
    q.addWithPriority('busy', LOW_PRIORITY);
    const k = await q.get();
    q.addWithPriority('busy', LOW_PRIORITY);
    q.addWithPriority('other', LOW_PRIORITY);
    q.add('busy');
    q.done(k!);
    expect(await drain(q)).toEqual(['busy', 'other']);
  });
});
