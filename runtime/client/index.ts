/** The typed client: cached reads, API writes (incl. server-side apply and status), typed API errors. */
export { createClient, toGVK, ClientUsageError, CacheMissError, type ClientOptions } from './client.js';
export type {
  Client,
  ClientObject,
  Reader,
  Writer,
  StatusWriter,
  CacheReader,
  KindRef,
  ListOptions,
  GetOptions,
  CallOptions,
  ObjectList,
  WriteOptions,
  PatchOptions,
  DeleteOptions,
  DeleteAllOfOptions,
  PropagationPolicy,
} from './types.js';
export {
  type Patch,
  type PatchType,
  type JsonPatchOp,
  type MergeFromOptions,
  mergePatch,
  jsonPatch,
  strategicMergePatch,
  applyPatch,
  mergeFrom,
  createMergePatch,
  jsonEqual,
} from './patch.js';
export type { RequestMetrics } from './transport.js';
export { patchStatus, type WithStatus } from './status.js';
export {
  type Status,
  type StatusCause,
  type StatusDetails,
  ApiError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  MethodNotAllowedError,
  ConflictError,
  AlreadyExistsError,
  GoneError,
  InvalidError,
  TooManyRequestsError,
  InternalError,
  ServiceUnavailableError,
  TimeoutError,
  errorFromResponse,
  parseStatus,
  isNotFound,
  isConflict,
  isAlreadyExists,
  isInvalid,
  isForbidden,
  isGone,
  ignoreNotFound,
} from './errors.js';
// Raised by the RESTMapper for kinds the server does not serve (e.g. a CRD not installed yet).
export { TransportError } from '../rest/index.js';
export { NoKindMatchError } from '../restmapper/index.js';
