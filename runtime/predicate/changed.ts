/**
 * Stock update filters: each lets create/delete/generic through and passes an update only when
 * one part of the object changed. Typical use: `generationChanged()` on the primary kind so
 * status writes (which do not bump metadata.generation) do not trigger another reconcile.
 */

import type { KubeObject } from '../apimachinery/model.js';
import { predicateFuncs, type Predicate } from './predicate.js';

/** Passes updates whose metadata.generation differs (spec changes on kinds with a status subresource). */
export function generationChanged(): Predicate {
  return onUpdate((o, n) => o.metadata?.generation !== n.metadata?.generation);
}

/** Passes updates whose metadata.labels differ. */
export function labelsChanged(): Predicate {
  return onUpdate((o, n) => !sameStringMap(o.metadata?.labels, n.metadata?.labels));
}

/** Passes updates whose metadata.annotations differ. */
export function annotationsChanged(): Predicate {
  return onUpdate((o, n) => !sameStringMap(o.metadata?.annotations, n.metadata?.annotations));
}

/**
 * Passes updates whose metadata.resourceVersion differs — drops the periodic resync events,
 * which replay an unchanged object.
 */
export function resourceVersionChanged(): Predicate {
  return onUpdate((o, n) => o.metadata?.resourceVersion !== n.metadata?.resourceVersion);
}

function onUpdate(changed: (oldObj: KubeObject, newObj: KubeObject) => boolean): Predicate {
  return predicateFuncs({ update: (e) => changed(e.objectOld, e.objectNew) });
}

/** Map equality where absent and empty are the same. */
export function sameStringMap(a?: Record<string, string>, b?: Record<string, string>): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => b !== undefined && Object.hasOwn(b, k) && b[k] === a?.[k]);
}
