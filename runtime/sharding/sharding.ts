/**
 * One replica's part in a ring, as the manager and the builder use it: it shards controllers
 * (their kinds cached with this shard's label only, their reconciles gated), holds this
 * replica's shard Lease, watches the ring's membership, drains what the assigner asks it to let
 * go, runs the assigner while this replica leads, labels what the operator creates, and reports
 * the ring to metrics and /debug/controllers.
 */
import { randomUUID } from 'node:crypto';
import {
  apiVersionOf,
  gvkFromApiVersion,
  objectKeyString,
  type GroupVersionKind,
  type KubeObject,
} from '../apimachinery/model.js';
import { CacheScopeError } from '../cache/index.js';
import { isConflict, isNotFound, type Client, type ClientObject } from '../client/index.js';
import type { ReconcileGate } from '../controller/index.js';
import { LeaderElector } from '../leaderelection/index.js';
import type { Logger } from '../log/index.js';
import { realClock, sleep } from '../queue/index.js';
import { Assigner, type AssignerDebugInfo } from './assigner.js';
import { ShardDrainer } from './drainer.js';
import { takeoverFence } from './fence.js';
import { HashRing } from './hash-ring.js';
import { controllerOwnerOf } from './keys.js';
import { ShardedKinds, type KindRole } from './kinds.js';
import { NewObjectLabeller } from './labeller.js';
import { shardingMetrics, type ShardingMetrics } from './metrics.js';
import { drainLabel, RING_LABEL, SHARD_NAME_LABEL, shardLabel, shardLeaseName } from './names.js';
import { LEASE_GVK, RingView, type ShardMember } from './ring-view.js';
import { StampingClient } from './stamp.js';
import type {
  HoldCallbacks,
  ResolvedSharding,
  ShardingDeps,
  ShardingEngine,
  ShardingEngineFactory,
  RingDebugSummary,
} from '../manager/sharding-engine.js';

export type { ShardingDeps, HoldCallbacks };

/** What /debug/controllers shows of the ring (the `ring` field). */
export interface RingDebugInfo extends RingDebugSummary {
  /** Every shard Lease of the ring, alive or not, with each live shard's share of the hash space. */
  shards: Array<ShardMember & { self: boolean; share?: number }>;
  /** The sharded kinds and what this replica holds of each. */
  kinds: Array<{ kind: string; role: KindRole; objects: number; draining?: number; inFlight?: number }>;
  /** The assigner, on the replica that leads (absent elsewhere). */
  assigner?: AssignerDebugInfo;
}

/**
 * Where this module is compiled in, `mgr.sharding` keeps what it had when the manager typed it as
 * this class (tsop ≤ 0.2): the ring's kinds, view and metrics, and the full debug info. Code that
 * read them compiles unchanged; the manager itself needs only ShardingEngine.
 */
declare module '../manager/sharding-engine.js' {
  interface ShardingEngine {
    readonly kinds: ShardedKinds;
    readonly view: RingView;
    readonly metrics: ShardingMetrics;
    debugInfo(): RingDebugInfo;
  }
}

export class Sharding implements ShardingEngine {
  readonly ring: string;
  readonly namespace: string;
  readonly shardName: string;
  readonly leaseName: string;
  readonly kinds = new ShardedKinds();
  readonly view: RingView;
  readonly metrics: ShardingMetrics;
  private readonly drainer: ShardDrainer;
  private readonly labeller: NewObjectLabeller;
  private readonly log: Logger;
  private readonly shardKey: string;
  private readonly drainKey: string;
  private elector: LeaderElector | undefined;
  private assigner: Assigner | undefined;
  private holding = false;
  private shares: { key: string; shares: Map<string, number> } | undefined;

