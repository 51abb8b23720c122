/** handler: maps watch events to reconcile Requests — for the object, its owner, or via a function. */

export { handlerFuncs, requestFor } from './handler.js';
export type { Handler, HandlerFuncs, RequestSink } from './handler.js';
export { enqueueForObject } from './enqueue-for-object.js';
export { enqueueForOwner } from './enqueue-for-owner.js';
export type { OwnerType, EnqueueForOwnerOptions } from './enqueue-for-owner.js';
export { enqueueFromMapFunc } from './enqueue-from-map-func.js';
export type { MapFunc } from './enqueue-from-map-func.js';
