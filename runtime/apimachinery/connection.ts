/**
 * Moved to runtime/rest/connection.ts in tsop 0.2.0. This file keeps a deep import of the old path
 * (`../runtime/apimachinery/connection.js`) compiling until 0.3.0, which removes it.
 */
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  TransportError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type RequestMetrics,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type KubeRequest,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type Answer,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type ConnectionOptions,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  DEFAULT_MAX_SOCKETS,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  openRequestCount,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  parseWarnings,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  connectionFor,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  connectionOf,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  ApiConnection,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  readBody,
} from '../rest/index.js';
