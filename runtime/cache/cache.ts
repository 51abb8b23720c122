/**
 * The shared cache: one informer per GroupVersionKind, shared by every controller and by the
 * client's reads. Scope (namespace, selectors) is decided per kind when the cache is built —
 * a `byObject` entry inherits whatever it leaves unset from `defaultScope`, as
 * controller-runtime's ByObject does — so a kind always has exactly one informer. Reads return
 * deep copies, so a reconciler that mutates what it read cannot corrupt the cache; a read the
 * cache cannot answer (not synced yet, outside its namespace) throws instead of answering
 * NotFound. A get filtered out by a kind's label or field selector answers NotFound, as in
 * controller-runtime, unless `selectorMisses: 'error'` asks for a CacheScopeError.
 * Reads of an object this process just wrote wait (briefly) until the informer has seen that
 * write, so a reconcile that runs right after its own write does not act on the version before.
 */
import type { ClientObject } from '../apimachinery/model.js';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import {
  deepCopy,
  gvkString,
  isMetadataOnly,
  keyString,
  linkSignals,
  objectKey,
  onAbort,
  type GroupVersionKind,
  type KubeObject,
  type ObjectKey,
} from '../apimachinery/model.js';
import type { ApiConnection, RequestMetrics } from '../rest/index.js';
import { RESTMapper } from '../restmapper/index.js';
import { realClock, type Clock } from '../queue/index.js';
import { CacheNotStartedError, CacheScopeError, kindName, NoInformerError, type UnsyncedKind } from './errors.js';
import { Informer, type InformerScope, type Transform, type WatchErrorInfo } from './informer.js';
import { matchesLabels, parseLabelSelector } from './selector.js';
import { NAMESPACE_INDEX, type IndexFunc } from './store.js';

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  /** objects whose field index `index` holds `value` (see `indexField`) */
  field?: { index: string; value: string };
}

/** What client/ reads through. */
export interface CacheReader {
  /** true when an informer for gvk exists */
  has(gvk: GroupVersionKind): boolean;
  get<T extends ClientObject = KubeObject>(gvk: GroupVersionKind, key: ObjectKey): T | undefined;
  list<T extends ClientObject = KubeObject>(gvk: GroupVersionKind, opts?: ListOptions): T[];
  /**
   * Resolves once gvk's informer has synced — and, with `key`, once it has seen this process's
   * last write of that object (bounded); rejects with CacheNotStartedError if it cannot sync.
   */
  waitForKind?(gvk: GroupVersionKind, signal?: AbortSignal, key?: ObjectKey): Promise<void>;
  /** Tells the cache an object was written with this answer, so reads of it wait for the echo. */
  observeWrite?(gvk: GroupVersionKind, written: KubeObject): void;
}

/** What sets a metadata-only informer's id apart from the whole-object informer of its kind. */
const METADATA_ONLY = '#metadata';

/**
 * The informer a kind is read through: one for whole objects and, apart from it, one for
 * metadata only (a kind made with metadataOnly), as controller-runtime keeps them apart.
 */
function informerId(gvk: GroupVersionKind): string {
  return isMetadataOnly(gvk) ? gvkString(gvk) + METADATA_ONLY : gvkString(gvk);
}

/** How long a read waits for the informer to deliver this process's own write. */
const OWN_WRITE_WAIT_MS = 2_000;

interface PendingWrite {
  resourceVersion: string;
  waiters: Array<() => void>;
}

/**
 * One kind's informer scope. Fields left unset inherit `defaultScope`'s; `namespace: ''` asks
 * for every namespace even when the default names one (controller-runtime's AllNamespaces).
 */
export interface ByObject extends InformerScope {
  gvk: GroupVersionKind;
  transform?: Transform | null;
}

