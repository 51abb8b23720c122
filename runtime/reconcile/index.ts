/** reconcile: the vocabulary between a controller and the code an operator author writes. */

export { requestKey, requestFromKey } from './request.js';
export type { Request } from './request.js';
export type { Result, Outcome } from './result.js';
export { TerminalError, isTerminalError } from './terminal-error.js';
export { Cancellation, cancellationOf } from './cancellation.js';
export type { ReconcileContext } from './context.js';
export { reconcilerFunc } from './reconciler.js';
export type { Reconciler, ReconcileFunc } from './reconciler.js';
export { describeTrigger } from './trigger.js';
export type {
  Trigger,
  TriggerCause,
  TriggerEvent,
  TriggerWatch,
  TriggerObject,
  EventTrigger,
  RequeueTrigger,
  DirectTrigger,
} from './trigger.js';
