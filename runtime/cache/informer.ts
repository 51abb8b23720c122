/**
 * An informer: the watcher feeding a store, and the store's changes delivered to event
 * handlers. Handlers added after the first list receive a synthetic add for every object
 * already stored; a periodic resync (default 10 h ± 10 %) re-delivers every object as
 * update(old = new) so level-triggered controllers revisit everything now and then.
 */
import type { ClientObject } from '../apimachinery/model.js';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import {
  apiVersionOf,
  isMetadataOnly,
  onAbort,
  type GroupVersionKind,
  type KubeObject,
} from '../apimachinery/model.js';
import type { ApiConnection, RequestMetrics } from '../rest/index.js';
import { NoKindMatchError, RESTMapper, resourcePath, type ResourceMapping } from '../restmapper/index.js';
import { realClock, sleep, type Clock, type TimerHandle } from '../queue/index.js';
import { backoffDelay, type BackoffPolicy } from './backoff.js';
import { runWatcher, type DriverOptions } from './driver.js';
import { StoreWriter, type IndexFunc, type Store } from './store.js';
import { reflect, type Notification } from './reflector.js';
import type { WatcherEvent } from './watcher.js';

export interface EventHandler<T> {
  /** `info.isInInitialList`: the object came with the first list, not from a change. */
  onAdd(obj: T, info?: AddInfo): void;
  onUpdate(oldObj: T, newObj: T): void;
  onDelete(obj: T, info?: DeleteInfo): void;
}

/** client-go's isInInitialList: the add replays the first list (or the store, for a late handler). */
export interface AddInfo {
  isInInitialList: boolean;
}

/** client-go's DeletedFinalStateUnknown as a flag: the delete was inferred from a relist. */
export interface DeleteInfo {
  deleteStateUnknown: boolean;
}

export interface HandlerRegistration {
  remove(): void;
}

/** Which objects an informer sees; all three are applied by the API server. */
export interface InformerScope {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Rewrites each object before it is stored (to save memory); must not return a different key. */
export type Transform = (obj: KubeObject) => KubeObject;

/** Drops metadata.managedFields, which controllers rarely read; its input is left as it was. */
export const stripManagedFields: Transform = (obj) => {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

/**
 * The informer's default transform: `stripManagedFields` on an object just decoded from the watch,
 * which nothing else holds, so the field is deleted in place where that keeps V8's compact layout.
 * Deleting the property an object got last takes it back to its earlier shape; the API server
 * writes managedFields last in a built-in kind's metadata. A copy without it costs ~22 bytes more
 * per cached object (a literal grown past four properties keeps the rest apart); deleting any other
 * property would turn the object into a dictionary, twice its size, so then it is copied.
 */
export const dropDecodedManagedFields: Transform = (obj) => {
  const metadata = obj.metadata;
  if (!metadata?.managedFields) return obj;
  let last: string | undefined;
  for (const key in metadata) last = key;
  if (last !== 'managedFields') return stripManagedFields(obj);
  delete metadata.managedFields;
  return obj;
};

/** A watch failure the informer recovers from by itself; reported for logs and tests. */
export interface WatchErrorInfo {
  gvk: GroupVersionKind;
  message: string;
  code?: number;
  /** true when the failure forces a full relist (410 Gone) */
  relist: boolean;
}

export interface InformerOptions extends InformerScope, Omit<DriverOptions, 'clock'> {
  kubeConfig: KubeConfigSource;
  /** the HTTP connection to list and watch through; default: the KubeConfig's shared one */
  connection?: ApiConnection;
  gvk: GroupVersionKind;
  /** shared discovery cache; one is created when absent */
  mapper?: RESTMapper;
  /** 0 disables; default 10 h, jittered by ± 10 % */
  resyncPeriodMs?: number;
  /** default: managedFields dropped (`dropDecodedManagedFields`); null stores objects as received */
  transform?: Transform | null;
  pageSize?: number;
  clock?: Clock;
  onWatchError?: (info: WatchErrorInfo) => void;
  /** a handler threw; the informer carries on with the next handler and event */
  onHandlerError?: (err: unknown) => void;
  /** counts the informer's list and watch requests (rest_client_requests_total) */
  requestMetrics?: RequestMetrics;
}

/** A failed first list, said so that the reader knows what to change. */
function listFailure(message: string, code: number | undefined): string {
  if (code === 401) return `list failed (401 Unauthorized): ${message} (check the kubeconfig's credentials)`;
  if (code === 403) return `list failed (403 Forbidden): ${message} (grant list and watch on it in the manager's RBAC)`;
  return code === undefined ? `list failed: ${message}` : `list failed (${code}): ${message}`;
}

const INITIAL: AddInfo = Object.freeze({ isInInitialList: true });
const CHANGE: AddInfo = Object.freeze({ isInInitialList: false });

const DEFAULT_RESYNC_MS = 10 * 60 * 60 * 1000;
const MAPPING_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 30_000, jitter: 0.25 };

export class Informer<T extends ClientObject = KubeObject> {
  readonly gvk: GroupVersionKind;
  private readonly writer = new StoreWriter<T>();
  private readonly handlers = new Set<Partial<EventHandler<T>>>();
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly transform: Transform | null;
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private resyncTimer: TimerHandle | undefined;
  private started = false;
  private lastRV = '';
  private mapping: ResourceMapping | undefined;
  /** why the first list has not been stored yet: the last discovery or list failure */
  private notSyncedBecause: string | undefined;

