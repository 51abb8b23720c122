/** The controller the builder returns: its options, and its work queue seen from a test or a debug page. */
import { controllerFor } from '../../../runtime/builder/index.js';
import type { Controller } from '../../../runtime/controller/index.js';
import type { Manager } from '../../../runtime/manager/index.js';
import { memcachedKind } from './apimachinery.js';
import { MemcachedReconciler } from './reconcile.js';

export function setup(mgr: Manager): Controller {
  // Two workers reconcile different objects at once; one object is never
  // reconciled twice at once.
  // Each reconcile's ctx.signal aborts after 30 s.
  return controllerFor(mgr, memcachedKind)
    .withOptions({
      maxConcurrentReconciles: 2,
      reconciliationTimeoutMs: 30_000,
    })
    .complete(new MemcachedReconciler(mgr.client));
}