  constructor(
    private readonly r: ResolvedSharding,
    private readonly deps: ShardingDeps,
  ) {
    this.ring = r.ring;
    this.namespace = r.namespace;
    this.shardName = r.shardName;
    this.leaseName = shardLeaseName(r.ring, r.shardName);
    this.shardKey = shardLabel(r.ring);
    this.drainKey = drainLabel(r.ring);
    this.log = deps.logger.child({ component: 'sharding', ring: r.ring, shard: r.shardName });
    this.metrics = shardingMetrics(deps.registry);
    this.view = new RingView({
      kubeConfig: deps.kubeConfig,
      mapper: deps.restMapper,
      ring: r.ring,
      namespace: r.namespace,
      requestMetrics: deps.requestMetrics,
      onWatchError: (e) => this.log.warn({ gvk: e.gvk, code: e.code }, e.message),
    });
    this.drainer = new ShardDrainer({
      ring: r.ring,
      shard: r.shardName,
      cache: deps.cache,
      client: deps.client,
      metrics: this.metrics,
      log: this.log,
      maxConcurrent: r.maxConcurrentMoves,
      holding: () => this.holding,
    });
    this.labeller = new NewObjectLabeller({
      ring: r.ring,
      shard: r.shardName,
      view: this.view,
      kinds: this.kinds,
      client: deps.client,
      cache: deps.cache,
      kubeConfig: deps.kubeConfig,
      mapper: deps.restMapper,
      requestMetrics: deps.requestMetrics,
      metrics: this.metrics,
      log: this.log,
      maxConcurrent: r.maxConcurrentMoves,
      tokensPerShard: r.tokensPerShard,
      holding: () => this.holding,
    });
    this.metrics.addSource({
      ring: r.ring,
      shard: r.shardName,
      objects: () => this.kinds.all().map((k) => ({ kind: kindLabel(k.gvk), count: this.cached(k.gvk) })),
      liveShards: () => this.view.live().size,
    });
  }

  /**
   * Shards controller `name`: its For kind and the kinds it owns are cached with this shard's
   * label only, and the returned gate admits only reconciles of this shard's objects. Returns
   * the problems instead when that cannot be (for the builder's BuilderError).
   */
  shardController(
    name: string,
    forGvk: GroupVersionKind,
    owned: readonly GroupVersionKind[],
  ): { problems: string[]; gate?: ReconcileGate } {
    const fresh = [forGvk, ...owned].filter((g) => !this.kinds.get(g));
    const cached = fresh.filter((g) => this.deps.cache.has(g));
    if (cached.length > 0) {
      return {
        problems: cached.map(
          (g) =>
            `${kindLabel(g)} is already cached in full (something read or watched it before controller "${name}" was sharded): build sharded controllers first`,
        ),
      };
    }
    const problems = this.kinds.claim(name, forGvk, owned);
    if (problems.length > 0) return { problems };
    for (const gvk of fresh) {
      try {
        this.deps.cache.addLabelSelector(gvk, `${this.shardKey}=${this.shardName}`);
      } catch (err) {
        if (err instanceof CacheScopeError) return { problems: [err.message] };
        throw err;
      }
    }
    for (const gvk of owned) this.drainer.followOwned(gvk);
    return { problems: [], gate: this.drainer.followReconciled(forGvk) };
  }

  /** The problems with a controller that is not sharded watching `gvks` (a sharded kind's cache holds one share). */
  unshardedController(name: string, gvks: readonly GroupVersionKind[]): string[] {
    return this.kinds.claimUnsharded(name, gvks);
  }

  /**
   * What the manager's client sends instead of `obj`: an object of an owned kind whose controller
   * owner is cached here gets this shard's label on create (and keeps it on update or apply); an
   * update of a reconciled object that dropped its labels keeps the shard and drain labels it has.
   */
  stamp<T extends ClientObject>(obj: T, verb: 'create' | 'update' | 'apply'): T {
    if (!obj.apiVersion || !obj.kind) return obj;
    let gvk: GroupVersionKind;
    try {
      gvk = gvkFromApiVersion(obj.apiVersion, obj.kind);
    } catch {
      return obj;
    }
    const kind = this.kinds.get(gvk);
    const labels = obj.metadata?.labels ?? {};
    if (!kind || labels[this.shardKey] !== undefined) return obj;
    let keep: Record<string, string> | undefined;
    if (kind.role === 'reconciled' && verb !== 'create') {
      const ns = obj.metadata?.namespace;
      const key = ns ? `${ns}/${obj.metadata?.name ?? ''}` : (obj.metadata?.name ?? '');
      const cachedLabels = this.deps.cache.informerFor(gvk).store.get(key)?.metadata?.labels ?? {};
      keep = pick(cachedLabels, [this.shardKey, this.drainKey]);
    } else if (kind.role === 'owned') {
      const owner = controllerOwnerOf(obj);
      const ownerKind = owner && this.kinds.byGroupKind(owner.groupKind);
      if (owner && ownerKind?.role === 'reconciled') {
        const informer = this.deps.cache.informerFor(ownerKind.gvk);
        const ns = obj.metadata?.namespace;
        const cachedOwner = informer.store.get(
          informer.namespaced !== false && ns ? `${ns}/${owner.name}` : owner.name,
        );
        if (cachedOwner && (!owner.uid || cachedOwner.metadata?.uid === owner.uid))
          keep = pick(cachedOwner.metadata?.labels ?? {}, [this.shardKey]);
      }
    }
    if (!keep || Object.keys(keep).length === 0) return obj;
    return { ...obj, metadata: { ...obj.metadata, labels: { ...labels, ...keep } } };
  }

