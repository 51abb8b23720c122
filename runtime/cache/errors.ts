/**
 * What a cached read cannot answer, said as an error rather than a silent NotFound or empty
 * list: no informer for the kind, an informer that has not stored its first list, a key outside
 * the informer's scope; and the cache sync deadline passing.
 */
import { apiVersionOf, gvkString, type GroupVersionKind } from '../apimachinery/model.js';

/** 'ConfigMap (v1)': how errors name a kind. */
export function kindName(gvk: GroupVersionKind): string {
  return `${gvk.kind} (${apiVersionOf(gvk)})`;
}

/** A read for a kind the cache has no informer for. */
export class NoInformerError extends Error {
  override readonly name = 'NoInformerError';
  constructor(readonly gvk: GroupVersionKind) {
    super(`the cache has no informer for ${gvkString(gvk)}`);
  }
}

/**
 * A read before the kind's informer stored its first list (controller-runtime's
 * ErrCacheNotStarted): answering NotFound then would deny objects that exist.
 */
export class CacheNotStartedError extends Error {
  override readonly name = 'CacheNotStartedError';
  constructor(
    readonly gvk: GroupVersionKind,
    why: string,
  ) {
    super(`cannot read ${kindName(gvk)} from the cache: ${why}`);
  }
}

/**
 * A cached read the cache's scope cannot answer: another namespace than the one the informer
 * watches, a namespace on a cluster-scoped kind, or none on a namespaced one.
 */
export class CacheScopeError extends Error {
  override readonly name = 'CacheScopeError';
  constructor(
    readonly gvk: GroupVersionKind,
    message: string,
  ) {
    super(message);
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

  /** `<who>: caches not synced after <ms> ms (cacheSyncTimeoutMs): <kind>: <cause>; …`. */
  static of(who: string, timeoutMs: number, unsynced: readonly UnsyncedKind[]): CacheSyncTimeoutError {
    const kinds = unsynced.map((u) => `${kindName(u.gvk)}: ${u.cause ?? 'first list still in flight'}`);
    return new CacheSyncTimeoutError(
      `${who}: caches not synced after ${timeoutMs} ms (cacheSyncTimeoutMs): ${kinds.join('; ')}`,
      unsynced,
    );
  }
}
