/**
 * Whether a project's controllers make workloads, read from what they are allowed to do: the
 * RBAC that `tsop manifests` generates from their @Rbac decorators (config/rbac/role.yaml). A
 * controller that may create Pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs or
 * CronJobs needs the fuller plane in `tsop dev` to see them scheduled and run.
 */
import { parseAllDocuments } from 'yaml';

/** Workload resources by API group ('' is the core group). */
const WORKLOADS: Readonly<Record<string, readonly string[]>> = {
  '': ['pods'],
  apps: ['deployments', 'replicasets', 'statefulsets', 'daemonsets'],
  batch: ['jobs', 'cronjobs'],
};

interface Rule {
  apiGroups?: unknown;
  resources?: unknown;
  verbs?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The workload resources (`pods`, `deployments.apps`, …) the roles in `roleYaml` may create, sorted. */
export function workloadsCreated(roleYaml: string): string[] {
  const found = new Set<string>();
  for (const doc of parseAllDocuments(roleYaml)) {
    if (doc.errors.length > 0) continue;
    const role = doc.toJS() as { kind?: unknown; rules?: Rule[] } | null;
    if (!role || (role.kind !== 'ClusterRole' && role.kind !== 'Role')) continue;
    for (const rule of role.rules ?? []) {
      const verbs = strings(rule.verbs);
      if (!verbs.includes('create') && !verbs.includes('*')) continue;
      const resources = strings(rule.resources);
      for (const group of strings(rule.apiGroups)) {
        for (const [g, names] of Object.entries(WORKLOADS)) {
          if (group !== g && group !== '*') continue;
          for (const name of names)
            if (resources.includes(name) || resources.includes('*')) found.add(g ? `${name}.${g}` : name);
        }
      }
    }
  }
  return [...found].sort();
}