export interface CacheOptions {
  kubeConfig: KubeConfigSource;
  /** the HTTP connection every informer lists and watches through; default: the KubeConfig's shared one */
  connection?: ApiConnection;
  /** list with watch-list streams where the server supports them (default true) */
  watchList?: boolean;
  /**
   * Watch built-in kinds in protobuf (default true), as client-go's ContentType: the API server
   * encodes it at less than half the CPU of JSON; custom resources are always JSON, and
   * metadata-only watches read PartialObjectMetadata in protobuf for every kind. false: JSON for all.
   */
  protobuf?: boolean;
  /**
   * A watch with neither an event nor a bookmark for this long is re-opened from its last
   * resourceVersion, its connection taken for dead (default 150 s; the API server sends a
   * watch's first bookmark about 2 min after it opens, then one a minute). 0 turns it off.
   */
  watchSilenceMs?: number;
  mapper?: RESTMapper;
  /** scope for every kind without a `byObject` entry */
  defaultScope?: InformerScope;
  byObject?: ByObject[];
  resyncPeriodMs?: number;
  transform?: Transform | null;
  pageSize?: number;
  clock?: Clock;
  /** return stored objects themselves instead of copies (faster; never mutate them) */
  unsafeDisableDeepCopy?: boolean;
  /**
   * A get of an object the cache does not hold, for a kind whose informer has a label or field
   * selector: the object may exist outside the selector. 'notFound' (default, as
   * controller-runtime) answers NotFound; 'error' throws a CacheScopeError that says so.
   */
  selectorMisses?: 'notFound' | 'error';
  onWatchError?: (info: WatchErrorInfo) => void;
  onHandlerError?: (err: unknown) => void;
  /** counts every informer's list and watch requests (rest_client_requests_total) */
  requestMetrics?: RequestMetrics;
  /**
   * Told every object each informer of whole objects across the cluster delivers (a metadata-only
   * or narrowed informer holds only part of its kind), after the cache holds it: the dev console's feed.
   */
  observer?: CacheObserver;
}

/** Watches what every informer of a cache delivers, as a handler on each would. */
export interface CacheObserver {
  observe(gvk: GroupVersionKind, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void;
  /** The informer's first list is in: `objects` is everything it holds. */
  synced(gvk: GroupVersionKind, objects: readonly KubeObject[]): void;
}

export class Cache implements CacheReader {
  private readonly informers = new Map<string, Informer>();
  private readonly runs: Array<Promise<void>> = [];
  private readonly mapper: RESTMapper;
  private signal: AbortSignal | undefined;
  /** `gvk|key` → the resourceVersion of our last write, until the informer delivers it */
  private readonly pending = new Map<string, PendingWrite>();
  /** Label selectors added per kind (`addLabelSelector`), ANDed with its configured scope. */
  private readonly addedSelectors = new Map<string, string[]>();

  constructor(private readonly opts: CacheOptions) {
    this.mapper = opts.mapper ?? new RESTMapper(opts.connection ?? opts.kubeConfig, { metrics: opts.requestMetrics });
  }

  /** The shared informer for `gvk`, created on first use (and started at once if the cache runs). */
  informerFor<T extends ClientObject = KubeObject>(gvk: GroupVersionKind): Informer<T> {
    const id = informerId(gvk);
    let informer = this.informers.get(id);
    if (!informer) {
      const o = this.opts;
      const byObject = o.byObject?.find((b) => gvkString(b.gvk) === gvkString(gvk));
      const scope = this.scopeOf(gvk);
      informer = new Informer({
        kubeConfig: o.kubeConfig,
        connection: o.connection,
        watchList: o.watchList,
        protobuf: o.protobuf,
        watchSilenceMs: o.watchSilenceMs,
        gvk,
        mapper: this.mapper,
        namespace: scope.namespace,
        labelSelector: scope.labelSelector,
        fieldSelector: scope.fieldSelector,
        transform: byObject?.transform !== undefined ? byObject.transform : o.transform,
        resyncPeriodMs: o.resyncPeriodMs,
        pageSize: o.pageSize,
        clock: o.clock,
        onWatchError: o.onWatchError,
        onHandlerError: o.onHandlerError,
        requestMetrics: o.requestMetrics,
      });
      this.informers.set(id, informer);
      // First handler: settles pending own writes before controllers hear of the event.
      informer.addEventHandler({
        onAdd: (o) => this.settle(id, o, false),
        onUpdate: (_, o) => this.settle(id, o, false),
        onDelete: (o) => this.settle(id, o, true),
      });
      if (o.observer && !isMetadataOnly(gvk) && isWhole(scope)) observe(informer, o.observer);
      if (this.signal && !this.signal.aborted) this.runs.push(informer.run(this.signal));
    }
    return informer as unknown as Informer<T>;
  }

