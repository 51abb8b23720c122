/** Read from the cache, write to the API server, and tell the API's errors apart. */
import type { V1ConfigMap } from '@kubernetes/client-node';
import { configMapKind } from '../../../runtime/apimachinery/index.js';
import {
  type Client,
  isAlreadyExists,
  isNotFound,
  mergePatch,
} from '../../../runtime/client/index.js';

export async function ensureSettings(
  client: Client,
  namespace: string,
): Promise<V1ConfigMap> {
  try {
    const found = await client.get(configMapKind, {
      namespace,
      name: 'settings',
    });
    // Only what changes is sent: a JSON merge patch.
    return await client.patch(found, mergePatch({ data: { mode: 'fast' } }));
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const created: V1ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace, name: 'settings' },
    data: { mode: 'fast' },
  };
  return client.create(created).catch(async (err: unknown) => {
    if (isAlreadyExists(err))
      return client.get(configMapKind, { namespace, name: 'settings' });
    throw err;
  });
}
