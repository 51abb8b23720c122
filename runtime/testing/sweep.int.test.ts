/**
 * The sweep that clears a shared plane between suites, on the fuller plane it serves: an object
 * the controllers make again after it is deleted counts as gone (it is another object), and a
 * deletion that cannot finish says what holds it. The plane's own start is checked too: the
 * controller-manager's objects in `default` are there when it is handed out, so no suite takes
 * them for its own.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { adminIdentity } from '../envtest/index.js';
import { describeWithControlPlane } from './control-plane.js';
import { snapshotClusterObjects, sweepClusterObjects, type ClusterSnapshot } from './sweep.js';

const crds = fileURLToPath(new URL('../client/testdata/', import.meta.url));
const ROOT_CA = 'kube-root-ca.crt';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** `snapshot` as if `name` had not been in `collection` when it was taken. */
function without(snapshot: ClusterSnapshot, collection: string, name: string): ClusterSnapshot {
  const names = new Set(snapshot.get(collection));
  names.delete(name);
  return new Map([...snapshot, [collection, names]]);
}

describeWithControlPlane('sweeping a shared fuller plane', { shared: true, controllers: true }, (env) => {
  it("has the controller-manager's ServiceAccount and root CA ConfigMap in default when it is handed out", async () => {
    const client = createClient(env.cp.kubeConfig);
    const read = (kind: string, name: string) => client.get({ apiVersion: 'v1', kind }, { namespace: 'default', name });
    expect((await read('ServiceAccount', 'default')).metadata?.name).toBe('default');
    expect((await read('ConfigMap', ROOT_CA)).metadata?.name).toBe(ROOT_CA);
  });

  it('takes an object the controllers make again for gone once the one it deleted is', async () => {
    const client = createClient(env.cp.kubeConfig);
    const readRootCa = () =>
      client.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default', name: ROOT_CA });
    const uid = (await readRootCa()).metadata?.uid;
    const tls = adminIdentity(env.cp.kubeConfig);
    const before = without(await snapshotClusterObjects(env.cp.server, tls), CONFIGMAPS, ROOT_CA);

    await sweepClusterObjects(env.cp.server, tls, before, 30_000);

    const again = await readRootCa();
    expect(again.metadata?.uid).toBeDefined();
    expect(again.metadata?.uid).not.toBe(uid);
  });

  it('names what holds a deletion that cannot finish: the finalizer of an object of a swept CRD', async () => {
    const client = createClient(env.cp.kubeConfig);
    const tls = adminIdentity(env.cp.kubeConfig);
    const before = await snapshotClusterObjects(env.cp.server, tls);
    await env.cp.installCRDs([crds]);
    const gadget = {
      apiVersion: 'clienttest.tsop.dev/v1',
      kind: 'Gadget',
      metadata: { name: 'held', namespace: env.namespace, finalizers: ['clienttest.tsop.dev/hold'] },
      spec: { size: 1 },
    };
    await client.create(gadget);

    await expect(sweepClusterObjects(env.cp.server, tls, before, 10_000)).rejects.toThrow(
      /customresourcedefinitions\/gadgets\.clienttest\.tsop\.dev to be deleted; it is held by finalizers \[customresourcecleanup\.apiextensions\.k8s\.io\], Terminating True \(InstanceDeletion\w+: /,
    );

    // Without its finalizer the object goes, and the CRD with it.
    const held = await client.get(gadget, { namespace: env.namespace, name: 'held' });
    await client.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    await sweepClusterObjects(env.cp.server, tls, before, 60_000);
    const left = await client.list({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' });
    expect(left.items.map((c) => c.metadata?.name)).not.toContain('gadgets.clienttest.tsop.dev');
  });
});
