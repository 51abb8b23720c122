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
 * the object to where its ring wants it: the leader's labeller sees each object leave its
 * watch, and when it did not label one itself, it asks the assigner for a pass soon. Each shard
 * labels only its own share, so replicas do not race each other for every object.
 */
import { apiVersionOf, type GroupVersionKind, type KubeObject } from '../apimachinery/model.js';
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

type WriteOutcome = 'written' | 'refused' | 'failed';

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
  private leading: { signal: AbortSignal; labelledElsewhere: () => void } | undefined;
  private signal: AbortSignal | undefined;
  /** While leading: the leader's own label writes in flight (and whether the object left the watch meanwhile), and those answered. */
  private readonly writing = new Map<string, { left: boolean }>();
  private readonly mine = new Set<string>();

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

  /**
   * This replica leads until `signal` aborts: every unlabelled object is labelled at once, and
   * `labelledElsewhere` is called when an object left the watch without this replica's write
   * (another replica labelled it, by a view of the ring that may have been behind; or it was
   * deleted).
   */
  lead(signal: AbortSignal, labelledElsewhere: () => void): void {
    if (signal.aborted) return;
    const leading = { signal, labelledElsewhere };
    this.leading = leading;
    const stop = () => {
      if (this.leading !== leading) return;
      this.leading = undefined;
      this.mine.clear();
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
      onDelete: (obj) => this.left(`${groupKind(gvk)}|${ownKey(obj)}`),
    });
    return informer.run(signal);
  }

  /** An object left the watch (labelled, or deleted): the leader checks that it labelled it. */
  private left(id: string): void {
    if (!this.leading || this.mine.delete(id)) return;
    const w = this.writing.get(id);
    if (w) w.left = true;
    else this.leading.labelledElsewhere();
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
      const leading = this.leading;
      if (!leading && (to !== this.o.shard || !this.o.holding())) return;
      const w = { left: false };
      this.writing.set(id, w);
      let outcome: WriteOutcome;
      try {
        outcome = await this.write(u.gvk, current, to);
      } finally {
        this.writing.delete(id);
      }
      if (leading && leading === this.leading) {
        if (outcome === 'written' && !w.left) this.mine.add(id);
        if (outcome !== 'written' && w.left) leading.labelledElsewhere();
      }
      if (outcome === 'failed') realClock.setTimeout(() => this.seen(u, current, 0), RETRY_MS);
    });
  }

  /** One assignment: written, refused (a conflict: someone labelled or changed it; or it is gone), or failed otherwise (tried again). */
  private async write(gvk: GroupVersionKind, obj: KubeObject, to: string): Promise<WriteOutcome> {
    const { name, namespace, resourceVersion } = obj.metadata ?? {};
    try {
      await this.o.client.patch(
        { apiVersion: apiVersionOf(gvk), kind: gvk.kind, metadata: namespace ? { name, namespace } : { name } },
        mergePatch(movePatch(this.o.ring, { mode: 'assign', to }, resourceVersion)),
        { fieldManager: SHARDING_FIELD_MANAGER },
      );
    } catch (err) {
      // A conflict: someone labelled it (or it changed, and its event brings it back here).
      if (isConflict(err) || isNotFound(err)) return 'refused';
      if (this.signal?.aborted) return 'refused';
      this.o.log.warn({ err, object: ownKey(obj) }, 'labelling a new object failed');
      return 'failed';
    }
    this.o.metrics.moves.inc({ ring: this.o.ring, kind: groupKind(gvk), mode: 'assign', from: '', to });
    return 'written';
  }
}
