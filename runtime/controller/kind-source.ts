/**
 * kindSource: a Source backed by the shared informer cache — every controller watching a kind
 * shares one informer, and each registers its own event callbacks on it. The cache is reached
 * through the two calls below, so any informer cache with that shape plugs in.
 */

import { gvkString, type GroupVersionKind, type KubeObject } from '../apimachinery/model.js';
import type { InformerEvents, Source } from './source.js';

/** The part of a shared informer a kind source uses. */
export interface SharedInformer {
  addEventHandler(events: InformerEvents): unknown;
  /** Resolves true once the initial list is stored, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean>;
  /** Why the first list has not been stored yet, if known. */
  syncFailure?(): string | undefined;
}

/** The part of the informer cache a kind source uses (the cache module's `Cache` has it). */
export interface InformerCache {
  /** The shared informer for `gvk`, created (and started, if the cache runs) on first request. */
  informerFor(gvk: GroupVersionKind): SharedInformer;
}

export function kindSource(cache: InformerCache, gvk: GroupVersionKind): Source {
  return {
    description: `kind source: ${gvkString(gvk)}`,
    start(events: InformerEvents) {
      cache.informerFor(gvk).addEventHandler({
        onAdd: (o: KubeObject, info?: { isInInitialList: boolean }) => events.onAdd(o, info),
        onUpdate: (o: KubeObject, n: KubeObject) => events.onUpdate(o, n),
        onDelete: (o: KubeObject, info?: { deleteStateUnknown: boolean }) => events.onDelete(o, info),
      });
    },
    waitForSync: (signal) => cache.informerFor(gvk).waitForSync(signal),
    syncFailure: () => cache.informerFor(gvk).syncFailure?.(),
  };
}
