/** Send one request through the process's shared connection (retries, credentials and TLS included). */
import { loadKubeConfig } from '../../../runtime/kubeconfig/index.js';
import {
  connectionFor,
  HttpStatusError,
  requestJSON,
} from '../../../runtime/rest/index.js';

const connection = connectionFor(loadKubeConfig());

try {
  const version = await requestJSON<{ gitVersion: string }>(connection, {
    method: 'GET',
    path: '/version',
  });
  console.log(`API server ${version.gitVersion}`);
} catch (err) {
  if (err instanceof HttpStatusError)
    console.error(`refused: HTTP ${err.code}`);
  else throw err;
}
