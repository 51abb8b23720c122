import { describe, expect, it } from 'vitest';
import { observe } from '../leaderelection/index.js';
import { leaseRecord, memberStates, type LeaseEntry } from './ring-view.js';

function entry(lease: string, holder: string, observedAt: number, durationSeconds = 15): LeaseEntry {
  const observation = observe(
    undefined,
    leaseRecord({ holderIdentity: holder, leaseDurationSeconds: durationSeconds, renewTime: 't' }),
    observedAt,
  );
  return { lease, shard: holder || lease, observation, deleted: false };
}

describe('ring membership', () => {
  it('a shard is alive until its lease duration has passed since its record last changed, as this process saw it', () => {
    const { members, nextExpiry } = memberStates([entry('r-b', 'b', 1_000), entry('r-a', 'a', 5_000)], 10_000);
    expect(members).toEqual([
      { shard: 'a', lease: 'r-a', live: true, expiresInMs: 10_000 },
      { shard: 'b', lease: 'r-b', live: true, expiresInMs: 6_000 },
    ]);
    expect(nextExpiry).toBe(16_000);
    expect(memberStates([entry('r-b', 'b', 1_000)], 16_000).members[0]).toMatchObject({ live: false, expiresInMs: 0 });
  });

  it('a released lease (no holder) is gone at once', () => {
    const { members, nextExpiry } = memberStates([entry('r-a', '', 9_000)], 10_000);
    expect(members[0]).toMatchObject({ shard: 'r-a', live: false });
    expect(nextExpiry).toBe(Infinity);
  });

  it('a lease the assigner holds for a gone shard (while it moves the shard’s objects) is no live shard', () => {
    const { members, nextExpiry } = memberStates([entry('r-a', 'sharding.tsop.dev/assigner_0f3c', 9_000)], 10_000);
    expect(members[0]).toMatchObject({ lease: 'r-a', live: false, heldByAssigner: true });
    expect(nextExpiry).toBe(Infinity);
    expect(memberStates([entry('r-a', 'a_0f3c', 9_000)], 10_000).members[0]).not.toHaveProperty('heldByAssigner');
  });

  it('reads the lease spec as leader election does, defaulting the duration', () => {
    expect(leaseRecord(undefined)).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 15,
      acquireTime: undefined,
      renewTime: undefined,
      leaderTransitions: 0,
    });
  });
});