  constructor(private readonly opts: InformerOptions) {
    this.gvk = { ...opts.gvk };
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.transform = opts.transform === undefined ? dropDecodedManagedFields : opts.transform;
  }

  get store(): Store<T> {
    return this.writer.store;
  }

  /** The resourceVersion of the last list, event or bookmark seen. */
  get lastSyncResourceVersion(): string {
    return this.lastRV;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Whether the kind is namespaced, once discovery has answered (always by the time it syncs). */
  get namespaced(): boolean | undefined {
    return this.mapping?.namespaced;
  }

  /** The namespace and selectors it was built with. */
  get scope(): InformerScope {
    return {
      namespace: this.opts.namespace,
      labelSelector: this.opts.labelSelector,
      fieldSelector: this.opts.fieldSelector,
    };
  }

  /** The one namespace this informer watches, or undefined when it watches all of them. */
  get scopeNamespace(): string | undefined {
    return this.mapping?.namespaced === false ? undefined : this.opts.namespace || undefined;
  }

  /**
   * Why the informer has not synced yet — the last discovery or list failure, with a hint at the
   * usual fix — or undefined once synced or while the first list is merely in flight.
   */
  syncFailure(): string | undefined {
    return this.synced ? undefined : this.notSyncedBecause;
  }

  /** Resolves true once the first list is stored, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onSynced = (): void => {
        stopWaiting?.();
        resolve(true);
      };
      const stopWaiting = signal
        ? onAbort(signal, () => {
            this.syncWaiters = this.syncWaiters.filter((w) => w !== onSynced);
            resolve(false);
          })
        : undefined;
      this.syncWaiters.push(onSynced);
    });
  }

  addEventHandler(handler: Partial<EventHandler<T>>): HandlerRegistration {
    this.handlers.add(handler);
    // Late joiners see what is already known as adds, like client-go's shared informer.
    for (const obj of this.store.list()) this.call(() => handler.onAdd?.(obj, INITIAL));
    return { remove: () => this.handlers.delete(handler) };
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    this.writer.addIndex(name, fn);
  }

  /** Lists and watches until `signal` aborts; resolves once everything is stopped. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error(`informer for ${apiVersionOf(this.gvk)} ${this.gvk.kind} already started`);
    this.started = true;
    const mapping = await this.resolveMapping(signal);
    if (!mapping) return;
    this.mapping = mapping;
    const scope = this.opts;
    const target = {
      kubeConfig: scope.connection ?? scope.kubeConfig,
      path: resourcePath(mapping, { namespace: scope.namespace }),
      apiVersion: apiVersionOf(this.gvk),
      kind: this.gvk.kind,
      labelSelector: scope.labelSelector,
      fieldSelector: scope.fieldSelector,
      pageSize: scope.pageSize,
      metrics: scope.requestMetrics,
      metadataOnly: isMetadataOnly(this.gvk),
    };
    try {
      await runWatcher(target, (e) => this.onWatcherEvent(e), signal, {
        clock: this.clock,
        random: this.random,
        backoff: scope.backoff,
        watchTimeoutSeconds: scope.watchTimeoutSeconds,
        probeIdleMs: scope.probeIdleMs,
        probeTimeoutMs: scope.probeTimeoutMs,
        watchSilenceMs: scope.watchSilenceMs,
        watchList: scope.watchList,
        onWatchListRefused: scope.onWatchListRefused,
        protobuf: scope.protobuf,
        // What the transform would delete is not decoded at all.
        skipManagedFields: this.transform === dropDecodedManagedFields || this.transform === stripManagedFields,
      });
    } finally {
      if (this.resyncTimer) this.clock.clearTimeout(this.resyncTimer);
      this.resyncTimer = undefined;
    }
  }

  private async resolveMapping(signal: AbortSignal): Promise<ResourceMapping | undefined> {
    const mapper =
      this.opts.mapper ??
      new RESTMapper(this.opts.connection ?? this.opts.kubeConfig, { metrics: this.opts.requestMetrics });
    for (let failures = 0; !signal.aborted; failures++) {
      await sleep(this.clock, backoffDelay(failures, this.random(), MAPPING_BACKOFF), signal);
      if (signal.aborted) break;
      try {
        return await mapper.mapping(this.gvk);
      } catch (err) {
        const message = `resolving resource: ${(err as Error).message}`;
        this.notSyncedBecause = err instanceof NoKindMatchError ? `${message} (is its CRD installed?)` : message;
        this.opts.onWatchError?.({ gvk: this.gvk, message, relist: false });
      }
    }
    return undefined;
  }

  private prepare(obj: KubeObject): T {
    return (this.transform ? this.transform(obj) : obj) as unknown as T;
  }

  private onWatcherEvent(event: WatcherEvent): void {
    if (event.type === 'error') {
      const { message, code, relist } = event;
      if (!this.synced) this.notSyncedBecause = listFailure(message, code);
      this.opts.onWatchError?.(
        code === undefined ? { gvk: this.gvk, message, relist } : { gvk: this.gvk, message, code, relist },
      );
      return;
    }
    const r = reflect(this.writer, event, (o) => this.prepare(o));
    if (r.resourceVersion) this.lastRV = r.resourceVersion;
    const initial = r.listed && !this.synced;
    for (const n of r.notifications) this.notify(n, initial);
    if (r.listed && !this.synced) this.markSynced();
  }

  private notify(n: Notification<T>, initial: boolean): void {
    switch (n.type) {
      case 'add':
        this.dispatch((h) => h.onAdd?.(n.obj, initial ? INITIAL : CHANGE));
        return;
      case 'update':
        this.dispatch((h) => h.onUpdate?.(n.oldObj, n.newObj));
        return;
      case 'delete':
        this.dispatch((h) => h.onDelete?.(n.obj, { deleteStateUnknown: n.stateUnknown === true }));
        return;
    }
  }

  private markSynced(): void {
    this.synced = true;
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w();
    this.scheduleResync();
  }

  private scheduleResync(): void {
    const period = this.opts.resyncPeriodMs ?? DEFAULT_RESYNC_MS;
    if (period <= 0) return;
    const delay = period * (0.9 + 0.2 * this.random());
    this.resyncTimer = this.clock.setTimeout(() => {
      for (const obj of this.store.list()) this.dispatch((h) => h.onUpdate?.(obj, obj));
      this.scheduleResync();
    }, delay);
  }

  private dispatch(fn: (h: Partial<EventHandler<T>>) => void): void {
    for (const h of [...this.handlers]) this.call(() => fn(h));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.opts.onHandlerError?.(err);
    }
  }
}
