/** Find the API server as kubectl does, and see which context and server that is. */
import { createClient } from '../../../runtime/client/index.js';
import { loadKubeConfig } from '../../../runtime/kubeconfig/index.js';

// $KUBECONFIG, then ~/.kube/config, then the in-cluster ServiceAccount.
const kubeConfig = loadKubeConfig();
console.log(
  kubeConfig.getCurrentContext(),
  kubeConfig.getCurrentCluster()?.server,
);

// Everything that talks to the API server takes it: the manager, a client, an
// elector.
export const client = createClient(kubeConfig);
