/**
 * Moved to runtime/restmapper/restmapper.ts in tsop 0.2.0. This file keeps a deep import of the old path
 * (`../runtime/apimachinery/restmapper.js`) compiling until 0.3.0, which removes it.
 */
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  type ResourceMapping,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  NoKindMatchError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  groupVersionPath,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  type PathOptions,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  resourcePath,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  RESTMapper,
} from '../restmapper/index.js';
