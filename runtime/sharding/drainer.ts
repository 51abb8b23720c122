/**
 * The shard's side of the ring. The gate admits a reconcile only for an object this replica's
 * cache holds, labelled with its shard and not asked to drain; it counts the reconciles in
 * flight per key. When the assigner asks an object to drain (the drain label, naming the shard
 * it goes to), the gate refuses it from that event on, the reconcile in flight (if any) is
 * waited for, and then the object is acknowledged: the objects it owns are relabelled first,
 * then the object itself — new shard label, drain label removed — in one write conditional on
 * the version that asked. Only after that write can the new shard see it, so no key is ever
 * reconciled by two replicas at once. Owned objects that reach the cache after their owner left
 * (a write still on its way) are forwarded to where the owner went. Right after the shard Lease
 * is taken, the gate also holds to what a fresh list of the shard found until the cache has
 * caught up with it (fence.ts).
 */
import { apiVersionOf, objectKeyString, type GroupVersionKind, type KubeObject } from '../apimachinery/model.js';
import type { Cache, Informer } from '../cache/index.js';
import { isConflict, isNotFound, mergePatch, type Client } from '../client/index.js';
import type { ReconcileGate } from '../controller/index.js';
import type { Logger } from '../log/index.js';
import { realClock } from '../queue/index.js';
import { controllerOwnerOf, groupKind } from './keys.js';
import type { ShardingMetrics } from './metrics.js';
import { drainLabel, SHARDING_FIELD_MANAGER, shardLabel } from './names.js';
import { Limiter } from './limiter.js';
import { cacheHasPassed, fenceAdmits, type TakeoverFence } from './fence.js';

/** Index of owned kinds' informers: the uid of each object's controller owner. */
export const OWNER_INDEX = 'sharding.tsop.dev/controller-uid';

/** How long an owner that left is remembered, to forward owned objects that arrive late. */
const FORWARD_MS = 10 * 60_000;
const FORWARD_MAX = 10_000;
const RETRY_MS = 1_000;

interface Drain {
  /** When this shard first saw the drain label (realClock). */
  since: number;
  acking: boolean;
  /**
   * The object changed (or a reconcile ended) while an acknowledgement was being written: that
   * write was conditional on an older version and may fail with a conflict whose newer event has
   * already been delivered, so it is tried again once it is answered.
   */
  again: boolean;
}

interface KindState {
  gvk: GroupVersionKind;
  informer: Informer;
  inFlight: Map<string, number>;
  draining: Map<string, Drain>;
  /** Set at each take-over of the shard Lease, dropped once the cache has passed it. */
  fence?: TakeoverFence;
}

export interface DrainerOptions {
  ring: string;
  shard: string;
  cache: Cache;
  /** The manager's client (fenced with the shard lease); acknowledgements are written through it. */
  client: Client;
  metrics: ShardingMetrics;
  log: Logger;
  /** Acknowledgements in flight at once. */
  maxConcurrent: number;
  /**
   * Whether this replica holds its shard Lease: only then does it acknowledge or forward (a
   * replica waiting for a Lease another process holds must not let that shard's objects go).
   */
  holding(): boolean;
}

export class ShardDrainer {
  private readonly main = new Map<string, KindState>();
  private readonly owned = new Map<string, Informer>();
  /** owner uid → where it went, for owned objects that show up after it left */
  private readonly forwarded = new Map<string, { to: string; at: number }>();
  private readonly forwarding = new Set<string>();
  private readonly limiter: Limiter;
  private readonly shardKey: string;
  private readonly drainKey: string;
  private stopped = false;

  constructor(private readonly o: DrainerOptions) {
    this.limiter = new Limiter(o.maxConcurrent);
    this.shardKey = shardLabel(o.ring);
    this.drainKey = drainLabel(o.ring);
  }

