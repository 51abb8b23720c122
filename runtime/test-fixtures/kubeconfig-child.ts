/**
 * Child process of kubeconfig.int.test.ts: loads the kubeconfig of $KUBECONFIG with
 * loadKubeConfig(), writes and reads back a ConfigMap in $NAMESPACE through the runtime's client and prints
 * `ok <uid>`, or `error <name>: <message>`. With BLOCK_CLIENT_NODE=1 a module hook refuses to
 * resolve @kubernetes/client-node, so a run that succeeds proves the runtime never imported it.
 */
import { register } from 'node:module';
import type { KubeObject } from '../apimachinery/index.js';

if (process.env['BLOCK_CLIENT_NODE'] === '1') {
  const hook = `export async function resolve(specifier, context, next) {
    if (specifier === '@kubernetes/client-node' || specifier.startsWith('@kubernetes/client-node/')) throw new Error('client-node is blocked in this process');
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

const { loadKubeConfig } = await import('../kubeconfig/index.js');
const { createClient } = await import('../client/index.js');
try {
  const client = createClient(loadKubeConfig());
  const name = `kc-${process.pid}`;
  const namespace = process.env['NAMESPACE'] ?? 'default';
  const created: KubeObject = await client.create<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { from: 'loadKubeConfig' } });
  const read = await client.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace, name });
  await client.delete(read);
  client.close();
  console.log(read.metadata?.uid === created.metadata?.uid ? `ok ${read.metadata?.uid}` : 'error mismatch: read another object');
} catch (err) {
  console.log(`error ${(err as Error).name}: ${(err as Error).message}`);
}
