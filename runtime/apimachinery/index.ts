/**
 * apimachinery: object shapes, keys, apiVersion parsing, discovery-backed REST mapping and the
 * minimal HTTP layer the cache and client build on.
 */
export {
  type GroupVersionKind,
  type Kind,
  kindFor,
  type KubeObject,
  type ObjectKey,
  InvalidObjectError,
  objectKey,
  objectKeyString,
  keyString,
  parseKey,
  gvkFromApiVersion,
  gvkOf,
  apiVersionOf,
  gvkString,
} from './types.js';
export * from './kinds.js';
export {
  type ResourceMapping,
  type PathOptions,
  NoKindMatchError,
  RESTMapper,
  resourcePath,
  groupVersionPath,
} from './restmapper.js';
export {
  type ApiStatus,
  type KubeRequest,
  HttpStatusError,
  TransportError,
  type RequestMetrics,
  openRequest,
  openRequestCount,
  requestJSON,
  readBody,
  statusError,
} from './http.js';
