/**
 * What a suite on a shared control plane leaves behind is removed when it ends: the
 * cluster-scoped objects it created of the kinds tests make (CRDs, with their objects; RBAC;
 * webhook configurations; priority classes), and the built-in objects it created in `default`.
 * A snapshot of their names is taken when the suite starts; whatever is new at its end is
 * deleted, so the next file on the plane meets neither a ClusterRole that grants more than its
 * own, nor a CRD of the same name with another schema, nor a Deployment of its own name.
 * Namespaces stay on the basic plane (without a controller-manager they never finish deleting,
 * and each suite's objects live in namespaces of its own); the fuller plane deletes them.
 */
import { waitForList, type CustomResourceDefinition } from '../envtest/crds.js';
import { send, waitFor, type TlsIdentity } from '../envtest/http.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
/** The collections swept, CRDs first (their objects go with them), each listed by name. */
const SWEPT = [
  CRDS,
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  '/apis/scheduling.k8s.io/v1/priorityclasses',
  // The namespace every suite may write to without making one: what a suite leaves there, a
  // later suite of the same names would meet (AlreadyExists, or a stale object read as its own).
  ...[
    '/api/v1/namespaces/default/pods',
    '/api/v1/namespaces/default/configmaps',
    '/api/v1/namespaces/default/secrets',
    '/api/v1/namespaces/default/serviceaccounts',
    '/api/v1/namespaces/default/services',
    '/api/v1/namespaces/default/persistentvolumeclaims',
    '/apis/apps/v1/namespaces/default/deployments',
    '/apis/apps/v1/namespaces/default/statefulsets',
    '/apis/apps/v1/namespaces/default/daemonsets',
    '/apis/apps/v1/namespaces/default/replicasets',
    '/apis/batch/v1/namespaces/default/jobs',
    '/apis/batch/v1/namespaces/default/cronjobs',
    '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
    '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
    '/apis/coordination.k8s.io/v1/namespaces/default/leases',
    '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
  ],
] as const;
/** Swept on the fuller plane only, where deleted namespaces are emptied and removed. */
const NAMESPACES = '/api/v1/namespaces';

export type ClusterSnapshot = ReadonlyMap<string, ReadonlySet<string>>;

interface Listed {
  metadata: { name: string; uid: string; finalizers?: string[] };
  status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
}

async function list(server: string, tls: TlsIdentity, collection: string): Promise<Listed[]> {
  const res = await send(`${server}${collection}`, { tls, timeoutMs: 30_000 });
  if (res.status !== 200) throw new Error(`listing ${collection} failed (${res.status}): ${res.body}`);
  return (JSON.parse(res.body) as { items: Listed[] }).items;
}

export async function snapshotClusterObjects(server: string, tls: TlsIdentity): Promise<ClusterSnapshot> {
  const entries = await Promise.all(
    [...SWEPT, NAMESPACES].map(
      async (c) => [c, new Set((await list(server, tls, c)).map((o) => o.metadata.name))] as const,
    ),
  );
  return new Map(entries);
}

/** The objects in `collection` now whose names were not there at `before`. */
async function createdSince(
  server: string,
  tls: TlsIdentity,
  before: ClusterSnapshot,
  collection: string,
): Promise<Listed[]> {
  return (await list(server, tls, collection)).filter((o) => !before.get(collection)?.has(o.metadata.name));
}

/**
 * Deletes what was created since `before`, and waits until it is gone (all of a collection at
 * once: a CRD's deletion waits on the API server's finalizer, which a loaded machine can hold up
 * for over a minute). With `namespaces` (a plane whose controller-manager empties deleted
 * namespaces), the suite's namespaces are deleted too, without waiting: their Deployments and
 * Pods would otherwise keep the shared plane's controllers and kwok busy for every later suite.
 */
export async function sweepClusterObjects(
  server: string,
  tls: TlsIdentity,
  before: ClusterSnapshot,
  timeoutMs: number,
  options: { namespaces?: boolean } = {},
): Promise<void> {
  for (const collection of SWEPT) {
    const created = await createdSince(server, tls, before, collection);
    if (collection === CRDS)
      await Promise.all(created.map((crd) => serveObjectsOf(server, tls, crd.metadata.name, timeoutMs)));
    for (const { metadata } of created) await remove(server, tls, `${collection}/${metadata.name}`);
    await Promise.all(
      created.map(({ metadata }) => waitGone(server, tls, `${collection}/${metadata.name}`, metadata.uid, timeoutMs)),
    );
  }
  if (options.namespaces) {
    for (const { metadata } of await createdSince(server, tls, before, NAMESPACES))
      await remove(server, tls, `${NAMESPACES}/${metadata.name}`);
  }
}

/**
 * Waits until the object at `path` whose uid is `uid` is gone: no object of that name, or another
 * one (a controller made it again). When it is not, says what holds it: its finalizers, and a
 * CRD's Terminating condition, which names the step of its instance clean-up that failed.
 */
async function waitGone(server: string, tls: TlsIdentity, path: string, uid: string, timeoutMs: number): Promise<void> {
  let holding = '';
  try {
    await waitFor(`${path} to be deleted`, timeoutMs, async () => {
      const res = await send(`${server}${path}`, { tls });
      if (res.status === 404) return true;
      if (res.status !== 200) return false;
      const object = JSON.parse(res.body) as Listed;
      holding = heldBy(object);
      return object.metadata.uid !== uid;
    });
  } catch (error) {
    throw holding ? new Error(`${(error as Error).message}; it is held by ${holding}`) : error;
  }
}

function heldBy(object: Listed): string {
  const terminating = object.status?.conditions?.find((c) => c.type === 'Terminating');
  return [
    object.metadata.finalizers?.length ? `finalizers [${object.metadata.finalizers.join(', ')}]` : '',
    terminating ? `Terminating ${terminating.status} (${terminating.reason ?? ''}: ${terminating.message ?? ''})` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * Lists a CRD's objects in each served version until the API server answers. The API server
 * makes a kind's storage on the first request for it, and its watch cache answers "storage is
 * (re)initializing" (429) until it has listed; a CRD deleted before anything asked for its objects
 * has its finalizer make that first request, fail, and back off further at every try — on
 * kube-apiserver 1.36 such a CRD stayed in Terminating for minutes, where one asked first goes
 * in seconds.
 */
async function serveObjectsOf(server: string, tls: TlsIdentity, name: string, timeoutMs: number): Promise<void> {
  const res = await send(`${server}${CRDS}/${name}`, { tls });
  if (res.status !== 200) return;
  const crd = JSON.parse(res.body) as CustomResourceDefinition;
  // One version makes the storage of all; the stored one needs no conversion webhook to answer.
  const version =
    crd.spec.versions.find((v) => v.storage === true && v.served) ?? crd.spec.versions.find((v) => v.served);
  if (!version) return;
  // Best effort, briefly: a CRD whose names were never accepted has nothing to serve, and is deleted all the same.
  await waitForList(server, tls, crd, version.name, 'listed before the CRD goes', Math.min(timeoutMs, 15_000)).catch(
    () => undefined,
  );
}

async function remove(server: string, tls: TlsIdentity, path: string): Promise<void> {
  // No grace period: a Pod on a plane without kubelets would otherwise wait for one.
  const res = await send(`${server}${path}?gracePeriodSeconds=0`, { method: 'DELETE', tls });
  if (res.status >= 300 && res.status !== 404 && res.status !== 409)
    throw new Error(`deleting ${path} failed (${res.status}): ${res.body}`);
}
