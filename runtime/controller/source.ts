/**
 * Source: where a controller's events come from. A source delivers informer-style callbacks
 * (add / update / delete) and can tell when its initial list has been delivered. Kind sources
 * backed by the shared cache are built in builder/; tests and custom event streams can
 * implement this directly.
 */

import type { KubeObject } from '../apimachinery/model.js';

/** The callbacks an informer invokes (the same shape as the cache's EventHandler). */
export interface InformerEvents {
  /** `info.isInInitialList`: from the first list, not a change (it is queued at low priority). */
  onAdd(obj: KubeObject, info?: { isInInitialList: boolean }): void;
  onUpdate(oldObj: KubeObject, newObj: KubeObject): void;
  /** `info.deleteStateUnknown`: inferred from a relist; `obj` may not be the final state. */
  onDelete(obj: KubeObject, info?: { deleteStateUnknown: boolean }): void;
  /** Events from outside the API (timers, webhooks); only non-informer sources emit them. */
  onGeneric?(obj: KubeObject): void;
}

export interface Source {
  /** A short description for logs ('kind source: apps/v1, Kind=Deployment'). */
  readonly description: string;
  /** Starts delivering events to `events`; called once, before workers start. */
  start(events: InformerEvents, signal: AbortSignal): Promise<void> | void;
  /** Resolves true once the initial list has been delivered, false if `signal` aborted first. */
  waitForSync(signal: AbortSignal): Promise<boolean>;
  /** Why the source has not synced yet (a missing CRD, a forbidden list), if it knows. */
  syncFailure?(): string | undefined;
}
