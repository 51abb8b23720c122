/**
 * The assigner runs on the elected leader only: one writer of assignments, no coordination
 * between replicas beyond the leader Lease, and nothing in front of the API server's write path
 * (a webhook would be one more thing that must be up for any object to be created). It
 *
 * - labels new objects at once, through this replica's NewObjectLabeller (labeller.ts), which
 *   labels every unlabelled object while the assigner runs (and only its own shard's share, a
 *   second later, otherwise);
 * - passes over every sharded object when the ring changes (a shard joined, left or expired),
 *   some seconds after a pass that asked for drains, and every resync period: it lists them from
 *   the API server, takes the Lease of every gone shard that objects still name (reaper.ts),
 *   plans the moves (plan.ts) and writes them, each conditional on the version it listed; owned
 *   objects' moves first, then their owners'; then gives up the Leases of gone shards it emptied;
 * - deletes the Leases of shards that are gone.
 *
 * Objects the operator creates itself carry their shard already (the manager's client labels
 * objects owned by an object of this shard); the assigner only catches the rest.
 */
import { apiVersionOf, type GroupVersionKind, type KubeObject } from '../apimachinery/model.js';
import type { Cache } from '../cache/index.js';
import { isConflict, isNotFound, mergePatch, type Client } from '../client/index.js';
import type { Logger } from '../log/index.js';
import { realClock, type TimerHandle } from '../queue/index.js';
import type { RESTMapper } from '../restmapper/index.js';
import { HashRing } from './hash-ring.js';
import { followedOwner, groupKind, ownKey } from './keys.js';
import type { ShardedKinds } from './kinds.js';
import type { NewObjectLabeller } from './labeller.js';
import { Limiter } from './limiter.js';
import type { ShardingMetrics } from './metrics.js';
import { drainLabel, SHARDING_FIELD_MANAGER, shardLabel } from './names.js';
import {
  goneShards,
  movePatch,
  planPass,
  type MainObject,
  type Move,
  type ObjectState,
  type OwnedObject,
  type Planned,
} from './plan.js';
import { ShardReaper } from './reaper.js';
import { LEASE_GVK, type RingView } from './ring-view.js';

/** A burst of ring changes (replicas starting together) is one pass. */
const RING_CHANGE_DELAY_MS = 300;
/** A pass that left drains pending looks again after this, doubling while nothing else changes. */
const FOLLOW_UP_MS = 2_000;
const PAGE_SIZE = 500;

export interface AssignerOptions {
  ring: string;
  namespace: string;
  view: RingView;
  kinds: ShardedKinds;
  /** Labels new objects; told to label every one of them at once while the assigner runs. */
  labeller: NewObjectLabeller;
  /** The manager's client: writes are fenced with the leader lease. */
  client: Client;
  cache: Cache;
  mapper: RESTMapper;
  metrics: ShardingMetrics;
  log: Logger;
  resyncPeriodMs: number;
  maxConcurrentMoves: number;
  tokensPerShard?: number;
  /** The ring's Lease timing, with which the assigner holds the Leases of gone shards. */
  leaseDurationMs: number;
  renewDeadlineMs: number;
}

/** What /debug/controllers shows of the assigner (on the leader). */
export interface AssignerDebugInfo {
  passes: number;
  lastPassAt?: string;
  lastPassMs?: number;
  /** Label writes of the last pass, by kind of move (drain: asked, not yet acknowledged). */
  lastPassMoves: Partial<Record<Move['mode'], number>>;
  /** Objects the last pass saw waiting for their shard to acknowledge a drain. */
  drainsPending: number;
  /** Gone shards whose Lease the assigner holds while it moves their objects. */
  reaping: string[];
  /** New objects waiting to be labelled. */
  unassigned: number;
}

export class Assigner {
  private hashRing = new HashRing([]);
  private readonly limiter: Limiter;
  private readonly reaper: ShardReaper;
  private passing: Promise<void> | undefined;
  private signal: AbortSignal | undefined;
  private timer: TimerHandle | undefined;
  private nextAt = Infinity;
  private running = false;
  private again = false;
  private followUps = 0;
  private readonly info: AssignerDebugInfo = {
    passes: 0,
    lastPassMoves: {},
    drainsPending: 0,
    unassigned: 0,
    reaping: [],
  };

  constructor(private readonly o: AssignerOptions) {
    this.limiter = new Limiter(o.maxConcurrentMoves);
    this.reaper = new ShardReaper({
      ring: o.ring,
      namespace: o.namespace,
      client: o.client,
      view: o.view,
      leaseDurationMs: o.leaseDurationMs,
      renewDeadlineMs: o.renewDeadlineMs,
      log: o.log,
    });
  }