  /** Follows a reconciled kind's informer (already limited to this shard); returns its gate. */
  followReconciled(gvk: GroupVersionKind): ReconcileGate {
    const gk = groupKind(gvk);
    let st = this.main.get(gk);
    if (!st) {
      st = { gvk, informer: this.o.cache.informerFor(gvk), inFlight: new Map(), draining: new Map() };
      this.main.set(gk, st);
      const s = st;
      s.informer.addEventHandler({
        onAdd: (obj) => this.observed(s, obj),
        onUpdate: (_, obj) => this.observed(s, obj),
        onDelete: (obj) => void s.draining.delete(objectKeyString(obj)),
      });
    }
    const s = st;
    return { enter: (key) => this.enter(s, key), exit: (key) => this.exit(s, key) };
  }

  /** Follows an owned kind's informer: indexed by controller owner, forwarded after a drained owner. */
  followOwned(gvk: GroupVersionKind): void {
    const gk = groupKind(gvk);
    if (this.owned.has(gk)) return;
    const informer = this.o.cache.informerFor(gvk);
    informer.addIndex(OWNER_INDEX, (obj) => {
      const uid = controllerOwnerOf(obj)?.uid;
      return uid ? [uid] : [];
    });
    informer.addEventHandler({
      onAdd: (obj) => this.forward(informer.gvk, obj),
      onUpdate: (_, obj) => this.forward(informer.gvk, obj),
    });
    this.owned.set(gk, informer);
  }

  /** What a list of `gvk`'s objects on this shard, made after the shard Lease was taken, found (undefined: no fence). */
  setFence(gvk: GroupVersionKind, fence: TakeoverFence | undefined): void {
    const s = this.main.get(groupKind(gvk));
    if (s) s.fence = fence;
  }

  /** No more acknowledgements or forwards are started (the manager is stopping). */
  stop(): void {
    this.stopped = true;
  }

  /** The shard Lease is held now: acknowledges the drains that arrived before. */
  resume(): void {
    for (const s of this.main.values()) for (const key of s.draining.keys()) this.kick(s, key);
  }

  /** Per reconciled kind: keys draining and reconciles in flight. */
  stats(): Array<{ kind: string; draining: number; inFlight: number }> {
    return [...this.main.values()].map((s) => ({
      kind: `${apiVersionOf(s.gvk)}/${s.gvk.kind}`,
      draining: s.draining.size,
      inFlight: [...s.inFlight.values()].reduce((a, b) => a + b, 0),
    }));
  }

  private enter(s: KindState, key: string): boolean {
    const labels = s.informer.store.get(key)?.metadata?.labels;
    if (!labels || labels[this.shardKey] !== this.o.shard || labels[this.drainKey] !== undefined || s.draining.has(key))
      return false;
    const cacheVersion = s.informer.lastSyncResourceVersion;
    if (s.fence && cacheHasPassed(s.fence, cacheVersion)) s.fence = undefined;
    if (!fenceAdmits(s.fence, cacheVersion, key)) return false;
    s.inFlight.set(key, (s.inFlight.get(key) ?? 0) + 1);
    return true;
  }

  private exit(s: KindState, key: string): void {
    const n = (s.inFlight.get(key) ?? 1) - 1;
    if (n > 0) s.inFlight.set(key, n);
    else s.inFlight.delete(key);
    if (n <= 0 && s.draining.has(key)) this.kick(s, key);
  }

  /** An add or update of a reconciled object: a drain label starts (or restarts) its acknowledgement. */
  private observed(s: KindState, obj: KubeObject): void {
    const key = objectKeyString(obj);
    const labels = obj.metadata?.labels ?? {};
    // It is here again: what it owns stays with it.
    if (obj.metadata?.uid) this.forwarded.delete(obj.metadata.uid);
    if (labels[this.drainKey] === undefined || labels[this.shardKey] !== this.o.shard) {
      s.draining.delete(key); // called off (or never asked)
      return;
    }
    if (!s.draining.has(key)) s.draining.set(key, { since: realClock.now(), acking: false, again: false });
    this.kick(s, key);
  }

  private kick(s: KindState, key: string): void {
    const d = s.draining.get(key);
    if (!d) return;
    if (d.acking) {
      d.again = true;
      return;
    }
    if (this.stopped || !this.o.holding() || (s.inFlight.get(key) ?? 0) > 0) return;
    d.acking = true;
    d.again = false;
    void this.limiter.run(() => this.acknowledge(s, key, d));
  }

