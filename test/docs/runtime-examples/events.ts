/** Tell `kubectl describe` what happened to an object; repeats of one event fold into a series. */
import type { EventRecorder } from '../../../runtime/events/index.js';
import type { Manager } from '../../../runtime/manager/index.js';
import type { Memcached } from './apimachinery.js';

export function reportScaled(
  mgr: Manager,
  memcached: Memcached,
  from: number,
  to: number,
): void {
  // The name is the event's reporting controller (kubectl shows it under
  // "From").
  const recorder: EventRecorder = mgr.getEventRecorder('memcached-controller');
  // type, reason, action, note: the fields of an events.k8s.io/v1 Event
  recorder.event(
    memcached,
    'Normal',
    'Scaled',
    'Scale',
    `scaled from ${from} to ${to} replicas`,
  );
}
