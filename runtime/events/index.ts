/** events.k8s.io/v1 event recorder with series folding of repeated events. */
export { Recorder, createEventRecorder, type EventRecorder, type RecorderOptions } from './recorder.js';
export { SpamFilter, type SpamFilterOptions } from './spam-filter.js';
export { EventBroadcaster, DEFAULT_EVENT_QUEUE_SIZE, type BroadcasterOptions, type EventWrite } from './broadcaster.js';
export {
  buildEvent,
  seriesKey,
  referenceTo,
  eventName,
  InvalidEventError,
  type EventObject,
  type EventType,
  type EventInput,
  type EventSource,
  type ObjectReference,
} from './event.js';
