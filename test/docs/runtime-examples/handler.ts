/** Turn an event on one kind into requests for another: a ConfigMap wakes every Memcached that reads it. */
import type { V1ConfigMap } from '@kubernetes/client-node';
import { configMapKind } from '../../../runtime/apimachinery/index.js';
import { controllerFor } from '../../../runtime/builder/index.js';
import { enqueueFromMapFunc } from '../../../runtime/handler/index.js';
import type { Manager } from '../../../runtime/manager/index.js';
import { type Memcached, memcachedKind } from './apimachinery.js';
import { MemcachedReconciler } from './reconcile.js';

export function setup(mgr: Manager): void {
  const readers = enqueueFromMapFunc<V1ConfigMap>((cm) =>
    mgr.cache
      .list<Memcached>(memcachedKind, { namespace: cm.metadata?.namespace })
      .map((m) => ({
        namespace: m.metadata?.namespace ?? '',
        name: m.metadata?.name ?? '',
      })),
  );
  controllerFor(mgr, memcachedKind)
    .watches(configMapKind, readers)
    .complete(new MemcachedReconciler(mgr.client));
}
