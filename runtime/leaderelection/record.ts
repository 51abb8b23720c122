/**
 * The pure half of leader election: the leader-election record, how a candidate decides
 * whether it may take or keep the lease, and the record it writes. No I/O and no clock of its
 * own — `now` (monotonic, for expiry) and `wallTime` (for the stamps written) are passed in —
 * so every rule is unit-testable.
 *
 * Expiry is judged against the local time at which this candidate first *observed* the current
 * record, not against the record's renewTime (client-go does the same): it needs no clock
 * agreement between machines, only that a changed record is noticed.
 */

/** What a Lease's spec says (coordination.k8s.io/v1 LeaseSpec, the fields election uses). */
export interface LeaderElectionRecord {
  /** '' means nobody holds the lease (it was released). */
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** RFC 3339 with microseconds (metav1.MicroTime). */
  acquireTime?: string;
  renewTime?: string;
  leaderTransitions: number;
}

/** A record together with the local monotonic time (ms) it was first seen in its current form. */
export interface Observation {
  record: LeaderElectionRecord;
  observedAt: number;
}

export type Decision =
  /** No lease yet: create it holding `record`. */
  | { kind: 'create'; record: LeaderElectionRecord }
  /** The lease is ours or free (released / expired): write `record` over it. */
  | { kind: 'update'; record: LeaderElectionRecord }
  /** Someone else holds a live lease; it expires (by our observation) at `expiresAt`. */
  | { kind: 'held'; holder: string; expiresAt: number };

/** metav1.MicroTime: RFC 3339, UTC, six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

function sameRecord(a: LeaderElectionRecord, b: LeaderElectionRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaderTransitions === b.leaderTransitions
  );
}

/** Keeps the earlier observation time while the record is unchanged; restarts it on any change. */
export function observe(prev: Observation | undefined, record: LeaderElectionRecord, now: number): Observation {
  if (prev && sameRecord(prev.record, record)) return prev;
  return { record, observedAt: now };
}

/** When the observed holder's lease runs out, by our clock. */
export function expiresAt(obs: Observation): number {
  return obs.observedAt + obs.record.leaseDurationSeconds * 1000;
}

export interface DecideInput {
  identity: string;
  /** Monotonic clock reading, the same clock `observe` was given. */
  now: number;
  /** Wall-clock ms since the epoch, only for acquireTime / renewTime. */
  wallTime: number;
  /** Our configured lease duration, written into records we hold. */
  leaseDurationSeconds: number;
  /** The current lease as observed, or undefined when it does not exist. */
  current: Observation | undefined;
}

/** May `identity` acquire or renew the lease now, and with which record? */
export function decide({ identity, now, wallTime, leaseDurationSeconds, current }: DecideInput): Decision {
  const stamp = microTime(wallTime);
  if (!current) {
    return {
      kind: 'create',
      record: {
        holderIdentity: identity,
        leaseDurationSeconds,
        acquireTime: stamp,
        renewTime: stamp,
        leaderTransitions: 0,
      },
    };
  }
  const old = current.record;
  const holder = old.holderIdentity;
  if (holder !== '' && holder !== identity && expiresAt(current) > now) {
    return { kind: 'held', holder, expiresAt: expiresAt(current) };
  }
  const renewing = holder === identity;
  return {
    kind: 'update',
    record: {
      holderIdentity: identity,
      leaseDurationSeconds,
      // A renewal keeps when we took the lease; a takeover counts one more transition.
      acquireTime: renewing ? (old.acquireTime ?? stamp) : stamp,
      renewTime: stamp,
      leaderTransitions: renewing ? old.leaderTransitions : old.leaderTransitions + 1,
    },
  };
}

/** The record a leader writes when it gives the lease up: no holder, 1 s duration. */
export function releasedRecord(old: LeaderElectionRecord, wallTime: number): LeaderElectionRecord {
  const stamp = microTime(wallTime);
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: stamp,
    renewTime: stamp,
    leaderTransitions: old.leaderTransitions,
  };
}

export interface Timing {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** The timing must let a leader fail a few renewals before a follower may take over. */
export function validateTiming(t: Timing): string | undefined {
  if (t.retryPeriodMs <= 0) return 'retryPeriod must be positive';
  if (t.leaseDurationMs <= t.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (t.renewDeadlineMs <= t.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod';
  if (t.leaseDurationMs % 1000 !== 0) return 'leaseDuration must be whole seconds (the Lease stores seconds)';
  return undefined;
}
