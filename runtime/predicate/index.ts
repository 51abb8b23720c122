/** predicate: filters between a watch event and its handler, plus the event shapes they see. */

export type { CreateEvent, UpdateEvent, DeleteEvent, GenericEvent } from './event.js';
export { predicateFuncs, newPredicateFuncs } from './predicate.js';
export type { Predicate, PredicateFuncs } from './predicate.js';
export {
  generationChanged,
  labelsChanged,
  annotationsChanged,
  resourceVersionChanged,
} from './changed.js';
export { and, or, not } from './logic.js';
