/**
 * The controller builder, read as a sentence:
 *
 *   controllerFor(mgr, { apiVersion: 'demo.tsop.dev/v1', kind: 'Widget' })
 *     .owns({ apiVersion: 'apps/v1', kind: 'Deployment' })
 *     .watches({ apiVersion: 'v1', kind: 'ConfigMap' }, (cm) => [...requests])
 *     .withEventFilter(generationChanged())
 *     .withOptions({ maxConcurrentReconciles: 4 })
 *     .complete(reconciler);
 *
 * Every chained call only records; `complete` validates everything at once (throwing one
 * BuilderError that lists each problem), builds the Controller, asks the cache for the
 * informers (so caches warm up before leadership), and adds the controller to the manager.
 */

import {
  apiVersionOf,
  gvkFromApiVersion,
  metadataOnly,
  type GroupVersionKind,
  type ClientObject,
  type KubeObject,
} from '../apimachinery/model.js';
import type { KindRef } from '../client/index.js';
import { Controller, kindSource, type ReconcileGate, type Source } from '../controller/index.js';
import { enqueueForObject, enqueueForOwner, enqueueFromMapFunc, type Handler, type MapFunc } from '../handler/index.js';
import type { Manager } from '../manager/index.js';
import { controllerDebugFor } from '../manager/index.js';
import type { Predicate } from '../predicate/index.js';
import type { RateLimiter } from '../queue/index.js';
import type { Reconciler } from '../reconcile/index.js';

export interface BuilderOptions {
  /** Workers reconciling distinct keys in parallel (default 1). */
  maxConcurrentReconciles?: number;
  rateLimiter?: RateLimiter;
  /** How long the controller waits for its informers to sync (default 2 min). */
  cacheSyncTimeoutMs?: number;
  /** Aborts each reconcile's ctx.signal after this long; counted in controller_runtime_reconcile_timeouts_total. */
  reconciliationTimeoutMs?: number;
  /**
   * With a sharded manager (its `sharding` option): true (default) reconciles on every replica,
   * each only the objects of its shard; false runs this controller once, on the elected leader,
   * for work that must not be split. Ignored without sharding.
   */
  sharded?: boolean;
}

/** A filter on any kind's objects: `predicateFuncs<V1Pod>(…)` and the stock predicates alike. */
type AnyPredicate = Predicate<ClientObject>;

export interface WatchOptions {
  /** Filters for this watch only, applied after the global event filters. */
  predicates?: AnyPredicate[];
  /**
   * Watch and cache this kind's metadata only (controller-runtime's OnlyMetadata): handlers and
   * cache reads of `metadataOnly(kind)` get PartialObjectMetadata, at a fraction of the memory.
   */
  metadataOnly?: boolean;
}

export interface OwnsOptions extends WatchOptions {
  /** Follow every owner reference of the For kind, not just the controller one (default false). */
  matchEveryOwner?: boolean;
}

/** complete() found problems; `problems` lists every one. */
export class BuilderError extends Error {
  override readonly name = 'BuilderError';
  constructor(readonly problems: string[]) {
    super(`invalid controller: ${problems.join('; ')}`);
  }
}

type WatchSpec =
  | { type: 'owns'; kind: KindRef; opts: OwnsOptions }
  | { type: 'watches'; kind: KindRef; handler: Handler | MapFunc; opts: WatchOptions };

interface RawWatch {
  source: Source;
  handler: Handler | MapFunc;
  opts: WatchOptions;
}

/** Controller names already taken, per manager (controller-runtime requires unique names). */
const namesByManager = new WeakMap<Manager, Set<string>>();

export class Builder {
  private name: string | undefined;
  private readonly watchSpecs: WatchSpec[] = [];
  private readonly rawWatches: RawWatch[] = [];
  private readonly globalPredicates: AnyPredicate[] = [];
  private readonly forPredicates: AnyPredicate[];
  private options: BuilderOptions = {};

