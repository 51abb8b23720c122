/**
 * Moved to runtime/rest/http.ts in tsop 0.2.0. This file keeps a deep import of the old path
 * (`../runtime/apimachinery/http.js`) compiling until 0.3.0, which removes it.
 */
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type ApiStatus,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  HttpStatusError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type ConnectionSource,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  openRequest,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  statusError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  requestJSON,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type KubeRequest,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type RequestMetrics,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  TransportError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  openRequestCount,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  readBody,
} from '../rest/index.js';
