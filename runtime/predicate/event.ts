/**
 * The four events a watch delivers to predicates and handlers, as plain data. They mirror the
 * informer callbacks; `generic` is for events that come from outside the API (a timer, a
 * webhook) and is never produced by a watch.
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';

export interface CreateEvent<T extends ClientObject = KubeObject> {
  object: T;
  /** True when the object came with the informer's first list rather than from a change. */
  isInInitialList?: boolean;
}

export interface UpdateEvent<T extends ClientObject = KubeObject> {
  objectOld: T;
  objectNew: T;
}

export interface DeleteEvent<T extends ClientObject = KubeObject> {
  object: T;
  /** True when the delete was inferred from a relist, so `object` may be stale. */
  deleteStateUnknown?: boolean;
}

export interface GenericEvent<T extends ClientObject = KubeObject> {
  object: T;
}
