/**
 * Finalizers on object metadata. Each function mutates `obj` and says whether it changed, so
 * the caller knows when an update is due.
 */
import type { ClientObject } from '../client/index.js';

export function containsFinalizer(obj: ClientObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) ?? false;
}

/** Appends `finalizer` unless present; returns true when added. */
export function addFinalizer(obj: ClientObject, finalizer: string): boolean {
  if (containsFinalizer(obj, finalizer)) return false;
  obj.metadata ??= {};
  (obj.metadata.finalizers ??= []).push(finalizer);
  return true;
}

/** Removes every occurrence of `finalizer`; returns true when one was removed. */
export function removeFinalizer(obj: ClientObject, finalizer: string): boolean {
  const list = obj.metadata?.finalizers;
  if (!list?.includes(finalizer)) return false;
  obj.metadata!.finalizers = list.filter((f) => f !== finalizer);
  return true;
}