  /** Moves what the object owns, then the object: the new shard sees it only after this write. */
  private async acknowledge(s: KindState, key: string, d: Drain): Promise<void> {
    let retry = false;
    try {
      const obj = s.informer.store.get(key);
      const to = obj?.metadata?.labels?.[this.drainKey];
      if (!obj || !to || s.draining.get(key) !== d || this.stopped) return;
      const uid = obj.metadata?.uid;
      if (uid) {
        for (const informer of this.owned.values()) {
          for (const owned of informer.store.byIndex(OWNER_INDEX, uid)) await this.relabel(informer.gvk, owned, to);
        }
        this.remember(uid, to);
      }
      const rv = obj.metadata?.resourceVersion;
      await this.o.client.patch(
        ref(s.gvk, obj),
        mergePatch({ metadata: { resourceVersion: rv, labels: { [this.shardKey]: to, [this.drainKey]: null } } }),
        {
          fieldManager: SHARDING_FIELD_MANAGER,
        },
      );
      const seconds = (realClock.now() - d.since) / 1000;
      this.o.metrics.moves.inc({ ring: this.o.ring, kind: groupKind(s.gvk), mode: 'drain', from: this.o.shard, to });
      this.o.metrics.drainSeconds.observe({ ring: this.o.ring, shard: this.o.shard }, seconds);
      this.o.log.debug({ key, to, drainMs: Math.round(seconds * 1000) }, 'drained');
      d.again = false; // it has left this shard: nothing is left to acknowledge
    } catch (err) {
      // A conflict or a vanished object is followed by a watch event that decides again.
      if (!isConflict(err) && !isNotFound(err)) {
        retry = !this.stopped;
        if (retry) this.o.log.warn({ err, key }, 'drain acknowledgement failed; retrying');
      }
    } finally {
      d.acking = false;
    }
    if (retry) realClock.setTimeout(() => this.kick(s, key), RETRY_MS);
    else if (d.again) this.kick(s, key);
  }

  private async relabel(gvk: GroupVersionKind, obj: KubeObject, to: string): Promise<void> {
    const from = obj.metadata?.labels?.[this.shardKey];
    if (from === to) return;
    try {
      await this.o.client.patch(ref(gvk, obj), mergePatch({ metadata: { labels: { [this.shardKey]: to } } }), {
        fieldManager: SHARDING_FIELD_MANAGER,
      });
      this.o.metrics.moves.inc({ ring: this.o.ring, kind: groupKind(gvk), mode: 'follow', from: from ?? '', to });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private remember(uid: string, to: string): void {
    this.forwarded.delete(uid);
    this.forwarded.set(uid, { to, at: realClock.now() });
    for (const [k, v] of this.forwarded) {
      if (this.forwarded.size <= FORWARD_MAX && realClock.now() - v.at < FORWARD_MS) break;
      this.forwarded.delete(k); // oldest first (insertion order)
    }
  }

  /** An owned object whose owner drained away from here goes after it. */
  private forward(gvk: GroupVersionKind, obj: KubeObject): void {
    const owner = controllerOwnerOf(obj);
    const f = owner?.uid ? this.forwarded.get(owner.uid) : undefined;
    if (!f || this.stopped || !this.o.holding() || realClock.now() - f.at > FORWARD_MS) return;
    const id = `${groupKind(gvk)}|${objectKeyString(obj)}`;
    if (this.forwarding.has(id)) return;
    this.forwarding.add(id);
    void this.limiter
      .run(() => this.relabel(gvk, obj, f.to))
      .catch((err: unknown) => this.o.log.warn({ err, key: objectKeyString(obj) }, 'forwarding an owned object failed'))
      .finally(() => this.forwarding.delete(id));
  }
}

/** The object a patch addresses: its kind and key only. */
function ref(gvk: GroupVersionKind, obj: KubeObject): KubeObject {
  const { name, namespace } = obj.metadata ?? {};
  return { apiVersion: apiVersionOf(gvk), kind: gvk.kind, metadata: namespace ? { name, namespace } : { name } };
}
