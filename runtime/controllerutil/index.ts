/** Owner references, createOrUpdate / createOrPatch, finalizers (controller-runtime's controllerutil). */
export {
  AlreadyOwnedError,
  InvalidOwnerError,
  type OwnerReferenceOptions,
  setControllerReference,
  setOwnerReference,
  removeOwnerReference,
  hasOwnerReference,
  getControllerOf,
} from './owner.js';
export { addFinalizer, removeFinalizer, containsFinalizer } from './finalizers.js';
export {
  createOrUpdate,
  createOrPatch,
  MutatedKeyError,
  type OperationResult,
  type MutateFn,
} from './create-or-update.js';
export { semanticEqual, quantitiesEqual, parseQuantity } from './semantic.js';