  constructor(
    private readonly mgr: Manager,
    private readonly forKind: KindRef,
    forPredicates: AnyPredicate[],
  ) {
    this.forPredicates = forPredicates;
  }

  /** The controller's name: the `controller` label on metrics and logs (default: kind, lower-cased). */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /** Reconciles the controller owner (of the For kind) when an object of `kind` changes. */
  owns(kind: KindRef, opts: OwnsOptions = {}): this {
    this.watchSpecs.push({ type: 'owns', kind, opts });
    return this;
  }

  /** Reconciles the requests `mapFn` (or a Handler) derives from each event on `kind`. */
  watches<T extends ClientObject = KubeObject>(
    kind: KindRef,
    mapFn: MapFunc<T> | Handler<T>,
    opts: WatchOptions = {},
  ): this {
    // The source delivers objects of the watched kind, which the caller typed as T.
    this.watchSpecs.push({ type: 'watches', kind, handler: mapFn as unknown as MapFunc | Handler, opts });
    return this;
  }

  /** Reconciles what `mapFn` (or a Handler) derives from a non-informer source, e.g. a ChannelSource. */
  watchesRawSource<T extends ClientObject = KubeObject>(
    source: Source,
    mapFn: MapFunc<T> | Handler<T>,
    opts: WatchOptions = {},
  ): this {
    this.rawWatches.push({ source, handler: mapFn as unknown as MapFunc | Handler, opts });
    return this;
  }

  /** Filters applied to every watch of this controller. */
  withEventFilter(p: AnyPredicate): this {
    this.globalPredicates.push(p);
    return this;
  }

  withOptions(opts: BuilderOptions): this {
    this.options = { ...this.options, ...opts };
    return this;
  }

  /** Validates, builds and registers the controller; throws BuilderError on any problem. */
  complete(reconciler: Reconciler): Controller {
    const problems: string[] = [];
    const forGvk = parseKind(this.forKind, 'For', problems);
    const watchGvks = this.watchSpecs.map((w, i) => {
      const gvk = parseKind(w.kind, `${w.type}[${i}]`, problems);
      return gvk && w.opts.metadataOnly ? metadataOnly(gvk) : gvk;
    });
    const name = this.name ?? forGvk?.kind.toLowerCase() ?? '';
    if (!/^[a-zA-Z0-9_.-]+$/.test(name))
      problems.push(`name "${name}" must be non-empty and use only letters, digits, '_', '.', '-'`);
    const taken = namesByManager.get(this.mgr) ?? new Set<string>();
    if (taken.has(name)) problems.push(`a controller named "${name}" already exists; use named() to pick another`);
    const workers = this.options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(workers) || workers < 1)
      problems.push(`maxConcurrentReconciles must be a positive integer, got ${workers}`);
    const timeout = this.options.reconciliationTimeoutMs;
    if (timeout !== undefined && !(timeout > 0)) problems.push(`reconciliationTimeoutMs must be > 0, got ${timeout}`);
    if (typeof reconciler?.reconcile !== 'function')
      problems.push('reconciler must have a reconcile(request, ctx) method');
    if (problems.length > 0 || !forGvk) throw new BuilderError(problems);
    const gvks = [forGvk, ...(watchGvks as GroupVersionKind[])];
    const shard = this.shard(name, forGvk, watchGvks as GroupVersionKind[], gvks);
    if (shard.problems.length > 0) throw new BuilderError(shard.problems);