  /** `client`, its writes stamped (the manager's client under sharding). */
  stampingClient(client: Client): Client {
    return new StampingClient(client, (obj, verb) => this.stamp(obj, verb));
  }

  /**
   * Watches the ring's Leases, and the new objects to label (every replica), until `signal`
   * aborts.
   */
  async runView(signal: AbortSignal): Promise<void> {
    await Promise.all([this.view.run(signal), this.labeller.run(signal)]);
  }

  /** Runs the assigner (on the leader) until `signal` aborts. */
  async runAssigner(signal: AbortSignal): Promise<void> {
    const assigner = new Assigner({
      ring: this.ring,
      namespace: this.namespace,
      view: this.view,
      kinds: this.kinds,
      labeller: this.labeller,
      client: this.deps.client,
      cache: this.deps.cache,
      mapper: this.deps.restMapper,
      metrics: this.metrics,
      log: this.log.child({ component: 'sharding-assigner' }),
      resyncPeriodMs: this.r.resyncPeriodMs,
      maxConcurrentMoves: this.r.maxConcurrentMoves,
      tokensPerShard: this.r.tokensPerShard,
      leaseDurationMs: this.r.leaseDurationMs,
      renewDeadlineMs: this.r.renewDeadlineMs,
    });
    this.assigner = assigner;
    try {
      await assigner.run(signal);
    } finally {
      this.assigner = undefined;
    }
  }

  /**
   * Holds this replica's shard Lease until `signal` aborts: `onHolding` once it is acquired and
   * the shard's objects are listed (takeOver), `onLost` if it is lost. On a clean stop the Lease
   * is released — the assigner then takes it over and moves the shard's objects at once — and
   * deleted unless someone took it meanwhile.
   */
  async hold(signal: AbortSignal, cb: HoldCallbacks): Promise<void> {
    let lost = false;
    let held = false;
    let leading = false;
    const lease = { namespace: this.namespace, name: this.leaseName };
    const identity = `${this.shardName}_${randomUUID()}`;
    this.elector = new LeaderElector({
      kubeConfig: this.deps.kubeConfig,
      lease: { ...lease, labels: { [RING_LABEL]: this.ring, [SHARD_NAME_LABEL]: this.shardName } },
      // One identity per process: a second process given the same shard name waits for the Lease.
      identity,
      leaseDurationMs: this.r.leaseDurationMs,
      renewDeadlineMs: this.r.renewDeadlineMs,
      retryPeriodMs: this.r.retryPeriodMs,
      releaseOnCancel: true,
      metrics: this.deps.requestMetrics,
      logger: this.deps.logger,
      callbacks: {
        onStartedLeading: () => {
          held = true;
          leading = true;
          void this.takeOver(signal, () => leading).then((ready) => {
            if (!ready || !leading || signal.aborted) return;
            this.holding = true;
            this.log.info(
              { lease: `${this.namespace}/${this.leaseName}` },
              'holding the shard lease; reconciling this shard',
            );
            cb.onHolding();
            this.drainer.resume();
          });
        },
        onStoppedLeading: () => {
          const was = leading;
          leading = false;
          this.holding = false;
          if (was && !signal.aborted) {
            lost = true;
            cb.onLost(`lost the shard lease ${this.namespace}/${this.leaseName}`);
          }
        },
      },
    });
    await this.elector.run(signal);
    this.drainer.stop();
    // A process that never held the Lease leaves it to the one that does.
    if (lost || !held) return;
    await this.deleteReleasedLease(lease, identity);
  }

  /**
   * Lists each reconciled kind's objects on this shard from the API server, now that the Lease
   * is held, and sets the drainer's fences from them (fence.ts): moves the assigner made before
   * the take-over are in the list even where the cache has not shown them yet. Retried until it
   * succeeds, the Lease is lost (`leading` turns false) or `signal` aborts; true once done.
   */
  private async takeOver(signal: AbortSignal, leading: () => boolean): Promise<boolean> {
    const selector = `${this.shardKey}=${this.shardName}`;
    while (leading() && !signal.aborted) {
      try {
        for (const { gvk } of this.kinds.reconciled()) {
          const keys = new Set<string>();
          let resourceVersion = '';
          let token: string | undefined;
          do {
            const namespace = this.deps.cache.scopeOf(gvk).namespace || undefined;
            const page = await this.deps.client
              .apiReader()
              .list(gvk, { namespace, labelSelector: selector, limit: 500, continue: token, signal });
            // Every page of a list is read at its first page's version.
            resourceVersion ||= page.metadata.resourceVersion ?? '';
            for (const obj of page.items)
              if (obj.metadata?.labels?.[this.drainKey] === undefined) keys.add(objectKeyString(obj));
            token = page.metadata.continue || undefined;
          } while (token);
          this.drainer.setFence(gvk, takeoverFence(resourceVersion, keys));
        }
        return true;
      } catch (err) {
        if (signal.aborted || !leading()) break;
        this.log.warn({ err }, 'listing the shard after taking its lease failed; trying again');
        await sleep(realClock, this.r.retryPeriodMs, signal);
      }
    }
    return false;
  }

