/**
 * `@Rbac(...)` on a controller class: the permissions it needs, written by `tsop manifests` to
 * `config/rbac/role.yaml` (controller-gen's `+kubebuilder:rbac`).
 */
import { marker, type ClassMarker } from './decorator.js';

export interface RbacOptions {
  /** API groups; `''` or `'core'` is the core group. */
  groups?: string[];
  resources?: string[];
  verbs: Array<
    'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | '*' | (string & {})
  >;
  resourceNames?: string[];
  /** Non-resource URLs such as `/metrics` (ClusterRole only). */
  urls?: string[];
  /** Put the rule in a Role in this namespace instead of the ClusterRole. */
  namespace?: string;
  /** Put the rule in this role instead of `manager-role` (several roles in config/rbac/role.yaml). */
  roleName?: string;
}

/** `@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] })`. */
export const Rbac = (_options: RbacOptions): ClassMarker => marker;