  /**
   * What `gvk`'s informer holds (or will hold): its `byObject` entry, what that leaves unset taken
   * from `defaultScope`, and any selector added with `addLabelSelector`.
   */
  scopeOf(gvk: GroupVersionKind): InformerScope {
    const id = gvkString(gvk);
    const byObject = this.opts.byObject?.find((b) => gvkString(b.gvk) === id);
    const d = this.opts.defaultScope ?? {};
    const labelSelector = [byObject?.labelSelector ?? d.labelSelector, ...(this.addedSelectors.get(id) ?? [])]
      .filter(Boolean)
      .join(',');
    return {
      namespace: byObject?.namespace ?? d.namespace,
      labelSelector: labelSelector || undefined,
      fieldSelector: byObject?.fieldSelector ?? d.fieldSelector,
    };
  }

  /**
   * Narrows `gvk`'s informer to objects that also match `labelSelector` (sharding keeps a
   * replica's cache to its own share this way). Only before the informer exists: one already
   * listing cannot change what it watches, so that throws a CacheScopeError.
   */
  addLabelSelector(gvk: GroupVersionKind, labelSelector: string): void {
    const id = gvkString(gvk);
    if (this.informers.has(id) || this.informers.has(id + METADATA_ONLY)) {
      throw new CacheScopeError(
        gvk,
        `${kindName(gvk)} is already cached without the label selector "${labelSelector}": narrow it before anything watches or reads it`,
      );
    }
    parseLabelSelector(labelSelector);
    this.addedSelectors.set(id, [...(this.addedSelectors.get(id) ?? []), labelSelector]);
  }

  /**
   * Adds a field index to `gvk`'s informer; list with `field: { index: name, value }`. `extract`
   * must depend on the object alone: it is called again when the object leaves the index.
   */
  indexField<T extends ClientObject = KubeObject>(gvk: GroupVersionKind, name: string, extract: IndexFunc<T>): void {
    this.informerFor<T>(gvk).addIndex(name, extract);
  }

  /** Runs every informer, present and future, until `signal` aborts; resolves once all stopped. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.signal) throw new Error('cache already started');
    this.signal = signal;
    for (const informer of this.informers.values()) this.runs.push(informer.run(signal));
    if (!signal.aborted)
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    // informers added while stopping push to `runs` too; wait until the list stops growing
    for (let seen = 0; seen < this.runs.length; ) {
      const batch = this.runs.slice(seen);
      seen = this.runs.length;
      await Promise.all(batch);
    }
  }

  /** True once every informer created so far has synced; false if `signal` aborts first. */
  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  /** Every informer that has not synced yet, with the last reason (for CacheSyncTimeoutError). */
  unsynced(): UnsyncedKind[] {
    return [...this.informers.values()]
      .filter((i) => !i.hasSynced())
      .map((i) => ({ gvk: i.gvk, cause: i.syncFailure() }));
  }

  has(gvk: GroupVersionKind): boolean {
    return this.informers.has(informerId(gvk));
  }