  debugInfo(): AssignerDebugInfo {
    return {
      ...this.info,
      unassigned: this.o.labeller.unassigned(),
      reaping: this.reaper.shards(),
    };
  }

  /** Assigns until `signal` aborts (the manager stops, or this replica stops leading). */
  async run(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    if (!(await this.o.view.waitForSync(signal))) return;
    this.hashRing = new HashRing(this.o.view.live(), this.o.tokensPerShard);
    const offChange = this.o.view.onChange(() => {
      this.hashRing = new HashRing(this.o.view.live(), this.o.tokensPerShard);
      this.followUps = 0;
      this.schedule(RING_CHANGE_DELAY_MS);
    });
    // An object another replica labelled may sit where this ring does not want it: a pass looks.
    this.o.labeller.lead(signal, () => this.schedule(FOLLOW_UP_MS));
    this.schedule(0);
    await new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    offChange();
    if (this.timer) realClock.clearTimeout(this.timer);
    // Once the last pass's writes are answered, the gone shards' Leases go: a shard may take them.
    await this.passing;
    for (const shard of this.reaper.shards()) await this.reaper.giveUp(shard);
  }

  /** Runs a pass `delayMs` from now, unless one is due sooner. */
  private schedule(delayMs: number): void {
    const at = realClock.now() + delayMs;
    if (this.signal?.aborted || at >= this.nextAt) return;
    if (this.timer) realClock.clearTimeout(this.timer);
    this.nextAt = at;
    this.timer = realClock.setTimeout(() => {
      this.timer = undefined;
      this.nextAt = Infinity;
      void this.pass();
    }, delayMs);
  }

  private async pass(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    let finished = (): void => undefined;
    this.passing = new Promise<void>((resolve) => (finished = resolve));
    const started = realClock.now();
    let next = this.o.resyncPeriodMs;
    try {
      const outcome = await this.passOnce();
      if (outcome.unsettled) next = Math.min(next, FOLLOW_UP_MS * 2 ** Math.min(this.followUps++, 6));
      else this.followUps = 0;
    } catch (err) {
      if (!this.signal?.aborted) this.o.log.warn({ err }, 'assigner pass failed; trying again');
      next = FOLLOW_UP_MS;
    } finally {
      this.running = false;
      this.info.lastPassMs = Math.round(realClock.now() - started);
      finished();
    }
    if (this.again) {
      this.again = false;
      next = 0;
    }
    this.schedule(next);
  }

  /** Lists, plans and writes; `unsettled` when drains are pending or writes must be retried. */
  private async passOnce(): Promise<{ unsettled: boolean }> {
    const live = this.o.view.live();
    this.o.metrics.passes.inc({ ring: this.o.ring });
    this.info.passes++;
    this.info.lastPassAt = new Date().toISOString();
    await this.deleteStaleLeases();
    if (live.size === 0) {
      // Nowhere to move anything: a gone shard may come back to its objects.
      for (const shard of this.reaper.shards()) await this.reaper.giveUp(shard);
      this.info.lastPassMoves = {};
      return { unsettled: false };
    }
    const ring = this.hashRing;
    const mainKinds = await this.o.kinds.mainKinds(this.o.mapper);
    const main: MainObject[] = [];
    for (const k of this.o.kinds.reconciled()) {
      for await (const obj of this.listAll(k.gvk))
        main.push({ ...stateOf(k.gvk, obj, this.o.ring), hashKey: ownKey(obj) });
    }
    const owned: OwnedObject[] = [];
    for (const k of this.o.kinds.owned()) {
      for await (const obj of this.listAll(k.gvk)) {
        const owner = followedOwner(obj, mainKinds);
        if (owner)
          owned.push({
            ...stateOf(k.gvk, obj, this.o.ring),
            owner: { groupKind: owner.groupKind, uid: owner.uid, key: owner.key },
          });
      }
    }
    // A gone shard's objects move only while the assigner holds its Lease (reaper.ts).
    const gone = goneShards(main, live);
    const reaped = new Set<string>();
    for (const shard of gone) if (await this.reaper.take(shard, this.signal)) reaped.add(shard);
    const plan = planPass({ shardFor: (key) => ring.shardFor(key), live, reaped, main, owned });
    const moves: Partial<Record<Move['mode'], number>> = {};
    for (const p of [...plan.owned, ...plan.main]) moves[p.move.mode] = (moves[p.move.mode] ?? 0) + 1;
    this.info.lastPassMoves = moves;
    if (plan.owned.length + plan.main.length > 0)
      this.o.log.info({ moves, shards: [...live], reaped: [...reaped] }, 'assigner: moving objects');
    let retry = gone.length > reaped.size;
    const left = new Map<string, number>(gone.map((shard) => [shard, main.filter((m) => m.shard === shard).length]));
    for (const phase of [plan.owned, plan.main]) {
      const results = await Promise.all(phase.map((p: Planned) => this.limiter.run(() => this.write(p))));
      retry ||= results.some(Boolean);
      phase.forEach((p, i) => {
        if (p.move.mode === 'reassign' && !results[i]) left.set(p.move.from, (left.get(p.move.from) ?? 1) - 1);
      });
    }
    // Every write is answered: a gone shard with nothing left on it may be taken again.
    for (const shard of this.reaper.shards()) if ((left.get(shard) ?? 0) === 0) await this.reaper.giveUp(shard);
    // Drains asked now or earlier and not acknowledged yet.
    const planned = new Map<ObjectState, Move>(plan.main.map((p) => [p.obj, p.move]));
    const pending = main.filter((m) => {
      const move = planned.get(m);
      return move
        ? move.mode === 'drain'
        : m.drain !== undefined && m.shard !== undefined && live.has(m.shard) && m.drain !== m.shard;
    }).length;
    this.info.drainsPending = pending;
    return { unsettled: retry || pending > 0 };
  }

