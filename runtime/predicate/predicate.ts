/**
 * Predicate: a filter consulted before an event reaches its handler. Four methods, one per event
 * type; returning false drops the event. `predicateFuncs` builds one from only the methods you
 * care about — the missing ones let every event through.
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from './event.js';

export interface Predicate<T extends ClientObject = KubeObject> {
  create(e: CreateEvent<T>): boolean;
  update(e: UpdateEvent<T>): boolean;
  delete(e: DeleteEvent<T>): boolean;
  generic(e: GenericEvent<T>): boolean;
}

export interface PredicateFuncs<T extends ClientObject = KubeObject> {
  create?: (e: CreateEvent<T>) => boolean;
  update?: (e: UpdateEvent<T>) => boolean;
  delete?: (e: DeleteEvent<T>) => boolean;
  generic?: (e: GenericEvent<T>) => boolean;
}

/** Adapts a partial set of functions into a Predicate; absent methods return true. */
export function predicateFuncs<T extends ClientObject = KubeObject>(fns: PredicateFuncs<T>): Predicate<T> {
  return {
    create: (e) => fns.create?.(e) ?? true,
    update: (e) => fns.update?.(e) ?? true,
    delete: (e) => fns.delete?.(e) ?? true,
    generic: (e) => fns.generic?.(e) ?? true,
  };
}

/** A predicate that passes every event through a single test on the (new) object. */
export function newPredicateFuncs<T extends ClientObject = KubeObject>(filter: (obj: T) => boolean): Predicate<T> {
  return {
    create: (e) => filter(e.object),
    update: (e) => filter(e.objectNew),
    delete: (e) => filter(e.object),
    generic: (e) => filter(e.object),
  };
}
