/**
 * What an object is hashed on. An object of a reconciled ("main") kind is hashed on its own
 * namespace/name (name alone when cluster-scoped), the key of the requests it is reconciled
 * under; an object of an owned kind follows its controller owner, so it lands on the shard that
 * reconciles the owner and sits in that shard's cache. An owned object whose controller owner is
 * not of a main kind belongs to no shard. UIDs are not used: they are unknown before an object
 * is created, and an owner reference carries only the owner's name. Pure.
 */
import { gvkFromApiVersion, type GroupVersionKind, type KubeObject } from '../apimachinery/model.js';

/** 'apps/Deployment', '/ConfigMap': a kind without its version (ownership ignores versions). */
export function groupKind(gvk: Pick<GroupVersionKind, 'group' | 'kind'>): string {
  return `${gvk.group}/${gvk.kind}`;
}

/** The kinds a ring's controllers reconcile, and whether each is namespaced. */
export type MainKinds = ReadonlyMap<string, { namespaced: boolean }>;

/** An owner reference with controller: true, reduced to what sharding needs. */
export interface ControllerOwner {
  groupKind: string;
  name: string;
  uid: string;
}

export function controllerOwnerOf(obj: Pick<KubeObject, 'metadata'>): ControllerOwner | undefined {
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!ref?.apiVersion || !ref.kind || !ref.name) return undefined;
  let gvk: GroupVersionKind;
  try {
    gvk = gvkFromApiVersion(ref.apiVersion, ref.kind);
  } catch {
    return undefined;
  }
  return { groupKind: groupKind(gvk), name: ref.name, uid: ref.uid ?? '' };
}

/** The hash key of an object of a main kind: its namespace/name, or its name when cluster-scoped. */
export function ownKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ''}` : (obj.metadata?.name ?? '');
}

/**
 * The owner an owned object follows: its controller owner when that is of a main kind, with the
 * owner's hash key (an owner is in the object's namespace, or cluster-scoped). Undefined: the
 * object belongs to no shard.
 */
export function followedOwner(obj: KubeObject, main: MainKinds): (ControllerOwner & { key: string }) | undefined {
  const owner = controllerOwnerOf(obj);
  if (!owner) return undefined;
  const kind = main.get(owner.groupKind);
  if (!kind) return undefined;
  const ns = obj.metadata?.namespace;
  return { ...owner, key: kind.namespaced && ns ? `${ns}/${owner.name}` : owner.name };
}
