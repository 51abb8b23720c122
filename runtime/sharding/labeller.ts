/**
 * Gives new objects of the reconciled kinds their shard label, on every replica. Each watches
 * only the objects without a shard label (`!shard.sharding.tsop.dev/<ring>`), so its memory does
 * not grow with the objects assigned, and labels them with the shard the ring picks:
 *
 * - while this replica leads (its assigner runs), every new object at once;
 * - otherwise only the objects the ring gives this replica's own shard, once they have waited
 *   FOLLOWER_GRACE_MS unlabelled (the leader normally labels them before that), and only while
 *   this replica holds its shard Lease.
 *
 * So an object created while the leader is down (killed, partitioned, its successor not yet
 * elected) is labelled by the shard that will reconcile it within about a second, not after the
 * leader Lease expires. Labelling an unlabelled object is safe from any replica: nobody
 * reconciles an object without a shard, and the write is conditional on the version seen
 * unlabelled, so when two replicas label one object, one write lands and the other conflicts.
 * Where views of the ring disagree for a moment (a shard joining), the leader's next pass drains
 * the object to where its ring wants it. Each shard labels only its own share, so replicas do
 * not race each other for every object, and the work spreads over them.
 */
import { apiVersionOf, type GroupVersionKind, type KubeObject } from '../apimachinery/index.js';
import { Informer, type Cache } from '../cache/index.js';
import { isConflict, isNotFound, mergePatch, type Client } from '../client/index.js';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import type { Logger } from '../log/index.js';
import { realClock } from '../queue/index.js';
import type { RequestMetrics } from '../rest/index.js';
import type { RESTMapper } from '../restmapper/index.js';
import { HashRing } from './hash-ring.js';
import { groupKind, ownKey } from './keys.js';
import type { ShardedKinds } from './kinds.js';
import { Limiter } from './limiter.js';
import type { ShardingMetrics } from './metrics.js';
import { SHARDING_FIELD_MANAGER, shardLabel } from './names.js';
import { movePatch } from './plan.js';
import type { RingView } from './ring-view.js';

/** How long a replica that does not lead leaves a new object of its own share to the leader. */
export const FOLLOWER_GRACE_MS = 1_000;
/** A label write that failed (not a conflict) is tried again after this. */
const RETRY_MS = 2_000;

export interface LabellerOptions {
  ring: string;
  /** This replica's shard. */
  shard: string;
  view: RingView;
  kinds: ShardedKinds;
  /** The manager's client (fenced with the manager's Leases). */
  client: Client;
  cache: Cache;
  kubeConfig: KubeConfigSource;
  mapper: RESTMapper;
  requestMetrics?: RequestMetrics;
  metrics: ShardingMetrics;
  log: Logger;
  /** Label writes in flight at once. */
  maxConcurrent: number;
  tokensPerShard?: number;
  /** Whether this replica holds its shard Lease (a follower labels only then). */
  holding(): boolean;
}

interface Unassigned {
  gvk: GroupVersionKind;
  informer: Informer;
}

export class NewObjectLabeller {
  private hashRing = new HashRing([]);
  private readonly limiter: Limiter;
  private readonly kinds: Unassigned[] = [];
  /** Objects with a write queued or a follower's wait running, by kind and key. */
  private readonly queued = new Set<string>();
  private leading: AbortSignal | undefined;
  private signal: AbortSignal | undefined;

  constructor(private readonly o: LabellerOptions) {
    this.limiter = new Limiter(o.maxConcurrent);
  }

  /** Watches each reconciled kind's unlabelled objects and labels them until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    const offChange = this.o.view.onChange(() => {
      this.hashRing = new HashRing(this.o.view.live(), this.o.tokensPerShard);
      // Who labels what may have changed: a gone shard's share is someone else's now.
      this.all((u, obj) => this.seen(u, obj, 0));
    });
    this.hashRing = new HashRing(this.o.view.live(), this.o.tokensPerShard);
    try {
      await Promise.all(this.o.kinds.reconciled().map((k) => this.watch(k.gvk, signal)));
    } finally {
      offChange();
    }
  }

  /** This replica leads until `signal` aborts: every unlabelled object is labelled at once. */
  lead(signal: AbortSignal): void {
    if (signal.aborted) return;
    this.leading = signal;
    const stop = () => {
      if (this.leading === signal) this.leading = undefined;
    };
    signal.addEventListener('abort', stop, { once: true });
    this.all((u, obj) => this.seen(u, obj, 0));
  }

