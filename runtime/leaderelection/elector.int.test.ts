import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import type { ControlPlane } from '../envtest/index.js';
import { LeaderElector, type LeaderElectionOptions } from './index.js';

const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } as const;
const quiet = createLogger({ level: 'silent' });
const FAST = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };

/** One candidate, with a timestamped record of its callbacks. */
class Candidate {
  readonly elector: LeaderElector;
  readonly abort = new AbortController();
  startedAt: number | undefined;
  stoppedAt: number | undefined;
  leadershipSignal: AbortSignal | undefined;
  readonly newLeaders: string[] = [];
  readonly done: Promise<void>;

  constructor(cp: ControlPlane, lease: string, identity: string, opts: Partial<LeaderElectionOptions> = {}) {
    this.elector = new LeaderElector({
      kubeConfig: cp.kubeConfig,
      lease: { namespace: 'default', name: lease },
      identity,
      logger: quiet,
      ...FAST,
      ...opts,
      callbacks: {
        onStartedLeading: (signal) => {
          this.startedAt = Date.now();
          this.leadershipSignal = signal;
        },
        onStoppedLeading: () => {
          this.stoppedAt = Date.now();
        },
        onNewLeader: (id) => this.newLeaders.push(id),
      },
    });
    this.done = this.elector.run(this.abort.signal);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}

async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function readLease(cp: ControlPlane, name: string): Promise<KubeObject & { spec: Record<string, unknown> }> {
  return createClient(cp.kubeConfig).get(LEASE, { namespace: 'default', name });
}

describeWithControlPlane('leader election against the API server', {}, (env) => {
  it('only one of two candidates leads; the other takes over within leaseDuration + retryPeriod after the leader stops renewing', async () => {
    const a = new Candidate(env.cp, 'takeover', 'a');
    const b = new Candidate(env.cp, 'takeover', 'b');
    await until(() => a.startedAt !== undefined || b.startedAt !== undefined, 5_000);
    // Watch for 2 renew rounds more: still exactly one leader.
    await new Promise((r) => setTimeout(r, 1_200));
    const [leader, follower] = a.startedAt !== undefined ? [a, b] : [b, a];
    expect(follower.startedAt).toBeUndefined();
    expect(leader.elector.isLeader()).toBe(true);
    expect(follower.elector.isLeader()).toBe(false);
    const lease = await readLease(env.cp, 'takeover');
    expect(lease.spec['holderIdentity']).toBe(leader.elector.identity);
    expect(lease.spec['leaseDurationSeconds']).toBe(3);
    expect(follower.newLeaders).toEqual([leader.elector.identity]);

    // Stop without releasing: the lease stays held until it expires.
    const stoppedAt = Date.now();
    await leader.stop();
    expect(leader.leadershipSignal?.aborted).toBe(true);
    expect(leader.stoppedAt).toBeDefined();
    expect((await readLease(env.cp, 'takeover')).spec['holderIdentity']).toBe(leader.elector.identity);
    await until(() => follower.startedAt !== undefined, 10_000);
    const takeover = follower.startedAt! - stoppedAt;
    console.log(`takeover after the leader stopped renewing: ${takeover} ms (lease 3000, retry 500)`);
    expect(takeover).toBeLessThanOrEqual(FAST.leaseDurationMs + FAST.retryPeriodMs + 250);
    expect(takeover).toBeGreaterThanOrEqual(FAST.leaseDurationMs - FAST.retryPeriodMs - 100);
    const after = await readLease(env.cp, 'takeover');
    expect(after.spec['holderIdentity']).toBe(follower.elector.identity);
    expect(after.spec['leaseTransitions']).toBe(1);
    await follower.stop();
  });

  it('release on cancel lets the other candidate take over at once', async () => {
    const a = new Candidate(env.cp, 'release', 'a', { releaseOnCancel: true });
    await until(() => a.startedAt !== undefined, 5_000);
    const b = new Candidate(env.cp, 'release', 'b', { releaseOnCancel: true });
    await new Promise((r) => setTimeout(r, 700)); // b has observed a's lease and is waiting
    expect(b.startedAt).toBeUndefined();
    const stoppedAt = Date.now();
    await a.stop();
    const released = await readLease(env.cp, 'release');
    // either still the released record or already b's
    expect(['', 'b']).toContain(released.spec['holderIdentity']);
    await until(() => b.startedAt !== undefined, 5_000);
    const takeover = b.startedAt! - stoppedAt;
    console.log(`takeover after release: ${takeover} ms (retry 500)`);
    expect(takeover).toBeLessThanOrEqual(FAST.retryPeriodMs + 250);
    await b.stop();
    expect((await readLease(env.cp, 'release')).spec['holderIdentity']).toBe('');
  });

  it('releases on cancel even when its copy of the lease is stale (the last write it saw is not the latest)', async () => {
    // Slow renewals, so that no renewal refreshes the copy between the outside write and the stop.
    const a = new Candidate(env.cp, 'stale-release', 'a', {
      releaseOnCancel: true,
      leaseDurationMs: 30_000,
      renewDeadlineMs: 20_000,
      retryPeriodMs: 10_000,
    });
    await until(() => a.startedAt !== undefined, 5_000);
    // Someone else touches the lease (as a renewal whose answer was lost would): a's resourceVersion is old.
    const client = createClient(env.cp.kubeConfig);
    const lease = await readLease(env.cp, 'stale-release');
    await client.update({ ...lease, metadata: { ...lease.metadata, annotations: { touched: 'yes' } } });
    await a.stop();
    const released = await readLease(env.cp, 'stale-release');
    expect(released.spec['holderIdentity']).toBe('');
    expect(released.metadata?.annotations?.['touched']).toBe('yes');
  });

  it('a leader whose lease is taken over stops leading at its next renewal', async () => {
    const a = new Candidate(env.cp, 'stolen', 'a');
    await until(() => a.startedAt !== undefined, 5_000);
    const c = createClient(env.cp.kubeConfig);
    const lease = await readLease(env.cp, 'stolen');
    await c.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 30 } });
    const stolenAt = Date.now();
    await until(() => a.stoppedAt !== undefined, 3_000);
    expect(a.stoppedAt! - stolenAt).toBeLessThanOrEqual(FAST.retryPeriodMs + 250);
    expect(a.leadershipSignal?.aborted).toBe(true);
    expect(a.newLeaders).toEqual(['a', 'intruder']);
    await a.done; // run() returns on its own once leadership is lost
  });

  it('a leader whose Lease is deleted recreates it and keeps leading', async () => {
    const a = new Candidate(env.cp, 'deleted', 'a');
    await until(() => a.startedAt !== undefined, 5_000);
    const c = createClient(env.cp.kubeConfig);
    const before = await readLease(env.cp, 'deleted');
    await c.delete(before);
    await new Promise((r) => setTimeout(r, 1_500)); // three renew periods
    const after = await readLease(env.cp, 'deleted');
    expect(after.metadata?.uid).not.toBe(before.metadata?.uid);
    expect(after.spec['holderIdentity']).toBe('a');
    expect(a.stoppedAt).toBeUndefined();
    expect(a.elector.isLeader()).toBe(true);
    await a.stop();
  });

  it('a leader that cannot reach the API server stops leading after renewDeadline', async () => {
    const a = new Candidate(env.cp, 'outage', 'a');
    await until(() => a.startedAt !== undefined, 5_000);
    await env.cp.stopApiServer();
    try {
      await until(() => a.stoppedAt !== undefined, 6_000);
      expect(a.leadershipSignal?.aborted).toBe(true);
    } finally {
      await env.cp.startApiServer();
    }
    // The last renewal that reached the server is the lease's renewTime.
    const lastRenew = Date.parse(String((await readLease(env.cp, 'outage')).spec['renewTime']));
    const lost = a.stoppedAt! - lastRenew;
    console.log(`leadership lost ${lost} ms after the last successful renewal (renewDeadline 2000)`);
    expect(lost).toBeGreaterThanOrEqual(FAST.renewDeadlineMs);
    expect(lost).toBeLessThanOrEqual(FAST.renewDeadlineMs + FAST.retryPeriodMs + 300);
    await a.done;
  });

  it('with the default timings (15 s / 10 s / 2 s) a follower takes over within 17 s', {
    timeout: 60_000,
  }, async () => {
    const defaults = { leaseDurationMs: undefined, renewDeadlineMs: undefined, retryPeriodMs: undefined };
    const a = new Candidate(env.cp, 'defaults', 'a', defaults);
    await until(() => a.startedAt !== undefined, 5_000);
    const b = new Candidate(env.cp, 'defaults', 'b', defaults);
    await new Promise((r) => setTimeout(r, 2_500));
    const stoppedAt = Date.now();
    await a.stop();
    await until(() => b.startedAt !== undefined, 25_000);
    const takeover = b.startedAt! - stoppedAt;
    console.log(`default timings: takeover ${takeover} ms after the leader stopped`);
    expect(takeover).toBeLessThanOrEqual(17_000 + 250);
    expect((await readLease(env.cp, 'defaults')).spec['leaseDurationSeconds']).toBe(15);
    expect(b.elector.identity).toBe('b');
    await b.stop();
  });
});
