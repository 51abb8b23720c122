/**
 * kubeconfig: where the process finds its API server and who it says it is (client-go's
 * `clientcmd` and its credential plugins). `loadKubeConfig` reads $KUBECONFIG, ~/.kube/config or
 * the in-cluster ServiceAccount; `KubeConfigSource` is what the rest of the runtime takes (the
 * runtime's `LoadedKubeConfig` and client-node's `KubeConfig` both are one); `Credentials` keeps
 * the current user's token, token file or exec plugin answer fresh for rest/'s connection.
 */
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
