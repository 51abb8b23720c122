/** Assemble a controller in one sentence: what it reconciles, what it owns, what else wakes it. */
import {
  deploymentKind,
  serviceKind,
} from '../../../runtime/apimachinery/index.js';
import { BuilderError, controllerFor } from '../../../runtime/builder/index.js';
import type { Manager } from '../../../runtime/manager/index.js';
import { memcachedKind } from './apimachinery.js';
import { MemcachedReconciler } from './reconcile.js';

export function setup(mgr: Manager): void {
  try {
    controllerFor(mgr, memcachedKind)
      // a Deployment it owns changes: reconcile the Memcached
      .owns(deploymentKind)
      .owns(serviceKind)
      .named('memcached')
      .complete(new MemcachedReconciler(mgr.client));
  } catch (err) {
    // Every problem of the chain at once, e.g. a name another controller
    // already has.
    if (err instanceof BuilderError) console.error(err.problems.join('\n'));
    throw err;
  }
}
