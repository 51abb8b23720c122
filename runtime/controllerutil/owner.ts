/**
 * Owner references (controllerutil's SetControllerReference / SetOwnerReference).
 *
 * Pure functions on object metadata. Scope is read from the objects themselves: an owner with a
 * namespace is namespaced, an object without one is cluster-scoped (set the namespace before
 * calling). The garbage collector only honours same-namespace or cluster-scoped owners, so
 * anything else is refused here rather than silently never collected.
 */
import type { V1OwnerReference } from '@kubernetes/client-node';
import { gvkFromApiVersion } from '../apimachinery/model.js';
import type { ClientObject } from '../client/index.js';

/** The object already has a controller owner other than the one being set. */
export class AlreadyOwnedError extends Error {
  override readonly name = 'AlreadyOwnedError';
  constructor(
    readonly object: string,
    readonly owner: V1OwnerReference,
  ) {
    super(`object ${object} is already owned by another ${owner.kind} controller ${owner.name}`);
  }
}

/** The owner cannot own this object (cross-namespace, or namespaced owner of a cluster-scoped object). */
export class InvalidOwnerError extends Error {
  override readonly name = 'InvalidOwnerError';
}

export interface OwnerReferenceOptions {
  /** Foreground deletion waits for this dependent (default true for controller references). */
  blockOwnerDeletion?: boolean;
}

function describe(obj: ClientObject): string {
  const m = obj.metadata;
  return `${obj.kind ?? '?'} ${m?.namespace ? `${m.namespace}/` : ''}${m?.name ?? '?'}`;
}

function referenceTo(owner: ClientObject): V1OwnerReference {
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!owner.apiVersion || !owner.kind) throw new InvalidOwnerError('owner has no apiVersion/kind');
  if (!name || !uid)
    throw new InvalidOwnerError(`owner ${describe(owner)} has no name/uid (read it from the server first)`);
  return { apiVersion: owner.apiVersion, kind: owner.kind, name, uid };
}

function validateOwner(owner: ClientObject, obj: ClientObject): void {
  const ownerNs = owner.metadata?.namespace;
  if (!ownerNs) return; // cluster-scoped owners may own anything
  const objNs = obj.metadata?.namespace;
  if (!objNs) {
    throw new InvalidOwnerError(
      `cluster-scoped ${describe(obj)} must not have a namespace-scoped owner (${describe(owner)})`,
    );
  }
  if (objNs !== ownerNs) {
    throw new InvalidOwnerError(
      `cross-namespace owner references are disallowed: ${describe(owner)} cannot own ${describe(obj)}`,
    );
  }
}

/** Same object: same API group (any version), kind and name. */
function referSameObject(a: V1OwnerReference, b: V1OwnerReference): boolean {
  const ga = gvkFromApiVersion(a.apiVersion, a.kind).group;
  const gb = gvkFromApiVersion(b.apiVersion, b.kind).group;
  return ga === gb && a.kind === b.kind && a.name === b.name;
}

function upsert(obj: ClientObject, ref: V1OwnerReference): void {
  obj.metadata ??= {};
  const refs = (obj.metadata.ownerReferences ??= []);
  const i = refs.findIndex((r) => referSameObject(r, ref));
  if (i < 0) refs.push(ref);
  else refs[i] = ref;
}

/** The controller owner reference of `obj`, if any. */
export function getControllerOf(obj: ClientObject): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/**
 * Makes `owner` the controller of `obj` (controller: true, blockOwnerDeletion: true).
 * Idempotent for the same owner; throws AlreadyOwnedError for a different controller.
 */
export function setControllerReference(owner: ClientObject, obj: ClientObject, opts: OwnerReferenceOptions = {}): void {
  validateOwner(owner, obj);
  const ref: V1OwnerReference = {
    ...referenceTo(owner),
    controller: true,
    blockOwnerDeletion: opts.blockOwnerDeletion ?? true,
  };
  const existing = getControllerOf(obj);
  if (existing && !referSameObject(existing, ref)) throw new AlreadyOwnedError(describe(obj), existing);
  upsert(obj, ref);
}

/** Adds (or refreshes) a non-controller owner reference to `owner`. */
export function setOwnerReference(owner: ClientObject, obj: ClientObject, opts: OwnerReferenceOptions = {}): void {
  validateOwner(owner, obj);
  const ref = referenceTo(owner);
  if (opts.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = opts.blockOwnerDeletion;
  upsert(obj, ref);
}

/** Removes the reference to `owner`; returns true when one was removed. */
export function removeOwnerReference(owner: ClientObject, obj: ClientObject): boolean {
  const refs = obj.metadata?.ownerReferences;
  if (!refs) return false;
  const ref = referenceTo(owner);
  const kept = refs.filter((r) => !referSameObject(r, ref));
  if (kept.length === refs.length) return false;
  obj.metadata!.ownerReferences = kept;
  return true;
}

/** True when `owner` is referenced by `obj` (as controller when `controller` is set). */
export function hasOwnerReference(owner: ClientObject, obj: ClientObject, controller = false): boolean {
  const ref = referenceTo(owner);
  return (obj.metadata?.ownerReferences ?? []).some(
    (r) => referSameObject(r, ref) && (!controller || r.controller === true),
  );
}