  /** Objects waiting for a shard label, as this replica sees them. */
  unassigned(): number {
    return this.kinds.reduce((n, u) => n + u.informer.store.size, 0);
  }

  private watch(gvk: GroupVersionKind, signal: AbortSignal): Promise<void> {
    const informer = new Informer({
      kubeConfig: this.o.kubeConfig,
      gvk,
      mapper: this.o.mapper,
      namespace: this.o.cache.scopeOf(gvk).namespace,
      labelSelector: `!${shardLabel(this.o.ring)}`,
      requestMetrics: this.o.requestMetrics,
      onWatchError: (e) => this.o.log.warn({ gvk: e.gvk, code: e.code }, e.message),
    });
    const u = { gvk, informer };
    this.kinds.push(u);
    informer.addEventHandler({
      onAdd: (obj) => this.seen(u, obj, FOLLOWER_GRACE_MS),
      onUpdate: (_, obj) => this.seen(u, obj, FOLLOWER_GRACE_MS),
    });
    return informer.run(signal);
  }

  private all(fn: (u: Unassigned, obj: KubeObject) => void): void {
    for (const u of this.kinds) for (const obj of u.informer.store.list()) fn(u, obj);
  }

  /** An unlabelled object: labelled now by the leader, after `graceMs` by the shard the ring gives it. */
  private seen(u: Unassigned, obj: KubeObject, graceMs: number): void {
    const key = ownKey(obj);
    const id = `${groupKind(u.gvk)}|${key}`;
    if (this.queued.has(id) || this.signal?.aborted) return;
    if (this.leading) {
      this.label(u, key, id);
      return;
    }
    if (this.hashRing.shardFor(key) !== this.o.shard) return; // another shard's, or the leader's to label
    this.queued.add(id);
    realClock.setTimeout(() => {
      this.queued.delete(id);
      this.label(u, key, id);
    }, graceMs);
  }

  private label(u: Unassigned, key: string, id: string): void {
    if (this.queued.has(id)) return;
    this.queued.add(id);
    void this.limiter.run(async () => {
      this.queued.delete(id);
      const current = u.informer.store.get(key); // gone from the store once labelled
      const to = current && this.hashRing.shardFor(key);
      if (!current || !to || this.signal?.aborted) return; // labelled, deleted, or no shard alive
      if (!this.leading && (to !== this.o.shard || !this.o.holding())) return;
      if (await this.write(u.gvk, current, to)) realClock.setTimeout(() => this.seen(u, current, 0), RETRY_MS);
    });
  }

  /** One assignment; true when it should be tried again (a failure other than a conflict or NotFound). */
  private async write(gvk: GroupVersionKind, obj: KubeObject, to: string): Promise<boolean> {
    const { name, namespace, resourceVersion } = obj.metadata ?? {};
    try {
      await this.o.client.patch(
        { apiVersion: apiVersionOf(gvk), kind: gvk.kind, metadata: namespace ? { name, namespace } : { name } },
        mergePatch(movePatch(this.o.ring, { mode: 'assign', to }, resourceVersion)),
        { fieldManager: SHARDING_FIELD_MANAGER },
      );
    } catch (err) {
      // A conflict: someone labelled it (or it changed, and its event brings it back here).
      if (isConflict(err) || isNotFound(err)) return false;
      if (!this.signal?.aborted) this.o.log.warn({ err, object: ownKey(obj) }, 'labelling a new object failed');
      return !this.signal?.aborted;
    }
    this.o.metrics.moves.inc({ ring: this.o.ring, kind: groupKind(gvk), mode: 'assign', from: '', to });
    return false;
  }
}
