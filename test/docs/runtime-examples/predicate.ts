/** Filter the events that reach a controller: here, spec changes and label changes only. */
import { controllerFor } from '../../../runtime/builder/index.js';
import type { Manager } from '../../../runtime/manager/index.js';
import {
  generationChanged,
  labelsChanged,
  newPredicateFuncs,
  or,
} from '../../../runtime/predicate/index.js';
import { memcachedKind } from './apimachinery.js';
import { MemcachedReconciler } from './reconcile.js';

export function setup(mgr: Manager): void {
  // A status write does not bump metadata.generation, so it no longer wakes the
  // controller.
  const specOrLabels = or(generationChanged(), labelsChanged());
  const notPaused = newPredicateFuncs(
    (obj) => obj.metadata?.annotations?.['example.com/paused'] !== 'true',
  );
  controllerFor(mgr, memcachedKind, specOrLabels, notPaused).complete(
    new MemcachedReconciler(mgr.client),
  );
}
