/**
 * Typed kinds of the built-in API types an operator creates, owns or watches most often, each
 * carrying its @kubernetes/client-node model: `client.get(deploymentKind, key)` returns a
 * `V1Deployment`, `.owns(podKind)` needs no hand-written apiVersion/kind. Any other kind is one
 * line: `kindFor<V1Foo>({ group, version, kind })`. `KindRegistry` is the set of kinds a manager
 * knows (controller-runtime's Scheme, as far as a TypeScript operator needs one): these built-in
 * kinds plus every kind a controller reconciles, owns or watches, looked up by group/version/kind.
 */
import type {
  EventsV1Event,
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1ConfigMap,
  V1CronJob,
  V1CustomResourceDefinition,
  V1DaemonSet,
  V1Deployment,
  V1EndpointSlice,
  V1Ingress,
  V1Job,
  V1Lease,
  V1Namespace,
  V1NetworkPolicy,
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1ReplicaSet,
  V1Role,
  V1RoleBinding,
  V1Secret,
  V1Service,
  V1ServiceAccount,
  V1StatefulSet,
  V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node';
import {
  apiVersionOf,
  gvkFromApiVersion,
  gvkOf,
  gvkString,
  kindFor,
  type ClientObject,
  type GroupVersionKind,
  type Kind,
  type KubeObject,
} from './types.js';

// core/v1
export const podKind = kindFor<V1Pod>({ group: '', version: 'v1', kind: 'Pod' });
export const serviceKind = kindFor<V1Service>({ group: '', version: 'v1', kind: 'Service' });
export const configMapKind = kindFor<V1ConfigMap>({ group: '', version: 'v1', kind: 'ConfigMap' });
export const secretKind = kindFor<V1Secret>({ group: '', version: 'v1', kind: 'Secret' });
export const serviceAccountKind = kindFor<V1ServiceAccount>({ group: '', version: 'v1', kind: 'ServiceAccount' });
export const namespaceKind = kindFor<V1Namespace>({ group: '', version: 'v1', kind: 'Namespace' });
export const nodeKind = kindFor<V1Node>({ group: '', version: 'v1', kind: 'Node' });
export const persistentVolumeClaimKind = kindFor<V1PersistentVolumeClaim>({
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
});
export const persistentVolumeKind = kindFor<V1PersistentVolume>({ group: '', version: 'v1', kind: 'PersistentVolume' });

// apps/v1
export const deploymentKind = kindFor<V1Deployment>({ group: 'apps', version: 'v1', kind: 'Deployment' });
export const statefulSetKind = kindFor<V1StatefulSet>({ group: 'apps', version: 'v1', kind: 'StatefulSet' });
export const daemonSetKind = kindFor<V1DaemonSet>({ group: 'apps', version: 'v1', kind: 'DaemonSet' });
export const replicaSetKind = kindFor<V1ReplicaSet>({ group: 'apps', version: 'v1', kind: 'ReplicaSet' });

// batch/v1
export const jobKind = kindFor<V1Job>({ group: 'batch', version: 'v1', kind: 'Job' });
export const cronJobKind = kindFor<V1CronJob>({ group: 'batch', version: 'v1', kind: 'CronJob' });

// networking, discovery, policy, autoscaling
export const ingressKind = kindFor<V1Ingress>({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' });
export const networkPolicyKind = kindFor<V1NetworkPolicy>({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
});
export const endpointSliceKind = kindFor<V1EndpointSlice>({
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
});
export const podDisruptionBudgetKind = kindFor<V1PodDisruptionBudget>({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
});
export const horizontalPodAutoscalerKind = kindFor<V2HorizontalPodAutoscaler>({
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
});

// RBAC, coordination, events, apiextensions
export const roleKind = kindFor<V1Role>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' });
export const roleBindingKind = kindFor<V1RoleBinding>({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'RoleBinding',
});
export const clusterRoleKind = kindFor<V1ClusterRole>({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRole',
});
export const clusterRoleBindingKind = kindFor<V1ClusterRoleBinding>({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRoleBinding',
});
export const leaseKind = kindFor<V1Lease>({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' });
export const eventKind = kindFor<EventsV1Event>({ group: 'events.k8s.io', version: 'v1', kind: 'Event' });
export const customResourceDefinitionKind = kindFor<V1CustomResourceDefinition>({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
});

/** Every built-in kind above: what a new KindRegistry knows before any controller is added. */
export const builtinKinds: readonly GroupVersionKind[] = [
  podKind,
  serviceKind,
  configMapKind,
  secretKind,
  serviceAccountKind,
  namespaceKind,
  nodeKind,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  deploymentKind,
  statefulSetKind,
  daemonSetKind,
  replicaSetKind,
  jobKind,
  cronJobKind,
  ingressKind,
  networkPolicyKind,
  endpointSliceKind,
  podDisruptionBudgetKind,
  horizontalPodAutoscalerKind,
  roleKind,
  roleBindingKind,
  clusterRoleKind,
  clusterRoleBindingKind,
  leaseKind,
  eventKind,
  customResourceDefinitionKind,
];

/** A kind the registry does not know (scheme's "no kind is registered"). */
export class UnknownKindError extends Error {
  override readonly name = 'UnknownKindError';
}

/**
 * The kinds a manager knows, keyed by group/version/kind. Controllers add theirs when built, so
 * code that meets a kind only as data (an owner reference, an event's regarding object) can ask
 * whether the operator knows it and get a kind to read it with.
 */
export class KindRegistry {
  private readonly known = new Map<string, GroupVersionKind>();

  constructor(kinds: Iterable<GroupVersionKind> = builtinKinds) {
    for (const k of kinds) this.add(k);
  }

  /** Adds `kind` (adding it again changes nothing) and returns it, so `const fooKind = kinds.add(kindFor<Foo>(…))` reads well. */
  add<T>(kind: Kind<T>): Kind<T> {
    if (!kind.kind || !kind.version)
      throw new UnknownKindError(`cannot register ${JSON.stringify(kind)}: kind and version are required`);
    const key = gvkString(kind);
    if (!this.known.has(key)) this.known.set(key, { group: kind.group, version: kind.version, kind: kind.kind });
    return kind;
  }

  has(gvk: GroupVersionKind): boolean {
    return this.known.has(gvkString(gvk));
  }

  /** The registered kind, or undefined. */
  get(gvk: GroupVersionKind): Kind<KubeObject> | undefined {
    const found = this.known.get(gvkString(gvk));
    return found && { ...found };
  }

  /** The registered kind an apiVersion and kind name (an owner reference's, a manifest's) refer to; throws UnknownKindError. */
  forApiVersion(apiVersion: string, kind: string): Kind<KubeObject> {
    return this.require(gvkFromApiVersion(apiVersion, kind));
  }

  /** The registered kind of an object, from its apiVersion and kind; throws UnknownKindError. */
  of(obj: ClientObject): Kind<KubeObject> {
    return this.require(gvkOf(obj));
  }

  /** The registered versions of a group's kind, in the order they were added. */
  versionsOf(groupKind: { group: string; kind: string }): string[] {
    return [...this.known.values()]
      .filter((k) => k.group === groupKind.group && k.kind === groupKind.kind)
      .map((k) => k.version);
  }

  /** Every registered kind, sorted by apiVersion then kind. */
  all(): GroupVersionKind[] {
    return [...this.known.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, k]) => ({ ...k }));
  }

  private require(gvk: GroupVersionKind): Kind<KubeObject> {
    const found = this.get(gvk);
    if (found) return found;
    throw new UnknownKindError(
      `kind ${gvk.kind} (${apiVersionOf(gvk)}) is not registered with this manager: reconcile, own or watch it in a controller, or add it with mgr.kinds.add(kindFor<T>({ group, version, kind }))`,
    );
  }
}
