import { describe, expect, it } from 'vitest';
import {
  decide as decideAt,
  microTime,
  observe,
  releasedRecord,
  validateTiming,
  type DecideInput,
  type LeaderElectionRecord,
} from './index.js';

// Most cases read wall time and the monotonic clock as one; the last case tells them apart.
const decide = (input: Omit<DecideInput, 'wallTime'>): ReturnType<typeof decideAt> =>
  decideAt({ ...input, wallTime: input.now });

const T0 = Date.parse('2026-03-01T12:00:00Z');
const rec = (holder: string, extra: Partial<LeaderElectionRecord> = {}): LeaderElectionRecord => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  acquireTime: microTime(T0 - 60_000),
  renewTime: microTime(T0),
  leaderTransitions: 2,
  ...extra,
});

describe('decide', () => {
  it('creates a lease that does not exist, with zero transitions', () => {
    const d = decide({ identity: 'me', now: T0, leaseDurationSeconds: 15, current: undefined });
    expect(d).toEqual({
      kind: 'create',
      record: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: '2026-03-01T12:00:00.000000Z',
        renewTime: '2026-03-01T12:00:00.000000Z',
        leaderTransitions: 0,
      },
    });
  });

  it('refuses while another holder was observed less than leaseDuration ago', () => {
    const current = observe(undefined, rec('other'), T0);
    const d = decide({ identity: 'me', now: T0 + 14_999, leaseDurationSeconds: 15, current });
    expect(d).toEqual({ kind: 'held', holder: 'other', expiresAt: T0 + 15_000 });
  });

  it('takes over an expired lease and counts a transition, with a fresh acquireTime', () => {
    const current = observe(undefined, rec('other'), T0);
    const d = decide({ identity: 'me', now: T0 + 15_000, leaseDurationSeconds: 15, current });
    expect(d.kind).toBe('update');
    if (d.kind !== 'update') return;
    expect(d.record).toMatchObject({ holderIdentity: 'me', leaderTransitions: 3, acquireTime: microTime(T0 + 15_000) });
  });

  it('uses the duration written in the record, not its own, to judge expiry', () => {
    const current = observe(undefined, rec('other', { leaseDurationSeconds: 60 }), T0);
    expect(decide({ identity: 'me', now: T0 + 30_000, leaseDurationSeconds: 15, current }).kind).toBe('held');
  });

  it('renews its own lease keeping acquireTime and transitions', () => {
    const mine = rec('me');
    const current = observe(undefined, mine, T0);
    const d = decide({ identity: 'me', now: T0 + 2_000, leaseDurationSeconds: 15, current });
    expect(d).toEqual({ kind: 'update', record: { ...mine, renewTime: microTime(T0 + 2_000) } });
  });

  it('judges expiry on the monotonic clock only: a wall-clock jump neither expires nor stamps wrongly', () => {
    const current = observe(undefined, rec('other'), 1_000); // monotonic ms
    const jumped = T0 + 3_600_000; // the wall clock stepped an hour ahead
    expect(
      decideAt({ identity: 'me', now: 1_000 + 14_000, wallTime: jumped, leaseDurationSeconds: 15, current }).kind,
    ).toBe('held');
    const d = decideAt({ identity: 'me', now: 1_000 + 15_000, wallTime: jumped, leaseDurationSeconds: 15, current });
    expect(d.kind === 'update' && d.record.renewTime).toBe(microTime(jumped));
  });

  it('takes a released lease (empty holder) at once', () => {
    const current = observe(undefined, releasedRecord(rec('other'), T0), T0);
    const d = decide({ identity: 'me', now: T0 + 1, leaseDurationSeconds: 15, current });
    expect(d.kind).toBe('update');
    if (d.kind === 'update') expect(d.record.leaderTransitions).toBe(3);
  });
});

describe('observe', () => {
  it('keeps the first observation time while the record is unchanged', () => {
    const first = observe(undefined, rec('other'), T0);
    const again = observe(first, rec('other'), T0 + 10_000);
    expect(again.observedAt).toBe(T0);
    // so the lease is expired 15 s after first seen, however often it is re-read unchanged
    expect(decide({ identity: 'me', now: T0 + 15_000, leaseDurationSeconds: 15, current: again }).kind).toBe('update');
  });

  it('restarts the observation time when the holder renews', () => {
    const first = observe(undefined, rec('other'), T0);
    const renewed = observe(first, rec('other', { renewTime: microTime(T0 + 2_000) }), T0 + 10_000);
    expect(renewed.observedAt).toBe(T0 + 10_000);
    expect(decide({ identity: 'me', now: T0 + 15_000, leaseDurationSeconds: 15, current: renewed }).kind).toBe('held');
  });
});

describe('releasedRecord', () => {
  it('empties the holder and shortens the duration to 1 s, keeping the transition count', () => {
    expect(releasedRecord(rec('me'), T0)).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: microTime(T0),
      renewTime: microTime(T0),
      leaderTransitions: 2,
    });
  });
});

describe('validateTiming', () => {
  it('accepts the defaults and rejects inconsistent timings', () => {
    expect(validateTiming({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })).toBeUndefined();
    expect(validateTiming({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })).toMatch(
      /leaseDuration/,
    );
    expect(validateTiming({ leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toMatch(
      /renewDeadline/,
    );
    expect(validateTiming({ leaseDurationMs: 15_500, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })).toMatch(
      /whole seconds/,
    );
  });
});