  /**
   * Deletes the Lease this process released on a clean stop (or failed to release), so that no
   * released Lease stays in the ring for the assigner to delete on a later pass. Nothing relies
   * on the delete: the ring view counts a released Lease as gone already, and the assigner moves
   * the shard's objects only after taking the shard's Lease itself, creating it if it is missing
   * (reaper.ts). A delete that fails is left to the assigner.
   *
   * A Lease someone else holds by now is left alone. After the release the assigner may have
   * taken it, to hold while it moves this shard's objects away: deleting it would free the Lease
   * while moves are still being sent (the assigner learns of it on its next pass only), and a
   * process of this shard name could then create it and reconcile objects their new shard
   * reconciles too — the race the assigner's hold exists to close. Or another process given this
   * shard name, which waited for the release, may have taken it: that one reconciles the shard
   * now, and the Lease is its own. The delete is conditional on the version read, so a take-over
   * between the read and the delete makes it fail with a conflict instead; the assigner, for its
   * part, reads again when this delete lands between its read and its write (ShardReaper.take).
   */
  private async deleteReleasedLease(lease: { namespace: string; name: string }, identity: string): Promise<void> {
    const ref = { apiVersion: apiVersionOf(LEASE_GVK), kind: LEASE_GVK.kind, metadata: lease };
    try {
      const current = await this.deps.client.get<KubeObject & { spec?: { holderIdentity?: string } }>(LEASE_GVK, lease);
      const holder = current.spec?.holderIdentity ?? '';
      if (holder !== '' && holder !== identity) return;
      await this.deps.client.delete(ref, {
        preconditions: { resourceVersion: current.metadata?.resourceVersion ?? '' },
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err))
        this.log.warn({ err }, 'deleting the shard lease failed (the assigner deletes it later)');
    }
  }

  /** True while this replica holds its shard Lease but has not renewed it within the deadline (see LeaderElector.leaseExpired). */
  leaseExpired(): boolean {
    return this.elector?.leaseExpired() ?? false;
  }

  isHolding(): boolean {
    return this.holding;
  }

  debugInfo(): RingDebugInfo {
    const live = [...this.view.live()];
    const key = live.join(',');
    if (this.shares?.key !== key) this.shares = { key, shares: new HashRing(live, this.r.tokensPerShard).shares() };
    const shares = this.shares.shares;
    const drains = new Map(this.drainer.stats().map((s) => [s.kind, s]));
    return {
      ring: this.ring,
      namespace: this.namespace,
      shard: this.shardName,
      holding: this.holding,
      shards: this.view.members().map((m) => ({
        ...m,
        self: m.shard === this.shardName,
        ...(m.live ? { share: round(shares.get(m.shard) ?? 0) } : {}),
      })),
      kinds: this.kinds.all().map((k) => {
        const kind = kindLabel(k.gvk);
        const d = drains.get(kind);
        return {
          kind,
          role: k.role,
          objects: this.cached(k.gvk),
          ...(d ? { draining: d.draining, inFlight: d.inFlight } : {}),
        };
      }),
      ...(this.assigner ? { assigner: this.assigner.debugInfo() } : {}),
    };
  }

  private cached(gvk: GroupVersionKind): number {
    return this.deps.cache.has(gvk) ? this.deps.cache.informerFor(gvk).store.size : 0;
  }
}

function kindLabel(gvk: GroupVersionKind): string {
  return `${apiVersionOf(gvk)}/${gvk.kind}`;
}

function pick(labels: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => labels[k] !== undefined).map((k) => [k, labels[k]!]));
}

function round(share: number): number {
  return Math.round(share * 1000) / 1000;
}

/**
 * What main.ts passes to createManager (`shardingEngine`) so that `sharding`, or `--sharding=<ring>`,
 * shards its controllers: the manager makes one Sharding with it.
 */
export const shardingEngine: ShardingEngineFactory = (options, deps) => new Sharding(options, deps);
