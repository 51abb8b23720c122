/**
 * Trigger: why a reconcile ran — the watch event or the requeue that put its request in the
 * queue, and how many more events were folded into that queued item while it waited. It is
 * for people (logs, traces, /debug/controllers), never for logic: reconciles stay level-triggered.
 */

/** Which watch of the controller saw the event: its For kind, an Owns kind, a Watches kind, or a raw source. */
export type TriggerWatch = 'for' | 'owns' | 'watches' | 'source';

/** The informer event type (generic: from a channel or another non-API source). */
export type TriggerEvent = 'add' | 'update' | 'delete' | 'generic';

/** The object an event was about (an owned Deployment, not its owner). */
export interface TriggerObject {
  namespace?: string;
  name: string;
}

/** A watch event queued the request. */
export interface EventTrigger {
  reason: 'event';
  watch: TriggerWatch;
  /** 'apps/v1/Deployment' style, or a raw source's description. */
  kind: string;
  event: TriggerEvent;
  object?: TriggerObject;
  /** Further events (or requeues) folded into this queued item after the first; 0 when it was alone. */
  folded: number;
}

/** The previous reconcile of the same request queued it again. */
export interface RequeueTrigger {
  /** requeueAfter: the result asked for it; backoff: an error; requeue: `requeue: true` or a 409. */
  reason: 'requeueAfter' | 'backoff' | 'requeue';
  /** The delay the queue applied, in milliseconds. */
  delayMs?: number;
  folded: number;
}

/** User code added the request to the queue itself (`controller.queue.add`), so no cause is known. */
export interface DirectTrigger {
  reason: 'direct';
  folded: number;
}

export type Trigger = EventTrigger | RequeueTrigger | DirectTrigger;

/** What the queue keeps per request: the first cause; it counts the folds itself. */
export type TriggerCause = Omit<EventTrigger, 'folded'> | Omit<RequeueTrigger, 'folded'>;

/** One short phrase for logs and span attributes: 'owns apps/v1/Deployment update default/web (+2 folded)'. */
export function describeTrigger(t: Trigger): string {
  const fold = t.folded > 0 ? ` (+${t.folded} folded)` : '';
  if (t.reason === 'direct') return `direct${fold}`;
  if (t.reason !== 'event') return `${t.reason}${t.delayMs !== undefined ? ` ${t.delayMs}ms` : ''}${fold}`;
  const obj = t.object ? ` ${t.object.namespace ? `${t.object.namespace}/` : ''}${t.object.name}` : '';
  return `${t.watch} ${t.kind} ${t.event}${obj}${fold}`;
}
