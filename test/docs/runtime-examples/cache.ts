/** Scope what the shared cache holds, and index it for the lookups your reconciler makes. */
import type { V1Pod } from '@kubernetes/client-node';
import { podKind } from '../../../runtime/apimachinery/index.js';
import type { ByObject } from '../../../runtime/cache/index.js';
import { loadKubeConfig } from '../../../runtime/kubeconfig/index.js';
import { createManager } from '../../../runtime/manager/index.js';

// Hold only the Pods this operator manages, not every Pod of the cluster.
const managedPods: ByObject = {
  gvk: podKind,
  labelSelector: 'app.kubernetes.io/managed-by=memcached-operator',
};
const mgr = createManager({
  kubeConfig: loadKubeConfig(),
  cache: { byObject: [managedPods] },
});

// Pods by the node they run on; client.list(podKind, { field: { index:
// 'spec.nodeName', value } }) reads it.
mgr.cache.indexField<V1Pod>(podKind, 'spec.nodeName', (pod) =>
  pod.spec?.nodeName ? [pod.spec.nodeName] : [],
);
