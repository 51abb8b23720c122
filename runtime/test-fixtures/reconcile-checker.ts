/**
 * The checker behind "no object is ever reconciled by two replicas at once": every reconcile's
 * interval, from the start and end events each replica printed on one monotonic clock (the
 * machine's), and every pair of intervals of one key that overlap. A replica killed in the
 * middle of a reconcile has it end at the moment it was killed — nothing of it runs after that.
 */
import type { ChildEvent } from './child.js';

export interface ReconcileInterval {
  key: string;
  replica: string;
  /** Monotonic µs. */
  start: number;
  end: number;
}

/**
 * The reconciles one replica ran. `diedAt` (monotonic µs) ends those still open when it was
 * killed; without it an open reconcile runs for ever, which any later one of the key overlaps.
 */
export function reconcileIntervals(replica: string, events: readonly ChildEvent[], diedAt = Infinity): ReconcileInterval[] {
  const open = new Map<string, number[]>();
  const out: ReconcileInterval[] = [];
  for (const e of events) {
    if (!e.key || (e.event !== 'start' && e.event !== 'end')) continue;
    const starts = open.get(e.key) ?? [];
    if (e.event === 'start') {
      starts.push(e.mono);
      open.set(e.key, starts);
    } else {
      const start = starts.shift();
      if (start !== undefined) out.push({ key: e.key, replica, start, end: e.mono });
    }
  }
  for (const [key, starts] of open) for (const start of starts) out.push({ key, replica, start, end: diedAt });
  return out;
}

/** Every two reconciles of one key that ran at the same time (on one replica or two). */
export function overlapping(intervals: readonly ReconcileInterval[]): Array<[ReconcileInterval, ReconcileInterval]> {
  const byKey = new Map<string, ReconcileInterval[]>();
  for (const i of intervals) byKey.set(i.key, [...(byKey.get(i.key) ?? []), i]);
  const out: Array<[ReconcileInterval, ReconcileInterval]> = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.start - b.start);
    let latest: ReconcileInterval | undefined;
    for (const i of list) {
      if (latest && i.start < latest.end) out.push([latest, i]);
      if (!latest || i.end > latest.end) latest = i;
    }
  }
  return out;
}
