/**
 * Composition of predicates: `and` (all must pass), `or` (any passes), `not` (inverts). With
 * these the stock filters cover most needs without flags, e.g.
 * `or(generationChanged(), labelsChanged())`.
 */

import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { Predicate } from './predicate.js';

type Method = keyof Predicate;

function combine<T extends ClientObject>(preds: Predicate<T>[], every: boolean): Predicate<T> {
  const test =
    <M extends Method>(m: M) =>
    (e: Parameters<Predicate<T>[M]>[0]): boolean => {
      const pass = (p: Predicate<T>) => (p[m] as (ev: typeof e) => boolean)(e);
      return every ? preds.every(pass) : preds.some(pass);
    };
  return { create: test('create'), update: test('update'), delete: test('delete'), generic: test('generic') };
}

/** Passes an event only when every predicate passes it (an empty list passes everything). */
export function and<T extends ClientObject = KubeObject>(...preds: Predicate<T>[]): Predicate<T> {
  return combine(preds, true);
}

/** Passes an event when at least one predicate passes it (an empty list passes nothing). */
export function or<T extends ClientObject = KubeObject>(...preds: Predicate<T>[]): Predicate<T> {
  return combine(preds, false);
}

/** Inverts a predicate for every event type. */
export function not<T extends ClientObject = KubeObject>(p: Predicate<T>): Predicate<T> {
  return {
    create: (e) => !p.create(e),
    update: (e) => !p.update(e),
    delete: (e) => !p.delete(e),
    generic: (e) => !p.generic(e),
  };
}
