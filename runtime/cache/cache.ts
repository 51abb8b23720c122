/**
 * The shared cache: one informer per GroupVersionKind, shared by every controller and by the
 * client's reads. Scope (namespace, selectors) is decided per kind when the cache is built,
 * so a kind always has exactly one informer. Reads return deep copies, so a reconciler that
 * mutates what it read cannot corrupt the cache.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import {
  apiVersionOf,
  gvkString,
  keyString,
  RESTMapper,
  type GroupVersionKind,
  type KubeObject,
  type ObjectKey,
  type RequestMetrics,
} from '../apimachinery/index.js';
import type { Clock } from '../queue/index.js';
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
  get<T extends KubeObject>(gvk: GroupVersionKind, key: ObjectKey): T | undefined;
  list<T extends KubeObject>(gvk: GroupVersionKind, opts?: ListOptions): T[];
}

/** A read for a kind the cache has no informer for. */
export class NoInformerError extends Error {
  override readonly name = 'NoInformerError';
  constructor(readonly gvk: GroupVersionKind) {
    super(`the cache has no informer for ${gvkString(gvk)}`);
  }
}

/** A kind whose informer has not stored its first list, and the last reason why, if any. */
export interface UnsyncedKind {
  gvk: GroupVersionKind;
  cause: string | undefined;
}

/**
 * Informers did not store their first list within the cache sync timeout. The message names
 * each kind and its cause (a missing CRD, a list RBAC denies), so the fix is in the one line.
 */
export class CacheSyncTimeoutError extends Error {
  override readonly name = 'CacheSyncTimeoutError';
  constructor(
    message: string,
    readonly unsynced: readonly UnsyncedKind[] = [],
  ) {
    super(message);
  }

  /** `<who>: caches not synced after <ms> ms: <kind>: <cause>; …`. */
  static of(who: string, timeoutMs: number, unsynced: readonly UnsyncedKind[]): CacheSyncTimeoutError {
    const kinds = unsynced.map((u) => `${u.gvk.kind} (${apiVersionOf(u.gvk)}): ${u.cause ?? 'first list still in flight'}`);
    return new CacheSyncTimeoutError(
      `${who}: caches not synced after ${timeoutMs} ms (cacheSyncTimeoutMs): ${kinds.join('; ')}`,
      unsynced,
    );
  }
}

export interface ByObject extends InformerScope {
  gvk: GroupVersionKind;
  transform?: Transform | null;
}

export interface CacheOptions {
  kubeConfig: KubeConfig;
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
  onWatchError?: (info: WatchErrorInfo) => void;
  onHandlerError?: (err: unknown) => void;
  /** counts every informer's list and watch requests (rest_client_requests_total) */
  requestMetrics?: RequestMetrics;
}

export class Cache implements CacheReader {
  private readonly informers = new Map<string, Informer>();
  private readonly runs: Array<Promise<void>> = [];
  private readonly mapper: RESTMapper;
  private signal: AbortSignal | undefined;

  constructor(private readonly opts: CacheOptions) {
    this.mapper = opts.mapper ?? new RESTMapper(opts.kubeConfig);
  }

  /** The shared informer for `gvk`, created on first use (and started at once if the cache runs). */
  informerFor<T extends KubeObject = KubeObject>(gvk: GroupVersionKind): Informer<T> {
    const id = gvkString(gvk);
    let informer = this.informers.get(id);
    if (!informer) {
      const o = this.opts;
      const byObject = o.byObject?.find((b) => gvkString(b.gvk) === id);
      const scope: InformerScope = byObject ?? o.defaultScope ?? {};
      informer = new Informer({
        kubeConfig: o.kubeConfig,
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
      if (this.signal && !this.signal.aborted) this.runs.push(informer.run(this.signal));
    }
    return informer as unknown as Informer<T>;
  }

  /** Adds a field index to `gvk`'s informer; list with `field: { index: name, value }`. */
  indexField<T extends KubeObject>(gvk: GroupVersionKind, name: string, extract: IndexFunc<T>): void {
    this.informerFor<T>(gvk).addIndex(name, extract);
  }

  /** Runs every informer, present and future, until `signal` aborts; resolves once all stopped. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.signal) throw new Error('cache already started');
    this.signal = signal;
    for (const informer of this.informers.values()) this.runs.push(informer.run(signal));
    if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
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
    return [...this.informers.values()].filter((i) => !i.hasSynced()).map((i) => ({ gvk: i.gvk, cause: i.syncFailure() }));
  }

  has(gvk: GroupVersionKind): boolean {
    return this.informers.has(gvkString(gvk));
  }

  get<T extends KubeObject>(gvk: GroupVersionKind, key: ObjectKey): T | undefined {
    const obj = this.existing(gvk).store.get(keyString(key));
    return obj === undefined ? undefined : this.copy(obj as T);
  }

  list<T extends KubeObject>(gvk: GroupVersionKind, opts: ListOptions = {}): T[] {
    const store = this.existing(gvk).store;
    let objs: KubeObject[];
    if (opts.field) objs = store.byIndex(opts.field.index, opts.field.value);
    else if (opts.namespace !== undefined) objs = store.byIndex(NAMESPACE_INDEX, opts.namespace);
    else objs = store.list();
    if (opts.field && opts.namespace !== undefined) objs = objs.filter((o) => (o.metadata?.namespace ?? '') === opts.namespace);
    if (opts.labelSelector) {
      const reqs = parseLabelSelector(opts.labelSelector);
      objs = objs.filter((o) => matchesLabels(reqs, o.metadata?.labels));
    }
    return objs.map((o) => this.copy(o as T));
  }

  private existing(gvk: GroupVersionKind): Informer {
    const informer = this.informers.get(gvkString(gvk));
    if (!informer) throw new NoInformerError(gvk);
    return informer;
  }

  private copy<T>(obj: T): T {
    return this.opts.unsafeDisableDeepCopy ? obj : structuredClone(obj);
  }
}