  /**
   * Resolves once gvk's informer has stored its first list. Rejects with CacheNotStartedError
   * when the cache is not running, or when `signal` aborts or the cache stops first.
   */
  async waitForKind(gvk: GroupVersionKind, signal?: AbortSignal, key?: ObjectKey): Promise<void> {
    const informer = this.existing(gvk);
    if (informer.hasSynced()) return key ? this.waitForOwnWrite(informerId(gvk), keyString(key), signal) : undefined;
    if (!this.signal) throw new CacheNotStartedError(gvk, 'the cache is not started (start the manager first)');
    const gate = linkSignals(this.signal, signal);
    const synced = await informer.waitForSync(gate.signal);
    gate.dispose();
    if (synced) return key ? this.waitForOwnWrite(informerId(gvk), keyString(key), signal) : undefined;
    const why = this.signal.aborted ? 'the cache stopped' : 'the read was cancelled';
    throw new CacheNotStartedError(gvk, `${why} before its first list was stored`);
  }

  /** Throws CacheNotStartedError before the first list is stored, CacheScopeError outside the scope. */
  get<T extends ClientObject = KubeObject>(gvk: GroupVersionKind, key: ObjectKey): T | undefined {
    const informer = this.synced(gvk);
    const namespaced = informer.namespaced;
    if (namespaced && !key.namespace) {
      throw new CacheScopeError(gvk, `${kindName(gvk)} "${key.name}" is namespaced but no namespace was given`);
    }
    if (!namespaced && key.namespace) {
      throw new CacheScopeError(
        gvk,
        `${kindName(gvk)} is cluster-scoped but the key "${key.namespace}/${key.name}" names a namespace: leave it out`,
      );
    }
    if (namespaced) this.requireInScope(informer, key.namespace!, `"${key.namespace}/${key.name}"`);
    const obj = informer.store.get(keyString(key));
    if (obj === undefined && this.opts.selectorMisses === 'error') this.refuseSelectorMiss(informer, key);
    // The informer holds objects of gvk, which the caller typed as T.
    return obj === undefined ? undefined : this.copy(obj as unknown as T);
  }

  /** As `get`; a list of every namespace returns what the informer's scope holds. */
  list<T extends ClientObject = KubeObject>(gvk: GroupVersionKind, opts: ListOptions = {}): T[] {
    const informer = this.synced(gvk);
    if (opts.namespace && informer.namespaced === false) {
      throw new CacheScopeError(
        gvk,
        `${kindName(gvk)} is cluster-scoped but the list names namespace "${opts.namespace}": leave it out`,
      );
    }
    if (opts.namespace) this.requireInScope(informer, opts.namespace, `namespace "${opts.namespace}"`);
    const store = informer.store;
    let objs: KubeObject[];
    if (opts.field) objs = store.byIndex(opts.field.index, opts.field.value);
    else if (opts.namespace !== undefined) objs = store.byIndex(NAMESPACE_INDEX, opts.namespace);
    else objs = store.list();
    if (opts.field && opts.namespace !== undefined)
      objs = objs.filter((o) => (o.metadata?.namespace ?? '') === opts.namespace);
    if (opts.labelSelector) {
      const reqs = parseLabelSelector(opts.labelSelector);
      objs = objs.filter((o) => matchesLabels(reqs, o.metadata?.labels));
    }
    return objs.map((o) => this.copy(o as unknown as T));
  }

  /** Records a write this process made, when the informer will see it and does not yet hold it. */
  observeWrite(gvk: GroupVersionKind, written: KubeObject): void {
    const id = informerId(gvk);
    const informer = this.informers.get(id);
    const rv = written.metadata?.resourceVersion;
    if (!informer?.hasSynced() || !rv || !written.metadata?.name) return;
    if (!this.wouldSee(informer, written)) return;
    const key = keyString(objectKey(written));
    if (informer.store.get(key)?.metadata?.resourceVersion === rv) return;
    const id2 = `${id}|${key}`;
    const p = this.pending.get(id2);
    if (p) p.resourceVersion = rv;
    else this.pending.set(id2, { resourceVersion: rv, waiters: [] });
  }

  /** Whether the informer's scope admits `obj` (otherwise its write never comes back). */
  private wouldSee(informer: Informer, obj: KubeObject): boolean {
    const o = informer.scope;
    if (o.fieldSelector) return false;
    if (informer.scopeNamespace && obj.metadata?.namespace !== informer.scopeNamespace) return false;
    return !o.labelSelector || matchesLabels(parseLabelSelector(o.labelSelector), obj.metadata?.labels);
  }

