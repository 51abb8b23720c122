/**
 * Object shapes shared by every runtime module: `ClientObject` (what the runtime takes), the loose
 * `KubeObject` (what it returns untyped), `GroupVersionKind`, the typed `Kind<T>`, `ObjectKey`,
 * and the pure helpers that turn one into another (keys, apiVersion strings).
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';

/** A kind within an API group version; group '' is the core group (apiVersion 'v1'). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * A kind that also carries the TypeScript type of its objects, so a client read or a watch on it
 * is typed without a type argument: `client.get(podKind, key)` is a `Promise<V1Pod>`. The type
 * lives only in the checker (the property is never set); at run time it is a plain GVK.
 */
export interface Kind<T> extends GroupVersionKind {
  readonly __objectType?: T;
}

/**
 * An object's envelope and metadata only: what a metadata-only watch or read returns
 * (meta.k8s.io/v1 PartialObjectMetadata, with apiVersion and kind set to the object's own kind,
 * as controller-runtime does). Labels, annotations, owner references and finalizers are there;
 * spec, status and data are not.
 */
export interface PartialObjectMetadata {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
}

/** A kind read and cached as metadata only (see metadataOnly). */
export interface MetadataOnlyKind extends Kind<PartialObjectMetadata> {
  readonly metadataOnly: true;
}

/**
 * `metadataOnly(secretKind)`: the same kind, read and cached as metadata only
 * (controller-runtime's OnlyMetadata / PartialObjectMetadata). Watching every Secret, Pod or
 * ConfigMap of a cluster this way keeps a fraction of the memory: the cache holds a separate
 * informer for it, whose objects carry only apiVersion, kind and metadata.
 */
export function metadataOnly(kind: GroupVersionKind | { apiVersion: string; kind: string }): MetadataOnlyKind {
  const gvk = 'apiVersion' in kind ? gvkFromApiVersion(kind.apiVersion, kind.kind) : kind;
  return { group: gvk.group, version: gvk.version, kind: gvk.kind, metadataOnly: true };
}

/** Whether a kind is read as metadata only. */
export function isMetadataOnly(kind: GroupVersionKind | { apiVersion: string; kind: string }): boolean {
  return (kind as Partial<MetadataOnlyKind>).metadataOnly === true;
}

/** `kindFor<Memcached>({ group, version, kind: 'Memcached' })`: the same GVK, typed. */
export function kindFor<T>(gvk: GroupVersionKind): Kind<T> {
  return { group: gvk.group, version: gvk.version, kind: gvk.kind };
}

/**
 * What the runtime takes wherever it takes an object (controller-runtime's client.Object): any
 * object with Kubernetes' envelope. It has no index signature, so classes and interfaces fit as
 * they are: every @kubernetes/client-node model (V1Pod, V1Deployment, …), a project's kinds, and
 * KubeObject itself.
 */
export interface ClientObject {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
}

/**
 * Any Kubernetes object as it travels over the wire; typed fields beyond metadata are opaque.
 * What the runtime returns when it does not know the type (an unstructured read); it takes
 * ClientObject, which this and every typed object satisfy.
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  [field: string]: unknown;
}

/** Names one object; namespace is absent for cluster-scoped objects. */
export interface ObjectKey {
  namespace?: string;
  name: string;
}

/** Raised when a string or object cannot be interpreted as the shape asked for. */
export class InvalidObjectError extends Error {
  override readonly name = 'InvalidObjectError';
}

export function objectKey(obj: ClientObject): ObjectKey {
  const name = obj.metadata?.name;
  if (!name) throw new InvalidObjectError('object has no metadata.name');
  const namespace = obj.metadata?.namespace;
  return namespace ? { namespace, name } : { name };
}

/** 'ns/name' for namespaced keys, 'name' for cluster-scoped ones (client-go's MetaNamespaceKey). */
export function keyString(key: ObjectKey): string {
  return key.namespace ? `${key.namespace}/${key.name}` : key.name;
}

/** Inverse of `keyString`. Names cannot contain '/', so the first slash separates the parts. */
export function parseKey(key: string): ObjectKey {
  const slash = key.indexOf('/');
  if (slash < 0) {
    if (key === '') throw new InvalidObjectError('empty key');
    return { name: key };
  }
  const namespace = key.slice(0, slash);
  const name = key.slice(slash + 1);
  if (name === '' || name.includes('/')) throw new InvalidObjectError(`invalid key "${key}"`);
  return namespace ? { namespace, name } : { name };
}

/** The store key of an object: `keyString(objectKey(obj))`. */
export function objectKeyString(obj: ClientObject): string {
  return keyString(objectKey(obj));
}

export function gvkFromApiVersion(apiVersion: string, kind: string): GroupVersionKind {
  const parts = apiVersion.split('/');
  if (parts.length === 1 && parts[0]) return { group: '', version: parts[0], kind };
  if (parts.length === 2 && parts[0] && parts[1]) return { group: parts[0], version: parts[1], kind };
  throw new InvalidObjectError(`invalid apiVersion "${apiVersion}"`);
}

/** The GVK an object declares about itself. */
export function gvkOf(obj: ClientObject): GroupVersionKind {
  if (!obj.apiVersion || !obj.kind) throw new InvalidObjectError('object has no apiVersion/kind');
  return gvkFromApiVersion(obj.apiVersion, obj.kind);
}

/** 'v1' for the core group, 'apps/v1' otherwise. */
export function apiVersionOf(gvk: Pick<GroupVersionKind, 'group' | 'version'>): string {
  return gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
}

/** A stable string for maps keyed by GVK: 'apps/v1, Kind=Deployment' (as client-go prints it). */
export function gvkString(gvk: GroupVersionKind): string {
  return `${apiVersionOf(gvk)}, Kind=${gvk.kind}`;
}
