/**
 * The elector's loop on a fake clock and the in-memory fake client: timing rules checked to the
 * millisecond without waiting. (elector.int.test.ts runs the same scenarios on a real API server.)
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createFakeClient, type FakeClient } from '../client/fake/index.js';
import { createLogger } from '../log/index.js';
import { FakeClock } from '../queue/index.js';
import { LeaderElector } from './index.js';

const TIMING = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
const quiet = createLogger({ level: 'silent' });

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/** Moves the fake clock forward in small steps, letting the async loops run in between. */
async function advance(clock: FakeClock, ms: number, until?: () => boolean): Promise<void> {
  for (let t = 0; t < ms && !until?.(); t += 50) {
    clock.advance(50);
    await flush();
  }
}

function candidate(clock: FakeClock, client: FakeClient, identity: string, releaseOnCancel = false) {
  const abort = new AbortController();
  const times: { started?: number; stopped?: number } = {};
  const elector = new LeaderElector({
    client,
    clock,
    lease: { namespace: 'ns', name: 'lock' },
    identity,
    releaseOnCancel,
    logger: quiet,
    ...TIMING,
    callbacks: {
      onStartedLeading: () => void (times.started = clock.now()),
      onStoppedLeading: () => void (times.stopped = clock.now()),
    },
  });
  const done = elector.run(abort.signal);
  return { elector, abort, times, done };
}

describe('LeaderElector on a fake clock', () => {
  it('a follower takes over between leaseDuration - retryPeriod and leaseDuration + retryPeriod after the leader stops', async () => {
    const clock = new FakeClock(0);
    const client = createFakeClient();
    const a = candidate(clock, client, 'a');
    await flush();
    const b = candidate(clock, client, 'b');
    await advance(clock, 7_000);
    expect(a.times.started).toBe(0);
    expect(b.times.started).toBeUndefined();
    expect(a.elector.isLeader() && !b.elector.isLeader()).toBe(true);

    const stoppedAt = clock.now();
    a.abort.abort();
    await a.done;
    await advance(clock, 30_000, () => b.times.started !== undefined);
    const takeover = b.times.started! - stoppedAt;
    expect(takeover).toBeGreaterThanOrEqual(TIMING.leaseDurationMs - TIMING.retryPeriodMs);
    expect(takeover).toBeLessThanOrEqual(TIMING.leaseDurationMs + TIMING.retryPeriodMs);
    const lease = await client.get<KubeObject & { spec: { holderIdentity: string; leaseTransitions: number } }>(
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
      { namespace: 'ns', name: 'lock' },
    );
    expect(lease.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    b.abort.abort();
    await b.done;
  });

  it('a leader stops within one retry period after renewDeadline without a successful renewal', async () => {
    const clock = new FakeClock(0);
    let failing = false;
    let lastOk = 0;
    const client = createFakeClient({
      intercept: (verb) => {
        if (failing) throw new Error('connection refused');
        if (verb === 'update' || verb === 'create') lastOk = clock.now();
      },
    });
    const a = candidate(clock, client, 'a');
    await flush();
    await advance(clock, 5_000);
    expect(a.times.started).toBe(0);
    failing = true;
    await advance(clock, 20_000, () => a.times.stopped !== undefined);
    const lost = a.times.stopped! - lastOk;
    expect(lost).toBeGreaterThanOrEqual(TIMING.renewDeadlineMs);
    expect(lost).toBeLessThanOrEqual(TIMING.renewDeadlineMs + TIMING.retryPeriodMs);
    await a.done; // run() returns by itself once leadership is lost
  });

  it('a leader whose event loop was blocked past the renew deadline stops without sending another request', async () => {
    const fake = new FakeClock(0);
    // Time that passes while the loop is blocked: the clock moves, no timer fires.
    let blocked = 0;
    const clock = {
      now: () => fake.now() + blocked,
      setTimeout: fake.setTimeout.bind(fake),
      clearTimeout: fake.clearTimeout.bind(fake),
    };
    const sent: string[] = [];
    const client = createFakeClient({ intercept: (verb) => void sent.push(verb) });
    const abort = new AbortController();
    let stopped = false;
    const elector = new LeaderElector({
      client,
      clock,
      lease: { namespace: 'ns', name: 'lock' },
      identity: 'a',
      releaseOnCancel: true,
      logger: quiet,
      ...TIMING,
      callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => void (stopped = true) },
    });
    const done = elector.run(abort.signal);
    await advance(fake, 5_000);
    expect(elector.isLeader()).toBe(true);
    expect(elector.leaseExpired()).toBe(false);
    blocked += TIMING.renewDeadlineMs;
    // Known at once, without any timer having fired.
    expect(elector.leaseExpired()).toBe(true);
    const sentBefore = sent.length;
    await advance(fake, TIMING.retryPeriodMs * 2, () => stopped);
    expect(stopped).toBe(true);
    abort.abort();
    await done;
    // Neither a renewal nor, despite releaseOnCancel, a release: the lease may be another's by now.
    expect(sent.slice(sentBefore)).toEqual([]);
  });

  it('with releaseOnCancel the follower takes over within one retry period', async () => {
    const clock = new FakeClock(0);
    const client = createFakeClient();
    const a = candidate(clock, client, 'a', true);
    await flush();
    const b = candidate(clock, client, 'b', true);
    await advance(clock, 5_000);
    const stoppedAt = clock.now();
    a.abort.abort();
    await a.done;
    await advance(clock, 30_000, () => b.times.started !== undefined);
    expect(b.times.started! - stoppedAt).toBeLessThanOrEqual(TIMING.retryPeriodMs);
    b.abort.abort();
    await b.done;
  });
});
