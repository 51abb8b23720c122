/**
 * The ring's membership as this process sees it: a watch of the Leases labelled with the ring,
 * and for each the shard holding it and whether it is alive. A shard is alive while its holder
 * is set and its record has changed within its lease duration — judged, as leader election
 * judges a leader, from when this process saw the record change (no clock agreement between
 * machines needed). A released lease (no holder), or one the assigner holds for a gone shard, is
 * gone at once; a deleted one stays until its last record expires, so deleting a live shard's
 * Lease by hand moves nothing early. Gone is not free to move from: the assigner moves a gone
 * shard's objects only once it holds the shard's Lease itself (reaper.ts). The pure part
 * (`memberStates`) is separate from the watch.
 */
import { Informer, type WatchErrorInfo } from '../cache/index.js';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { expiresAt, observe, type LeaderElectionRecord, type Observation } from '../leaderelection/index.js';
import { realClock, type Clock, type TimerHandle } from '../queue/index.js';
import type { RequestMetrics } from '../rest/index.js';
import type { RESTMapper } from '../restmapper/index.js';
import { heldByAssigner, RING_LABEL, SHARD_NAME_LABEL } from './names.js';

export const LEASE_GVK = { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' } as const;

/** The part of a coordination.k8s.io/v1 Lease the ring reads. */
export interface LeaseObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
  [field: string]: unknown;
}

/** One lease as last seen. */
export interface LeaseEntry {
  lease: string;
  /** The shard that held it last (its holder; kept after a release for display). */
  shard: string;
  observation: Observation;
  resourceVersion?: string;
  /** The Lease object no longer exists. */
  deleted: boolean;
}

/** A shard as /debug/controllers and the assigner see it. */
export interface ShardMember {
  shard: string;
  lease: string;
  live: boolean;
  /** Until its lease expires by this process's observation; ≤ 0 once it has. */
  expiresInMs: number;
  /** The shard is gone and the assigner holds its Lease while it moves the shard's objects. */
  heldByAssigner?: true;
}

export function leaseRecord(spec: LeaseObject['spec']): LeaderElectionRecord {
  return {
    holderIdentity: spec?.holderIdentity ?? '',
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? 15,
    acquireTime: spec?.acquireTime,
    renewTime: spec?.renewTime,
    leaderTransitions: spec?.leaseTransitions ?? 0,
  };
}

/** Whether the shard behind `obs` is alive at `now`: held by a shard (not released, not by the assigner) and not expired. */
function isLive(obs: Observation, now: number): boolean {
  const holder = obs.record.holderIdentity;
  return holder !== '' && !heldByAssigner(holder) && expiresAt(obs) > now;
}

/** Each entry's state at `now`, and when the next live one expires (Infinity: none). */
export function memberStates(
  entries: Iterable<LeaseEntry>,
  now: number,
): { members: ShardMember[]; nextExpiry: number } {
  const members: ShardMember[] = [];
  let nextExpiry = Infinity;
  for (const e of entries) {
    const until = expiresAt(e.observation) - now;
    const assigner = heldByAssigner(e.observation.record.holderIdentity);
    const live = isLive(e.observation, now);
    if (live) nextExpiry = Math.min(nextExpiry, now + until);
    members.push({
      shard: e.shard,
      lease: e.lease,
      live,
      expiresInMs: Math.round(until),
      ...(assigner ? { heldByAssigner: true as const } : {}),
    });
  }
  members.sort((a, b) => (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0));
  return { members, nextExpiry };
}

export interface RingViewOptions {
  kubeConfig: KubeConfigSource;
  mapper?: RESTMapper;
  ring: string;
  namespace: string;
  clock?: Clock;
  requestMetrics?: RequestMetrics;
  onWatchError?: (info: WatchErrorInfo) => void;
}

export class RingView {
  private readonly informer: Informer<LeaseObject>;
  private readonly clock: Clock;
  private readonly entries = new Map<string, LeaseEntry>();
  private readonly listeners = new Set<() => void>();
  private liveKey = '';
  private liveSet: ReadonlySet<string> = new Set();
  private timer: TimerHandle | undefined;

  constructor(opts: RingViewOptions) {
    this.clock = opts.clock ?? realClock;
    this.informer = new Informer<LeaseObject>({
      kubeConfig: opts.kubeConfig,
      gvk: LEASE_GVK,
      mapper: opts.mapper,
      namespace: opts.namespace,
      labelSelector: `${RING_LABEL}=${opts.ring}`,
      requestMetrics: opts.requestMetrics,
      onWatchError: opts.onWatchError,
      clock: opts.clock,
    });
    this.informer.addEventHandler({
      onAdd: (l) => this.seen(l),
      onUpdate: (_, l) => this.seen(l),
      onDelete: (l) => this.gone(l),
    });
  }

  /** Watches the ring's Leases until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.informer.run(signal);
    } finally {
      if (this.timer) this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return this.informer.waitForSync(signal);
  }

  hasSynced(): boolean {
    return this.informer.hasSynced();
  }

  /** The shards alive now. */
  live(): ReadonlySet<string> {
    return this.liveSet;
  }

  members(): ShardMember[] {
    return memberStates(this.entries.values(), this.clock.now()).members;
  }

  /** How this process has seen Lease `lease` (its record and since when), if it has. */
  observation(lease: string): Observation | undefined {
    return this.entries.get(lease)?.observation;
  }

  /** Leases whose shard is gone but which still exist (for the assigner to delete). */
  stale(): Array<{ lease: string; resourceVersion?: string }> {
    const now = this.clock.now();
    return [...this.entries.values()]
      .filter((e) => !e.deleted && (e.observation.record.holderIdentity === '' || expiresAt(e.observation) <= now))
      .map((e) => ({ lease: e.lease, resourceVersion: e.resourceVersion }));
  }

  /** Calls `fn` whenever the set of live shards changes; returns its removal. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private seen(l: LeaseObject): void {
    const name = l.metadata?.name ?? '';
    const prev = this.entries.get(name);
    const record = leaseRecord(l.spec);
    const observation = observe(prev?.observation, record, this.clock.now());
    // The label names the shard; a Lease without it (written by hand) by its holder.
    const shard = l.metadata?.labels?.[SHARD_NAME_LABEL] || record.holderIdentity || prev?.shard || name;
    this.entries.set(name, {
      lease: name,
      shard,
      observation,
      resourceVersion: l.metadata?.resourceVersion,
      deleted: false,
    });
    this.recompute();
  }

  private gone(l: LeaseObject): void {
    const name = l.metadata?.name ?? '';
    const prev = this.entries.get(name);
    if (!prev) return;
    if (isLive(prev.observation, this.clock.now())) this.entries.set(name, { ...prev, deleted: true });
    else this.entries.delete(name);
    this.recompute();
  }

  /** Recomputes the live set, tells listeners when it changed, and wakes up at the next expiry. */
  private recompute(): void {
    const now = this.clock.now();
    const { members, nextExpiry } = memberStates(this.entries.values(), now);
    // Deleted leases are forgotten once they have expired.
    for (const m of members) if (!m.live && this.entries.get(m.lease)?.deleted) this.entries.delete(m.lease);
    const live = members.filter((m) => m.live).map((m) => m.shard);
    const key = live.join(',');
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer =
      nextExpiry === Infinity ? undefined : this.clock.setTimeout(() => this.recompute(), nextExpiry - now + 1);
    if (key === this.liveKey) return;
    this.liveKey = key;
    this.liveSet = new Set(live);
    for (const fn of [...this.listeners]) fn();
  }
}
