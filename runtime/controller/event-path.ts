/**
 * The event path, in one place: informer event → predicates → handler → queue. Every predicate
 * must pass an event before the handler maps it to requests; the handler's requests become
 * queue keys, and the queue folds duplicates. Events that are not changes — the first list and
 * resyncs (an update with an unchanged resourceVersion) — are queued at LOW_PRIORITY, behind
 * real changes (controller-runtime's WithLowPriorityWhenUnchanged). Each key is added with its
 * cause (which watch, which event, which object), so the reconcile can say why it ran.
 * Nothing here blocks or does I/O.
 */

import type { KubeObject } from '../apimachinery/model.js';
import type { Handler, RequestSink } from '../handler/index.js';
import type { Predicate } from '../predicate/index.js';
import { LOW_PRIORITY } from '../queue/index.js';
import { requestKey, type TriggerCause, type TriggerEvent, type TriggerWatch } from '../reconcile/index.js';
import type { InformerEvents } from './source.js';

/** The part of the work queue the event path needs. */
export interface KeyQueue {
  add(key: string, cause?: TriggerCause): void;
  addWithPriority?(key: string, priority: number, cause?: TriggerCause): void;
}

/** Which watch feeds this path, as triggers name it. */
export interface WatchLabel {
  watch: TriggerWatch;
  /** 'apps/v1/Deployment', or a raw source's description. */
  kind: string;
}

export function eventPath(
  handler: Handler,
  predicates: readonly Predicate[],
  queue: KeyQueue,
  label: WatchLabel = { watch: 'source', kind: 'unknown' },
): Required<InformerEvents> {
  // One sink per event: a request the handler adds twice for one event (an update's old and new
  // object map to the same owner) is added once, so a worker that took the first add at once
  // does not run again for the second, and `folded` counts events, not adds.
  const sink = (event: TriggerEvent, object: KubeObject, low: boolean): RequestSink => {
    const cause: TriggerCause = {
      reason: 'event',
      watch: label.watch,
      kind: label.kind,
      event,
      object: objectOf(object),
    };
    const add =
      low && queue.addWithPriority
        ? (key: string) => queue.addWithPriority!(key, LOW_PRIORITY, cause)
        : (key: string) => queue.add(key, cause);
    let first: string | undefined;
    let more: Set<string> | undefined;
    return {
      add(req) {
        const key = requestKey(req);
        if (first === undefined) first = key;
        else if (key === first || more?.has(key)) return;
        else (more ??= new Set()).add(key);
        add(key);
      },
    };
  };
  return {
    onAdd(object: KubeObject, info?: { isInInitialList: boolean }) {
      const initial = info?.isInInitialList === true;
      const e = initial ? { object, isInInitialList: true } : { object };
      if (predicates.every((p) => p.create(e))) handler.create(e, sink('add', object, initial));
    },
    onUpdate(objectOld: KubeObject, objectNew: KubeObject) {
      const e = { objectOld, objectNew };
      const rv = objectNew.metadata?.resourceVersion;
      const unchanged = rv !== undefined && rv === objectOld.metadata?.resourceVersion;
      if (predicates.every((p) => p.update(e))) handler.update(e, sink('update', objectNew, unchanged));
    },
    onDelete(object: KubeObject, info?: { deleteStateUnknown: boolean }) {
      const e = info?.deleteStateUnknown ? { object, deleteStateUnknown: true } : { object };
      if (predicates.every((p) => p.delete(e))) handler.delete(e, sink('delete', object, false));
    },
    onGeneric(object: KubeObject) {
      const e = { object };
      if (predicates.every((p) => p.generic(e))) handler.generic(e, sink('generic', object, false));
    },
  };
}

function objectOf(obj: KubeObject): { namespace?: string; name: string } | undefined {
  const name = obj.metadata?.name;
  if (!name) return undefined;
  const namespace = obj.metadata?.namespace;
  return namespace ? { namespace, name } : { name };
}
