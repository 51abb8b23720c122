/**
 * rbac.namespaced: a project that watches every namespace, installed to watch the release
 * namespace only. Its manager ClusterRole becomes a Role there (and its binding a RoleBinding);
 * rules for cluster-scoped resources (Nodes, CRDs, the project's cluster-scoped kinds), which a
 * Role cannot grant, stay in a ClusterRole of the same name. With rbac.namespaced off (the
 * default) the template renders the ClusterRole as the kustomize output has it.
 */
import type { ClusterScoped } from '../../project/cluster-scope.js';
import type { ChartLayout, KubeObject } from './manifests.js';
import { ReleaseNames } from './names.js';
import { HelmTemplate } from './template.js';

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  [field: string]: unknown;
}

const ON = '.Values.rbac.namespaced';
const OFF = 'not .Values.rbac.namespaced';

/** The rules of `role` split into those a Role can grant and those only a ClusterRole can. */
export function splitRules(
  rules: readonly Rule[],
  clusterScoped: ClusterScoped,
): { namespaced: Rule[]; cluster: Rule[] } {
  const namespaced: Rule[] = [];
  const cluster: Rule[] = [];
  for (const rule of rules) {
    if (rule.nonResourceURLs?.length) {
      cluster.push(rule);
      continue;
    }
    const groups = rule.apiGroups ?? [''];
    const isCluster = (r: string): boolean => groups.some((g) => clusterScoped(g, r));
    const resources = rule.resources ?? [];
    const own = resources.filter((r) => !isCluster(r));
    const theirs = resources.filter(isCluster);
    if (own.length > 0) namespaced.push({ ...rule, resources: own });
    if (theirs.length > 0) cluster.push({ ...rule, resources: theirs });
  }
  return { namespaced, cluster };
}

/** The template of the manager's ClusterRole or ClusterRoleBinding, with its namespaced alternative. */
export function namespacedManagerRbac(
  o: KubeObject,
  layout: ChartLayout,
  clusterScoped: ClusterScoped,
  managerRole?: KubeObject,
): string {
  const tpl = new HelmTemplate();
  const names = new ReleaseNames(tpl, layout);
  const { apiVersion, kind, metadata, ...rest } = o;
  const meta = (namespaced: boolean): Record<string, unknown> => ({
    ...(names.deep(metadata) as Record<string, unknown>),
    labels: names.labels(metadata.labels),
    ...(namespaced ? { namespace: tpl.value('{{ .Release.Namespace }}') } : {}),
  });
  const renamed = names.deep(rest) as Record<string, unknown>;
  if (kind === 'ClusterRole') {
    const { namespaced, cluster } = splitRules((o['rules'] as Rule[] | undefined) ?? [], clusterScoped);
    return [
      tpl.render({ apiVersion, kind: 'ClusterRole', metadata: meta(false), ...renamed }, OFF),
      tpl.render({ apiVersion, kind: 'Role', metadata: meta(true), ...renamed, rules: names.deep(namespaced) }, ON),
      ...(cluster.length > 0
        ? [
            tpl.render(
              { apiVersion, kind: 'ClusterRole', metadata: meta(false), ...renamed, rules: names.deep(cluster) },
              ON,
            ),
          ]
        : []),
    ].join('---\n');
  }
  // The binding: to the Role in the release namespace, and to the ClusterRole while it keeps rules.
  const role = managerRole ?? o;
  const keepsClusterRules = splitRules((role['rules'] as Rule[] | undefined) ?? [], clusterScoped).cluster.length > 0;
  const roleRef = renamed['roleRef'] as Record<string, unknown>;
  return [
    tpl.render({ apiVersion, kind: 'ClusterRoleBinding', metadata: meta(false), ...renamed }, OFF),
    tpl.render(
      { apiVersion, kind: 'RoleBinding', metadata: meta(true), ...renamed, roleRef: { ...roleRef, kind: 'Role' } },
      ON,
    ),
    ...(keepsClusterRules
      ? [tpl.render({ apiVersion, kind: 'ClusterRoleBinding', metadata: meta(false), ...renamed }, ON)]
      : []),
  ].join('---\n');
}
