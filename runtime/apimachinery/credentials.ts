/**
 * Moved to runtime/kubeconfig/credentials.ts in tsop 0.2.0. This file keeps a deep import of the old path
 * (`../runtime/apimachinery/credentials.js`) compiling until 0.3.0, which removes it.
 */
export {
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  type Credential,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  CredentialError,
  /** @deprecated since tsop 0.2.0, removed in 0.3.0: import it from runtime/kubeconfig/index.js. */
  Credentials,
} from '../kubeconfig/index.js';
