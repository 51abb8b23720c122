/**
 * The pure part of the recorder: building an events.k8s.io/v1 Event for an object, and the key
 * under which repeats of "the same" event fold into one series (client-go's rule: same
 * controller, action, reason, type, regarding and related object; the note may differ).
 */
import type { KubeObject } from '../apimachinery/model.js';
import type { ClientObject } from '../client/index.js';

export type EventType = 'Normal' | 'Warning';

/** core/v1 ObjectReference, as events.k8s.io/v1 uses it for `regarding` and `related`. */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

/** events.k8s.io/v1 Event (the fields the recorder writes). */
export interface EventObject extends KubeObject {
  eventTime: string;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  type: EventType;
  note?: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  series?: { count: number; lastObservedTime: string };
}

export interface EventSource {
  reportingController: string;
  reportingInstance: string;
}

/** The API server rejects longer values: note ≤ 1 kB, action and reason ≤ 128 characters. */
const MAX_NOTE_BYTES = 1024;
const MAX_FIELD = 128;

export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

export function referenceTo(obj: ClientObject): ObjectReference {
  const m = obj.metadata ?? {};
  const ref: ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: m.name };
  if (m.namespace) ref.namespace = m.namespace;
  if (m.uid) ref.uid = m.uid;
  if (m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  return ref;
}

/** metav1.MicroTime. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/Z$/, '000Z');
}

function truncateBytes(s: string, max: number): string {
  const buf = Buffer.from(s, 'utf8');
  if (buf.length <= max) return s;
  // Cut on a character boundary: decode and drop a trailing partial character.
  return buf
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

let sequence = 0;

/** A unique event name: `<regarding name>.<hex time>`, as client-go names them. */
export function eventName(regardingName: string, now: Date): string {
  sequence = (sequence + 1) % 1000;
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(sequence) * 1000n;
  return `${regardingName}.${nanos.toString(16)}`;
}

export interface EventInput {
  regarding: ClientObject;
  related?: ClientObject;
  type: EventType;
  reason: string;
  action: string;
  note: string;
}

export function buildEvent(source: EventSource, input: EventInput, now: Date): EventObject {
  const regarding = referenceTo(input.regarding);
  if (!regarding.name) throw new InvalidEventError('the regarding object has no name');
  if (!input.reason || input.reason.length > MAX_FIELD) throw new InvalidEventError('reason must be 1-128 characters');
  if (!input.action || input.action.length > MAX_FIELD) throw new InvalidEventError('action must be 1-128 characters');
  if (input.type !== 'Normal' && input.type !== 'Warning')
    throw new InvalidEventError(`type must be Normal or Warning, not ${String(input.type)}`);
  const event: EventObject = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    // Cluster-scoped objects get their events in "default", as client-go does.
    metadata: { name: eventName(regarding.name, now), namespace: regarding.namespace ?? 'default' },
    eventTime: microTime(now),
    reportingController: source.reportingController,
    reportingInstance: source.reportingInstance,
    action: input.action,
    reason: input.reason,
    type: input.type,
    note: truncateBytes(input.note, MAX_NOTE_BYTES),
    regarding,
  };
  if (input.related) event.related = referenceTo(input.related);
  return event;
}

/** Events with equal keys are one series. */
export function seriesKey(e: EventObject): string {
  const ref = (r: ObjectReference | undefined): string =>
    r ? [r.apiVersion, r.kind, r.namespace, r.name, r.uid].map((x) => x ?? '').join('/') : '';
  return [e.reportingController, e.action, e.reason, e.type, ref(e.regarding), ref(e.related)].join('|');
}
