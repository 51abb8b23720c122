/** Ask discovery for a kind's plural and scope, then build the URL path of one object. */
import { loadKubeConfig } from '../../../runtime/kubeconfig/index.js';
import { connectionFor } from '../../../runtime/rest/index.js';
import {
  NoKindMatchError,
  RESTMapper,
  resourcePath,
} from '../../../runtime/restmapper/index.js';

const mapper = new RESTMapper(connectionFor(loadKubeConfig()));

try {
  const mapping = await mapper.mapping({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
  });
  // /apis/apps/v1/namespaces/default/deployments/web
  console.log(resourcePath(mapping, { namespace: 'default', name: 'web' }));
} catch (err) {
  // The kind is not served, e.g. its CRD is not installed yet.
  if (err instanceof NoKindMatchError) console.error(err.message);
  else throw err;
}
