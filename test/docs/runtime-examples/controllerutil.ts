/** Make the object you own look as you want it, own it, and hold the owner back until you clean up. */
import type { V1Deployment } from '@kubernetes/client-node';
import type { Client } from '../../../runtime/client/index.js';
import {
  addFinalizer,
  createOrUpdate,
  removeFinalizer,
  setControllerReference,
} from '../../../runtime/controllerutil/index.js';
import type { Memcached } from './apimachinery.js';

const FINALIZER = 'cache.example.com/backup';

export async function reconcileDeployment(
  client: Client,
  memcached: Memcached,
): Promise<void> {
  if (memcached.metadata?.deletionTimestamp) {
    // … take the last backup, then let the API server delete it:
    if (removeFinalizer(memcached, FINALIZER)) await client.update(memcached);
    return;
  }
  if (addFinalizer(memcached, FINALIZER)) await client.update(memcached);

  const deployment: V1Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      namespace: memcached.metadata?.namespace,
      name: memcached.metadata?.name,
    },
  };
  // 'created', 'updated' or 'unchanged': no write when nothing differs.
  const result = await createOrUpdate(client, deployment, (d) => {
    d.spec ??= {
      selector: { matchLabels: { app: 'memcached' } },
      template: {},
    };
    d.spec.replicas = memcached.spec?.size ?? 1;
    // deleted with its Memcached; its changes reconcile it
    setControllerReference(memcached, d);
  });
  console.log(`deployment ${result}`);
}
