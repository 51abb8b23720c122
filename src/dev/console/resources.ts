/**
 * What the console watches: the kinds the project serves (its CRDs in config/crd/bases) and the
 * kinds its controllers may create (the `create` rules of config/rbac/role.yaml, which `tsop
 * manifests` writes from @Rbac). Read from the generated manifests, so a
 * kind added with `tsop create api` shows up after the next regeneration.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export interface WatchedResource {
  /** As kubectl names it: plural.group (plural alone for the core group). */
  resource: string;
  group: string;
  plural: string;
  /** The version to watch: a served kind's storage version; undefined when discovery must say (the group's preferred). */
  version?: string;
  served: boolean;
}

/** The collection's path across namespaces, once the version is known. */
export function collectionPath(r: Pick<WatchedResource, 'group' | 'plural'>, version: string): string {
  return r.group ? `/apis/${r.group}/${version}/${r.plural}` : `/api/${version}/${r.plural}`;
}

/** Created by controllers but not worth a history: the runtime's own bookkeeping. */
const NOT_OWNED = new Set(['events', 'leases', 'tokenreviews', 'subjectaccessreviews']);

export function watchedResources(root: string): WatchedResource[] {
  const out = new Map<string, WatchedResource>();
  const crds = join(root, 'config/crd/bases');
  if (existsSync(crds))
    for (const f of readdirSync(crds)
      .filter((n) => n.endsWith('.yaml'))
      .sort()) {
      const crd = parse(readFileSync(join(crds, f), 'utf8')) as {
        spec?: {
          group?: string;
          names?: { plural?: string };
          versions?: Array<{ name?: string; served?: boolean; storage?: boolean }>;
        };
      } | null;
      const plural = crd?.spec?.names?.plural;
      const group = crd?.spec?.group;
      const versions = crd?.spec?.versions ?? [];
      const version = (versions.find((v) => v.storage) ?? versions.find((v) => v.served))?.name;
      if (plural && group)
        out.set(`${plural}.${group}`, {
          resource: `${plural}.${group}`,
          group,
          plural,
          ...(version ? { version } : {}),
          served: true,
        });
    }
  const role = join(root, 'config/rbac/role.yaml');
  if (existsSync(role))
    for (const doc of parseAllDocuments(readFileSync(role, 'utf8'))) {
      const rules =
        (doc.toJS() as { rules?: Array<{ apiGroups?: string[]; resources?: string[]; verbs?: string[] }> } | null)
          ?.rules ?? [];
      for (const rule of rules) {
        if (!rule.verbs?.includes('create') && !rule.verbs?.includes('*')) continue;
        for (const group of rule.apiGroups ?? [''])
          for (const res of rule.resources ?? []) {
            if (res.includes('/') || res === '*' || NOT_OWNED.has(res)) continue;
            const name = group ? `${res}.${group}` : res;
            if (!out.has(name))
              out.set(name, { resource: name, group, plural: res, ...(group ? {} : { version: 'v1' }), served: false });
          }
      }
    }
  return [...out.values()];
}
