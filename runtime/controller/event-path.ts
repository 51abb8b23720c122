/**
 * The event path, in one place: informer event → predicates → handler → queue. Every predicate
 * must pass an event before the handler maps it to requests; the handler's requests become
 * queue keys, and the queue folds duplicates. Nothing here blocks or does I/O.
 */

import type { KubeObject } from '../apimachinery/index.js';
import type { Handler, RequestSink } from '../handler/index.js';
import type { Predicate } from '../predicate/index.js';
import { requestKey } from '../reconcile/index.js';
import type { InformerEvents } from './source.js';

/** The part of the work queue the event path needs. */
export interface KeyQueue {
  add(key: string): void;
}

export function eventPath(handler: Handler, predicates: readonly Predicate[], queue: KeyQueue): Required<InformerEvents> {
  const sink: RequestSink = { add: (req) => queue.add(requestKey(req)) };
  return {
    onAdd(object: KubeObject) {
      const e = { object };
      if (predicates.every((p) => p.create(e))) handler.create(e, sink);
    },
    onUpdate(objectOld: KubeObject, objectNew: KubeObject) {
      const e = { objectOld, objectNew };
      if (predicates.every((p) => p.update(e))) handler.update(e, sink);
    },
    onDelete(object: KubeObject, info?: { deleteStateUnknown: boolean }) {
      const e = info?.deleteStateUnknown ? { object, deleteStateUnknown: true } : { object };
      if (predicates.every((p) => p.delete(e))) handler.delete(e, sink);
    },
    onGeneric(object: KubeObject) {
      const e = { object };
      if (predicates.every((p) => p.generic(e))) handler.generic(e, sink);
    },
  };
}
