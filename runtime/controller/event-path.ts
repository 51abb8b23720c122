/**
 * The event path, in one place: informer event → predicates → handler → queue. Every predicate
 * must pass an event before the handler maps it to requests; the handler's requests become
 * queue keys, and the queue folds duplicates. Events that are not changes — the first list and
 * resyncs (an update with an unchanged resourceVersion) — are queued at LOW_PRIORITY, behind
 * real changes (controller-runtime's WithLowPriorityWhenUnchanged). Nothing here blocks or does I/O.
 */

import type { KubeObject } from '../apimachinery/index.js';
import type { Handler, RequestSink } from '../handler/index.js';
import type { Predicate } from '../predicate/index.js';
import { LOW_PRIORITY } from '../queue/index.js';
import { requestKey } from '../reconcile/index.js';
import type { InformerEvents } from './source.js';

/** The part of the work queue the event path needs. */
export interface KeyQueue {
  add(key: string): void;
  addWithPriority?(key: string, priority: number): void;
}

export function eventPath(handler: Handler, predicates: readonly Predicate[], queue: KeyQueue): Required<InformerEvents> {
  const sink: RequestSink = { add: (req) => queue.add(requestKey(req)) };
  const low: RequestSink = queue.addWithPriority
    ? { add: (req) => queue.addWithPriority!(requestKey(req), LOW_PRIORITY) }
    : sink;
  return {
    onAdd(object: KubeObject, info?: { isInInitialList: boolean }) {
      const initial = info?.isInInitialList === true;
      const e = initial ? { object, isInInitialList: true } : { object };
      if (predicates.every((p) => p.create(e))) handler.create(e, initial ? low : sink);
    },
    onUpdate(objectOld: KubeObject, objectNew: KubeObject) {
      const e = { objectOld, objectNew };
      const rv = objectNew.metadata?.resourceVersion;
      const unchanged = rv !== undefined && rv === objectOld.metadata?.resourceVersion;
      if (predicates.every((p) => p.update(e))) handler.update(e, unchanged ? low : sink);
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