    taken.add(name);
    namesByManager.set(this.mgr, taken);
    const controller = new Controller({
      name,
      reconciler,
      maxConcurrentReconciles: workers,
      rateLimiter: this.options.rateLimiter,
      cacheSyncTimeoutMs: this.options.cacheSyncTimeoutMs,
      reconciliationTimeoutMs: this.options.reconciliationTimeoutMs,
      gate: shard.gate,
      metrics: this.mgr.metrics,
      // controller-runtime's extra fields: which kind this controller reconciles.
      logger: this.mgr.logger.child({ controllerGroup: forGvk.group, controllerKind: forGvk.kind }),
    });
    // /debug/controllers reports on it (recording starts only if the manager turned it on).
    controllerDebugFor(this.mgr).register(controller);
    // The manager's kind registry learns every kind its controllers work with (AddToScheme's role).
    for (const gvk of gvks) this.mgr.kinds.add(gvk);
    // Request informers now so the cache starts them with the manager, before leadership.
    for (const gvk of gvks) this.mgr.cache.informerFor(gvk);
    this.mgr.add({
      // A sharded controller runs on every replica while it holds its shard; others on the leader.
      needLeaderElection: !shard.sharded,
      needShardLease: shard.sharded,
      start: async (signal: AbortSignal) => {
        await this.registerWatches(controller, forGvk, watchGvks as GroupVersionKind[]);
        await controller.start(signal);
      },
    });
    return controller;
  }

  /** With a sharded manager: shards this controller (its kinds cached per shard, its reconciles gated), or checks that it may run unsharded. */
  private shard(
    name: string,
    forGvk: GroupVersionKind,
    watchGvks: GroupVersionKind[],
    gvks: GroupVersionKind[],
  ): { sharded: boolean; problems: string[]; gate?: ReconcileGate } {
    const sharding = this.mgr.sharding;
    if (!sharding) return { sharded: false, problems: [] };
    if (this.options.sharded === false) return { sharded: false, problems: sharding.unshardedController(name, gvks) };
    const owned = this.watchSpecs.flatMap((w, i) => (w.type === 'owns' ? [watchGvks[i]!] : []));
    const { problems, gate } = sharding.shardController(name, forGvk, owned);
    return { sharded: true, problems, gate };
  }

  /** Wires every watch; the For kind's scope decides whether owner requests carry a namespace. */
  private async registerWatches(c: Controller, forGvk: GroupVersionKind, watchGvks: GroupVersionKind[]): Promise<void> {
    const cache = this.mgr.cache;
    const global = this.globalPredicates;
    c.watchAs(
      { watch: 'for', kind: kindLabel(forGvk) },
      kindSource(cache, forGvk),
      enqueueForObject(),
      ...global,
      ...this.forPredicates,
    );
    const ownerNamespaced = (await this.mgr.restMapper.mapping(forGvk)).namespaced;
    const owner = { apiVersion: apiVersionOf(forGvk), kind: forGvk.kind };
    this.watchSpecs.forEach((w, i) => {
      const gvk = watchGvks[i]!;
      const handler =
        w.type === 'owns'
          ? enqueueForOwner(owner, { onlyControllerOwner: !w.opts.matchEveryOwner, ownerNamespaced })
          : asHandler(w.handler);
      const label = { watch: w.type, kind: kindLabel(gvk) } as const;
      c.watchAs(label, kindSource(cache, gvk), handler, ...global, ...(w.opts.predicates ?? []));
    });
    for (const w of this.rawWatches) c.watch(w.source, asHandler(w.handler), ...global, ...(w.opts.predicates ?? []));
  }
}

/** 'apps/v1/Deployment', 'v1/ConfigMap': how triggers name a watched kind. */
function kindLabel(gvk: GroupVersionKind): string {
  return `${apiVersionOf(gvk)}/${gvk.kind}`;
}

function asHandler(h: Handler | MapFunc): Handler {
  return typeof h === 'function' ? enqueueFromMapFunc(h) : h;
}

/** Parses a KindRef, recording a problem instead of throwing. */
function parseKind(kind: KindRef, where: string, problems: string[]): GroupVersionKind | undefined {
  try {
    const gvk = 'apiVersion' in kind ? gvkFromApiVersion(kind.apiVersion, kind.kind) : kind;
    if (!gvk.kind || !gvk.version) throw new Error('kind and version are required');
    return gvk;
  } catch (err) {
    problems.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** Starts a controller for `kind`: `controllerFor(mgr, kind).owns(...).complete(reconciler)`. */
export function controllerFor(mgr: Manager, kind: KindRef, ...predicates: AnyPredicate[]): Builder {
  return new Builder(mgr, kind, predicates);
}