  /** Writes one move; true when it should be tried again (a conflict or a failure). */
  private async write({ obj, move }: Planned): Promise<boolean> {
    if (this.signal?.aborted) return false;
    // Past the renew deadline of the gone shard's Lease: the next pass renews it first.
    if (move.mode === 'reassign' && !this.reaper.holds(move.from)) return true;
    try {
      await this.o.client.patch(ref(obj), mergePatch(movePatch(this.o.ring, move, obj.resourceVersion)), {
        fieldManager: SHARDING_FIELD_MANAGER,
      });
    } catch (err) {
      if (isNotFound(err)) return false;
      if (!isConflict(err) && !this.signal?.aborted)
        this.o.log.warn({ err, object: ownKey(ref(obj)), move }, 'assigner: label write failed');
      return true;
    }
    if (move.mode === 'assign' || move.mode === 'reassign' || move.mode === 'follow') {
      const from = move.mode === 'assign' ? '' : (move.from ?? '');
      this.o.metrics.moves.inc({ ring: this.o.ring, kind: groupKind(obj.gvk), mode: move.mode, from, to: move.to });
    }
    return false;
  }

  private async *listAll(gvk: GroupVersionKind): AsyncGenerator<KubeObject> {
    const namespace = this.o.cache.scopeOf(gvk).namespace || undefined;
    let token: string | undefined;
    do {
      const page = await this.o.client
        .apiReader()
        .list<KubeObject>(gvk, { namespace, limit: PAGE_SIZE, continue: token, signal: this.signal });
      yield* page.items;
      token = page.metadata.continue || undefined;
    } while (token);
  }

  /** Leases of shards that are gone; each deleted only if unchanged since it was seen. */
  private async deleteStaleLeases(): Promise<void> {
    for (const l of this.o.view.stale()) {
      const lease = {
        apiVersion: apiVersionOf(LEASE_GVK),
        kind: LEASE_GVK.kind,
        metadata: { name: l.lease, namespace: this.o.namespace },
      };
      await this.o.client
        .delete(lease, {
          preconditions: l.resourceVersion ? { resourceVersion: l.resourceVersion } : undefined,
          signal: this.signal,
        })
        .catch((err: unknown) => {
          if (!isNotFound(err) && !isConflict(err))
            this.o.log.warn({ err, lease: l.lease }, 'assigner: deleting a stale shard lease failed');
        });
    }
  }
}

function stateOf(gvk: GroupVersionKind, obj: KubeObject, ring: string): ObjectState {
  const m = obj.metadata ?? {};
  const labels = m.labels ?? {};
  return {
    gvk,
    namespace: m.namespace,
    name: m.name ?? '',
    uid: m.uid,
    resourceVersion: m.resourceVersion,
    shard: labels[shardLabel(ring)],
    drain: labels[drainLabel(ring)],
  };
}

function ref(obj: ObjectState): KubeObject {
  return {
    apiVersion: apiVersionOf(obj.gvk),
    kind: obj.gvk.kind,
    metadata: obj.namespace ? { name: obj.name, namespace: obj.namespace } : { name: obj.name },
  };
}
