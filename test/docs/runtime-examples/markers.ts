/** An API class as `tsop manifests` reads it: decorators become the CRD's schema, columns and RBAC. */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import {
  Maximum,
  Minimum,
  PrintColumn,
  Resource,
  SubresourceStatus,
  type int32,
} from '../../../runtime/markers/index.js';

export class MemcachedSpec {
  /** How many memcached pods to run. */
  @Minimum(1)
  @Maximum(10)
  size?: int32;
}

/** Memcached is a memcached cluster the operator runs. */
@Resource({ scope: 'Namespaced', shortNames: ['mc'] })
@SubresourceStatus()
@PrintColumn({ name: 'Size', type: 'integer', jsonPath: '.spec.size' })
export class Memcached {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: MemcachedSpec;
}
