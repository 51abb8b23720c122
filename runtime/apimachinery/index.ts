/**
 * apimachinery: the object model (model.ts says what it holds) and, until 0.3.0, the names that
 * moved from here to kubeconfig/, rest/ and restmapper/. Code of users imports this file; the
 * runtime's own modules import model.ts, so the object model alone loads no HTTP layer.
 */
export * from './model.js';

// What this module exported before the HTTP layer, the kubeconfig and the REST mapper moved out:
// kept, so code that imports them from here still compiles, and marked, so editors strike them
// through and `tsop manifests` warns at each import. Removed in 0.3.0.
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type ApiStatus,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type KubeRequest,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  HttpStatusError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  TransportError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type RequestMetrics,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  openRequest,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  openRequestCount,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  requestJSON,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  readBody,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  statusError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type ConnectionSource,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  ApiConnection,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type Answer,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  type ConnectionOptions,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  DEFAULT_MAX_SOCKETS,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  connectionFor,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  connectionOf,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/rest/index.js. */
  parseWarnings,
} from '../rest/index.js';
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  Credentials,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  CredentialError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  type Credential,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  type KubeConfigSource,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  type LoadKubeConfigOptions,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  KubeConfigError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  LoadedKubeConfig,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  loadKubeConfig,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  loadKubeConfigFile,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  SERVICE_ACCOUNT_DIR,
} from '../kubeconfig/index.js';
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  type ResourceMapping,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  type PathOptions,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  NoKindMatchError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  RESTMapper,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  resourcePath,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/restmapper/index.js. */
  groupVersionPath,
} from '../restmapper/index.js';
