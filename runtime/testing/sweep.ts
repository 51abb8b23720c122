/**
 * What a suite on a shared control plane leaves cluster-wide is removed when it ends: the
 * cluster-scoped objects it created of the kinds tests make (CRDs, with their objects; RBAC;
 * webhook configurations; priority classes). A snapshot of their names is taken when the suite
 * starts; whatever is new at its end is deleted, so the next file on the plane meets neither a
 * ClusterRole that grants more than its own nor a CRD of the same name with another schema.
 * Namespaces stay on the basic plane (without a controller-manager they never finish deleting,
 * and each suite's objects live in namespaces of its own); the fuller plane deletes them.
 */
import { send, waitFor, type TlsIdentity } from '../envtest/http.js';

/** The collections swept, CRDs first (their objects go with them), each listed by name. */
const SWEPT = [
  '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  '/apis/scheduling.k8s.io/v1/priorityclasses',
] as const;
/** Swept on the fuller plane only, where deleted namespaces are emptied and removed. */
const NAMESPACES = '/api/v1/namespaces';

export type ClusterSnapshot = ReadonlyMap<string, ReadonlySet<string>>;

async function names(server: string, tls: TlsIdentity, collection: string): Promise<Set<string>> {
  const res = await send(`${server}${collection}`, { tls, timeoutMs: 30_000 });
  if (res.status !== 200) throw new Error(`listing ${collection} failed (${res.status}): ${res.body}`);
  return new Set((JSON.parse(res.body) as { items: Array<{ metadata: { name: string } }> }).items.map((i) => i.metadata.name));
}

export async function snapshotClusterObjects(server: string, tls: TlsIdentity): Promise<ClusterSnapshot> {
  const entries = await Promise.all([...SWEPT, NAMESPACES].map(async (c) => [c, await names(server, tls, c)] as const));
  return new Map(entries);
}

/** The names in `collection` now that were not there at `before`. */
async function createdSince(server: string, tls: TlsIdentity, before: ClusterSnapshot, collection: string): Promise<string[]> {
  return [...(await names(server, tls, collection))].filter((n) => !before.get(collection)?.has(n));
}

/**
 * Deletes what was created since `before`, and waits until it is gone (all of a collection at
 * once: a CRD's deletion waits on the API server's finalizer, which a loaded machine can hold up
 * for over a minute). With `namespaces` (a plane whose controller-manager empties deleted
 * namespaces), the suite's namespaces are deleted too, without waiting: their Deployments and
 * Pods would otherwise keep the shared plane's controllers and kwok busy for every later suite.
 */
export async function sweepClusterObjects(server: string, tls: TlsIdentity, before: ClusterSnapshot, timeoutMs: number, options: { namespaces?: boolean } = {}): Promise<void> {
  for (const collection of SWEPT) {
    const created = await createdSince(server, tls, before, collection);
    for (const name of created) await remove(server, tls, `${collection}/${name}`);
    await Promise.all(
      created.map((name) => waitFor(`${collection}/${name} to be deleted`, timeoutMs, async () => (await send(`${server}${collection}/${name}`, { tls })).status === 404)),
    );
  }
  if (options.namespaces) {
    for (const name of await createdSince(server, tls, before, NAMESPACES)) await remove(server, tls, `${NAMESPACES}/${name}`);
  }
}

async function remove(server: string, tls: TlsIdentity, path: string): Promise<void> {
  const res = await send(`${server}${path}`, { method: 'DELETE', tls });
  if (res.status >= 300 && res.status !== 404 && res.status !== 409) throw new Error(`deleting ${path} failed (${res.status}): ${res.body}`);
}
