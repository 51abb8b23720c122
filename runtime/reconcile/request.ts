/**
 * Request: the one thing a reconciler is told — which object to look at. It carries no event
 * payload on purpose (level-triggered: the reconciler reads the current state itself).
 */

import { keyString, parseKey, type ObjectKey } from '../apimachinery/model.js';

/** Identifies the object to reconcile; `namespace` is absent for cluster-scoped kinds. */
export type Request = ObjectKey;

/** The work-queue key for a request: 'ns/name', or 'name' for cluster-scoped objects. */
export function requestKey(req: Request): string {
  return keyString(req);
}

/** Inverse of {@link requestKey}. */
export function requestFromKey(key: string): Request {
  return parseKey(key);
}
