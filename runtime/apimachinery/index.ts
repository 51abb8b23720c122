/**
 * apimachinery: object shapes, keys, apiVersion parsing, discovery-backed REST mapping and the
 * one HTTP layer (connection, credentials) the cache, discovery and client share.
 */
export {
  type ClientObject,
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
  type ConnectionSource,
} from './http.js';
export {
  ApiConnection,
  type Answer,
  type ConnectionOptions,
  DEFAULT_MAX_SOCKETS,
  connectionFor,
  connectionOf,
  parseWarnings,
} from './connection.js';
export { deepCopy } from './deep-copy.js';
export { onAbort, linkSignals, type LinkedSignal } from './abort.js';
export { Credentials, CredentialError, type Credential } from './credentials.js';
export {
  type KubeConfigSource,
  type LoadKubeConfigOptions,
  KubeConfigError,
  LoadedKubeConfig,
  loadKubeConfig,
  loadKubeConfigFile,
  SERVICE_ACCOUNT_DIR,
} from './kubeconfig.js';