  private settle(id: string, obj: KubeObject, deleted: boolean): void {
    if (this.pending.size === 0) return;
    const k = `${id}|${keyString(objectKey(obj))}`;
    const p = this.pending.get(k);
    if (!p || (!deleted && obj.metadata?.resourceVersion !== p.resourceVersion)) return;
    this.pending.delete(k);
    for (const w of p.waiters) w();
  }

  private async waitForOwnWrite(id: string, key: string, signal: AbortSignal | undefined): Promise<void> {
    const k = `${id}|${key}`;
    const p = this.pending.get(k);
    if (!p || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        realClock.clearTimeout(timer);
        stopWaiting?.();
        resolve();
      };
      // Bounded: an echo that never comes (a write the watch filters out) must not block reads.
      const timer = realClock.setTimeout(() => {
        if (this.pending.get(k) === p) this.pending.delete(k);
        done();
      }, OWN_WRITE_WAIT_MS);
      const stopWaiting = signal ? onAbort(signal, done) : undefined;
      p.waiters.push(done);
    });
  }

  private existing(gvk: GroupVersionKind): Informer {
    const informer = this.informers.get(informerId(gvk));
    if (!informer) throw new NoInformerError(gvk);
    return informer;
  }

  /** The informer, once it has stored its first list; a synchronous read cannot wait for it. */
  private synced(gvk: GroupVersionKind): Informer {
    const informer = this.existing(gvk);
    if (informer.hasSynced()) return informer;
    const why = this.signal
      ? (informer.syncFailure() ?? 'its first list is still in flight')
      : 'the cache is not started';
    throw new CacheNotStartedError(gvk, `not synced yet (${why}); wait with waitForKind() or read through the client`);
  }

  private requireInScope(informer: Informer, namespace: string, what: string): void {
    const only = informer.scopeNamespace;
    if (!only || only === namespace) return;
    throw new CacheScopeError(
      informer.gvk,
      `the cache holds ${kindName(informer.gvk)} only from namespace "${only}", so ${what} is outside it: ` +
        `read it with client.apiReader(), or widen the cache (cache.byObject namespace, or no manager namespace)`,
    );
  }

  /** Under selectorMisses 'error': a miss behind a selector is not a NotFound. */
  private refuseSelectorMiss(informer: Informer, key: ObjectKey): void {
    const { labelSelector, fieldSelector } = informer.scope;
    if (!labelSelector && !fieldSelector) return;
    const selectors = [
      labelSelector && `labelSelector "${labelSelector}"`,
      fieldSelector && `fieldSelector "${fieldSelector}"`,
    ].filter(Boolean);
    throw new CacheScopeError(
      informer.gvk,
      `${kindName(informer.gvk)} "${keyString(key)}" is not in the cache, which holds only objects matching ${selectors.join(' and ')}: ` +
        `it may exist outside ${selectors.length > 1 ? 'them' : 'it'}; read it with client.apiReader(), or widen cache.byObject`,
    );
  }

  private copy<T>(obj: T): T {
    return this.opts.unsafeDisableDeepCopy ? obj : deepCopy(obj);
  }
}

/** Whether a scope holds every object of its kind. */
function isWhole(scope: InformerScope): boolean {
  return !scope.namespace && !scope.labelSelector && !scope.fieldSelector;
}

/** Hands an informer's events to an observer; a resync, which changes nothing, is not one. */
function observe(informer: Informer, observer: CacheObserver): void {
  const gvk = informer.gvk;
  informer.addEventHandler({
    onAdd: (o) => observer.observe(gvk, 'ADDED', o),
    onUpdate: (old, o) => {
      if (old !== o) observer.observe(gvk, 'MODIFIED', o);
    },
    onDelete: (o) => observer.observe(gvk, 'DELETED', o),
  });
  void informer.waitForSync().then((ok) => {
    if (ok) observer.synced(gvk, informer.store.list());
  });
}
