/** The `@Rbac` marker on controllers (`+kubebuilder:rbac`). */
import type { RbacRule } from '../marker-outputs.js';
import { options } from './args.js';
import { rbacMarker, type MarkerDef } from './define.js';

interface RbacArgs {
  groups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  urls?: string[];
  namespace?: string;
  roleName?: string;
}

export const RBAC_MARKERS: MarkerDef[] = [
  rbacMarker<RbacArgs>({
    name: 'Rbac',
    controllerGen: '+kubebuilder:rbac',
    args: options<RbacArgs>({
      groups: { type: 'string[]' },
      resources: { type: 'string[]' },
      verbs: { type: 'string[]', required: true },
      resourceNames: { type: 'string[]' },
      urls: { type: 'string[]' },
      namespace: { type: 'string' },
      roleName: { type: 'string' },
    }),
    doc: "A permission the controller needs, written to config/rbac/role.yaml ('core' or '' is the core group); roleName puts it in another role of that file (default manager-role).",
    example:
      "@Rbac({ groups: ['batch'], resources: ['jobs', 'jobs/status'], verbs: ['get', 'list', 'watch', 'create'] })",
    apply(rules, v) {
      if (v.verbs.length === 0) return '@Rbac: verbs must not be empty';
      const hasResources = (v.resources?.length ?? 0) > 0;
      const hasUrls = (v.urls?.length ?? 0) > 0;
      if (hasResources === hasUrls)
        return '@Rbac: give either resources (with groups) or urls, not both and not neither';
      if (hasUrls && v.namespace !== undefined)
        return '@Rbac: non-resource urls belong to the ClusterRole; drop namespace';
      const rule: RbacRule = {
        groups: (v.groups ?? (hasResources ? [''] : [])).map((g) => (g === 'core' ? '' : g)),
        resources: v.resources ?? [],
        verbs: [...v.verbs],
      };
      if (v.resourceNames) rule.resourceNames = [...v.resourceNames];
      if (v.urls) rule.urls = [...v.urls];
      if (v.namespace !== undefined) rule.namespace = v.namespace;
      if (v.roleName !== undefined) {
        // A role's name is a path segment of the API: not empty, no '/' or '%', not '.' or '..'.
        if (v.roleName === '' || /[/%]/.test(v.roleName) || v.roleName === '.' || v.roleName === '..')
          return `@Rbac: roleName '${v.roleName}' is not a valid role name; use e.g. 'backup-role'`;
        rule.roleName = v.roleName;
      }
      rules.push(rule);
      return undefined;
    },
  }),
];
