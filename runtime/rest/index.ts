/**
 * rest: the process's one HTTP layer to its API server (client-go's `rest` and `transport`).
 * `ApiConnection` is one per KubeConfig, shared by discovery, informers and the client: its
 * kept-alive pool, TLS, proxy and credentials, retries of 429/5xx and of a refused credential;
 * `requestJSON` and `openRequest` send through it. protobuf.ts reads the API server's protobuf
 * encoding of built-in kinds into the objects its JSON gives. Below it sit kubeconfig/ (where the server and
 * credentials come from) and apimachinery/ (the object model); above it restmapper/, the cache
 * and the client.
 */
export {
  type ApiStatus,
  type KubeRequest,
  HttpStatusError,
  TransportError,
  type RequestMetrics,
  openRequest,
  openRequestCount,
  openStream,
  type StreamAnswer,
  DeadConnectionError,
  requestJSON,
  requestDecoded,
  readBody,
  statusError,
  type ConnectionSource,
} from './http.js';
export {
  ApiConnection,
  type Answer,
  type ConnectionOptions,
  DEFAULT_MAX_SOCKETS,
  METADATA_ACCEPT,
  connectionFor,
  connectionOf,
  parseWarnings,
} from './connection.js';
export {
  type DecodeOptions,
  type ProtobufTable,
  type ProtobufWatchEvent,
  decodeObject,
  decodeWatchEvent,
  FrameSplitter,
  isProtobuf,
  PROTOBUF_ACCEPT,
  PROTOBUF_CONTENT_TYPE,
  ProtobufDecodeError,
  protobufTable,
} from './protobuf.js';
