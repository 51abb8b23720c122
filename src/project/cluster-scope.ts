/**
 * Which resources are cluster-scoped, for RBAC: a Role (namespaced) cannot grant them, so
 * `edit --namespaced` leaves their rules in the ClusterRole. Two sources: the built-in resources
 * the API server serves (a table generated from its discovery, cluster-scoped-resources.ts) and
 * the project's own kinds, whose scope PROJECT records (`api.namespaced: false`).
 */
import type { ProjectConfig } from './config.js';
import { fullGroup } from './naming.js';
import { pluralOfKind } from './plural.js';
import { CLUSTER_SCOPED_RESOURCES } from './cluster-scoped-resources.js';

/** Whether `resource` (a plural, maybe with `/subresource`) of API `group` is cluster-scoped. */
export type ClusterScoped = (group: string, resource: string) => boolean;

/** `core` is how @Rbac names the core group (''), as controller-gen's markers do. */
const apiGroup = (group: string): string => (group === 'core' ? '' : group);

/** The built-in table alone. */
export function builtinClusterScoped(group: string, resource: string): boolean {
  return CLUSTER_SCOPED_RESOURCES[apiGroup(group)]?.includes(resource) === true;
}

/**
 * The table plus the project's cluster-scoped kinds, with any subresource of theirs (status,
 * finalizers, scale...: a subresource has its parent's scope).
 */
export function clusterScopedIn(config: ProjectConfig): ClusterScoped {
  const own = new Set<string>();
  for (const r of config.resources) {
    if (r.api?.namespaced !== false || r.core) continue;
    own.add(`${fullGroup(r.group, r.domain ?? config.domain)}\u0000${r.plural ?? pluralOfKind(r.kind)}`);
  }
  return (group, resource) => {
    if (builtinClusterScoped(group, resource)) return true;
    const parent = resource.split('/')[0]!;
    return own.has(`${apiGroup(group)}\u0000${parent}`);
  };
}
