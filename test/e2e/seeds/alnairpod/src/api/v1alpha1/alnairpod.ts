/**
 * The AlnairPod API: a pod-like kind whose spec reuses the core Container and Volume types (their
 * full upstream schema lands in the CRD), and whose status reports the Pod the operator runs.
 */
import type { V1Container, V1Volume } from '@kubernetes/client-node';
import { MinItems, PrintColumn, Resource, SubresourceStatus, type ObjectMeta } from '../../runtime/markers/index.js';
import { groupVersion } from './groupversion.js';

/** AlnairPodSpec defines the desired state of AlnairPod. */
export class AlnairPodSpec {
  /** The containers of the Pod the operator creates. */
  @MinItems(1)
  containers!: V1Container[];
  /** Volumes the containers may mount. */
  volumes?: V1Volume[];
}

/** AlnairPodStatus defines the observed state of AlnairPod. */
export class AlnairPodStatus {
  /** The Pod running this AlnairPod's containers. */
  podName?: string;
  /** That Pod's phase, as last seen. */
  phase?: string;
}

/** AlnairPod is the Schema for the alnairpods API. */
@Resource()
@SubresourceStatus()
@PrintColumn({ name: 'Pod', type: 'string', jsonPath: '.status.podName' })
@PrintColumn({ name: 'Phase', type: 'string', jsonPath: '.status.phase' })
export class AlnairPod {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: AlnairPodSpec;
  status?: AlnairPodStatus;
}

/** Names AlnairPod objects in client calls and watches. */
export const alnairPodKind = { group: groupVersion.group, version: groupVersion.version, kind: 'AlnairPod' } as const;
