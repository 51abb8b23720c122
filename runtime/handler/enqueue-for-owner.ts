/**
 * enqueueForOwner: the handler `Owns(kind)` uses — an event on an owned object (a Deployment)
 * requests a reconcile of its owner (the custom resource) found in metadata.ownerReferences.
 * Owners match on API group and kind, not version, because one object may be read at several
 * versions. By default only the controller owner (controller: true) counts.
 */

import type { V1OwnerReference } from '@kubernetes/client-node';
import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { Request } from '../reconcile/index.js';
import { enqueueFromMapFunc } from './enqueue-from-map-func.js';
import type { Handler } from './handler.js';

export interface OwnerType {
  apiVersion: string;
  kind: string;
}

export interface EnqueueForOwnerOptions {
  /** Only follow the reference marked `controller: true` (default true). */
  onlyControllerOwner?: boolean;
  /** Whether the owner kind is namespaced; cluster-scoped owners get no namespace (default true). */
  ownerNamespaced?: boolean;
}

export function enqueueForOwner<T extends ClientObject = KubeObject>(
  owner: OwnerType,
  opts: EnqueueForOwnerOptions = {},
): Handler<T> {
  const group = groupOf(owner.apiVersion);
  const onlyController = opts.onlyControllerOwner ?? true;
  const namespaced = opts.ownerNamespaced ?? true;

  const ownersOf = (obj: ClientObject): Request[] => {
    const refs: V1OwnerReference[] = obj.metadata?.ownerReferences ?? [];
    const ns = obj.metadata?.namespace;
    return refs
      .filter((r) => r.kind === owner.kind && groupOf(r.apiVersion) === group)
      .filter((r) => !onlyController || r.controller === true)
      .map((r) => (namespaced && ns ? { namespace: ns, name: r.name } : { name: r.name }));
  };
  // Mapping an event to its owners is a map function; the event plumbing is shared.
  return enqueueFromMapFunc<T>(ownersOf);
}

/** 'apps/v1' → 'apps'; 'v1' → '' (the core group). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
