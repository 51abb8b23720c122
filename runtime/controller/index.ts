/** controller: the event path into a work queue and the workers that drain it into a Reconciler. */

export { Controller, CacheSyncTimeoutError, ControllerStartedError } from './controller.js';
export type { ControllerOptions } from './controller.js';
export { eventPath } from './event-path.js';
export type { KeyQueue, WatchLabel } from './event-path.js';
export { runWorker, reconcileKey, decideNext, isPanic } from './worker.js';
export type { WorkerDeps, NextStep, ReconcileRecord, ReconcileGate } from './worker.js';
export type { Source, InformerEvents } from './source.js';
export type { ControllerDebugInfo, DebugResult } from './debug-info.js';
export { kindSource } from './kind-source.js';
export { ChannelSource } from './channel-source.js';
export type { InformerCache, SharedInformer } from './kind-source.js';
