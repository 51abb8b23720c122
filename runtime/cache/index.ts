/**
 * cache: the watcher state machine and its driver, the indexed store, informers with event
 * handlers, and the shared cache that controllers watch through and client/ reads from.
 */
export {
  type CacheReader,
  type CacheOptions,
  type ListOptions,
  type ByObject,
  type CacheObserver,
  Cache,
} from './cache.js';
export {
  type UnsyncedKind,
  CacheSyncTimeoutError,
  CacheNotStartedError,
  CacheScopeError,
  NoInformerError,
} from './errors.js';
export {
  type EventHandler,
  type DeleteInfo,
  type AddInfo,
  type HandlerRegistration,
  type InformerScope,
  type InformerOptions,
  type Transform,
  type WatchErrorInfo,
  Informer,
  stripManagedFields,
} from './informer.js';
export {
  type Store,
  type IndexFunc,
  type ReplaceDiff,
  StoreWriter,
  UnknownIndexError,
  NAMESPACE_INDEX,
} from './store.js';
export {
  type WatcherState,
  type WatcherAction,
  type WatcherInput,
  type WatcherEvent,
  type RawWatchEvent,
  type StepResult,
  initialState,
  nextAction,
  step,
} from './watcher.js';
export { type Notification, type Reflected, reflect } from './reflector.js';
export { type WatchTarget, type DriverOptions, runWatcher } from './driver.js';
export { type BackoffPolicy, backoffDelay, watchBackoff } from './backoff.js';
export { type Requirement, InvalidSelectorError, parseLabelSelector, matchesLabels } from './selector.js';
