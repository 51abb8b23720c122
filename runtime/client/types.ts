/**
 * The client's interfaces and options (controller-runtime's client.Reader / Writer /
 * StatusWriter), kept apart from the implementation so a fake client can satisfy them too.
 */
import type { ClientObject, GroupVersionKind, KubeObject, ObjectKey } from '../apimachinery/model.js';
import type { Patch } from './patch.js';

/** Anything the client reads or writes (defined with the other object shapes in apimachinery). */
export type { ClientObject };

/**
 * Names a kind either as a GVK or as the apiVersion/kind pair an object carries. A typed kind
 * (`Kind<T>`, e.g. `podKind`) also names the object type, which reads and lists then return.
 */
export type KindRef<T = unknown> = (GroupVersionKind | { apiVersion: string; kind: string }) & {
  readonly __objectType?: T;
};

/** What the client reads through (implemented by the informer cache); returns copies. */
export interface CacheReader {
  has(gvk: GroupVersionKind): boolean;
  get<T extends KubeObject>(gvk: GroupVersionKind, key: ObjectKey): T | undefined;
  list<T extends KubeObject>(
    gvk: GroupVersionKind,
    opts?: { namespace?: string; labelSelector?: string; field?: { index: string; value: string } },
  ): T[];
  /**
   * Resolves once gvk's informer has synced (reads wait for it) and, with `key`, has seen this
   * process's last write of that object; rejects when it cannot sync.
   */
  waitForKind?(gvk: GroupVersionKind, signal?: AbortSignal, key?: ObjectKey): Promise<void>;
  /** Called with the server's answer to each write of a cached kind (read-your-writes). */
  observeWrite?(gvk: GroupVersionKind, written: KubeObject): void;
}

/** Per-call options every request takes. */
export interface CallOptions {
  /**
   * Ends the call when aborted: a cached read stops waiting for the cache to sync, a request to
   * the API server is cancelled. Pass the reconcile's `ctx.signal`.
   */
  signal?: AbortSignal;
}

export type GetOptions = CallOptions;

export interface ListOptions extends CallOptions {
  namespace?: string;
  labelSelector?: string;
  /** Server-side field selector; lists with it always go to the API server. */
  fieldSelector?: string;
  /** Exact match on a cache field index; only served from the cache. */
  field?: { index: string; value: string };
  /** Page size; paged lists always go to the API server. */
  limit?: number;
  continue?: string;
}

export interface ObjectList<T extends ClientObject> {
  items: T[];
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
}

export interface Reader {
  /** Throws NotFoundError when the object does not exist. A typed kind (`podKind`) sets T. */
  get<T extends ClientObject = KubeObject>(kind: KindRef<T>, key: ObjectKey, opts?: GetOptions): Promise<T>;
  /** An explicit T that differs from a typed kind's (e.g. `get<At & Extra>(atKind, …)`) is taken as given. */
  get<T extends ClientObject = KubeObject>(kind: KindRef, key: ObjectKey, opts?: GetOptions): Promise<T>;
  list<T extends ClientObject = KubeObject>(kind: KindRef<T>, opts?: ListOptions): Promise<ObjectList<T>>;
  list<T extends ClientObject = KubeObject>(kind: KindRef, opts?: ListOptions): Promise<ObjectList<T>>;
}

export interface WriteOptions extends CallOptions {
  dryRun?: boolean;
  /** Overrides the client's fieldOwner for this request. */
  fieldManager?: string;
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of fields other managers own. */
  force?: boolean;
}

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions extends CallOptions {
  dryRun?: boolean;
  propagationPolicy?: PropagationPolicy;
  /** Delete only if the object still has this uid / resourceVersion (else 409). */
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

export interface Writer {
  /** Objects must carry apiVersion, kind and metadata.name (and namespace when namespaced). */
  create<T extends ClientObject>(obj: T, opts?: WriteOptions): Promise<T>;
  /** Replaces the object; a stale metadata.resourceVersion fails with ConflictError. */
  update<T extends ClientObject>(obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends ClientObject>(obj: T, patch: Patch, opts?: PatchOptions): Promise<T>;
  /** Server-side apply of `obj` (shorthand for `patch(obj, applyPatch, opts)`). */
  apply<T extends ClientObject>(obj: T, opts?: PatchOptions): Promise<T>;
  delete(obj: ClientObject, opts?: DeleteOptions): Promise<void>;
  /** Deletes every object of a kind in a namespace matching the selectors (one collection DELETE). */
  deleteAllOf(kind: KindRef, opts?: DeleteAllOfOptions): Promise<void>;
}

export interface DeleteAllOfOptions extends Omit<DeleteOptions, 'preconditions'> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Writes through the status subresource: changes outside `.status` are ignored by the server. */
export interface StatusWriter {
  update<T extends ClientObject>(obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends ClientObject>(obj: T, patch: Patch, opts?: PatchOptions): Promise<T>;
}

export interface Client extends Reader, Writer {
  status(): StatusWriter;
  /** A reader that always goes to the API server (controller-runtime's APIReader). */
  apiReader(): Reader;
  /** Plural and scope of a kind, from discovery. */
  isNamespaced(kind: KindRef): Promise<boolean>;
}
