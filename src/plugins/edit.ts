/**
 * `edit`: change project-wide settings after init and bring the files that depend on them along.
 *
 * - multigroup: PROJECT only; later `create api` uses src/api/<group>/<version>. Existing APIs stay
 *   where PROJECT's `path` says they are (moving them is left to the user, as in kubebuilder).
 * - namespaced: PROJECT, the manager Deployment (WATCH_NAMESPACE) and the manager's role binding
 *   (RoleBinding to a Role, or ClusterRoleBinding to a ClusterRole), re-rendered from templates.
 *   Existing controllers' @Rbac decorators need `namespace:` by hand; the caller says so.
 * - license / owner: PROJECT, hack/boilerplate.ts.txt, package.json's license, and the header of
 *   every scaffolded TypeScript file that still starts with the previous header.
 */
import { renderProject, tsopSettings, withTsopSettings, type License, type ProjectConfig } from '../project/config.js';
import { renderTemplate } from '../scaffold/render.js';
import type { Tree } from '../scaffold/tree.js';
import { boilerplate, BOILERPLATE_FILE, scaffoldYear } from './boilerplate.js';
import { RUNTIME_DIR } from './runtime.js';

export interface EditOptions {
  multigroup?: boolean;
  namespaced?: boolean;
  license?: License;
  owner?: string;
}

/** Paths of the TypeScript files whose header follows the boilerplate (all but the runtime). */
export type FileLister = () => string[];

export function scaffoldEdit(tree: Tree, config: ProjectConfig, o: EditOptions, listTs: FileLister): { config: ProjectConfig; notes: string[] } {
  let next: ProjectConfig = { ...config };
  const notes: string[] = [];
  if (o.multigroup !== undefined && o.multigroup !== (config.multigroup === true)) {
    next.multigroup = o.multigroup;
    if (config.resources.length > 0) notes.push(`existing APIs stay where they are; new ones go under src/api/${o.multigroup ? '<group>/<version>' : '<version>'}`);
  }
  if (o.namespaced !== undefined && o.namespaced !== (config.namespaced === true)) {
    next.namespaced = o.namespaced;
    const data = { projectName: config.projectName, namespaced: o.namespaced };
    tree.overwrite('config/manager/manager.yaml', renderTemplate('base/config/manager/manager.yaml.hbs', data));
    tree.overwrite('config/rbac/role_binding.yaml', renderTemplate('base/config/rbac/role_binding.yaml.hbs', data));
    if (config.resources.some((r) => r.controller)) {
      notes.push(
        o.namespaced
          ? `add namespace: '${config.projectName}-system' to the @Rbac decorators of existing controllers, then run 'npm run manifests'`
          : "remove namespace: from the @Rbac decorators of existing controllers, then run 'npm run manifests'",
      );
    }
  }
  const before = tsopSettings(config);
  const after = { license: o.license ?? before.license, owner: o.owner ?? before.owner };
  if (after.license !== before.license || after.owner !== before.owner) {
    next = withTsopSettings(next, after.owner ? { license: after.license, owner: after.owner } : { license: after.license });
    const oldHeader = tree.read(BOILERPLATE_FILE) ?? '';
    const newHeader = boilerplate(after.license, after.owner, yearOf(oldHeader) ?? scaffoldYear());
    if (tree.exists(BOILERPLATE_FILE)) tree.overwrite(BOILERPLATE_FILE, newHeader);
    else tree.create(BOILERPLATE_FILE, newHeader);
    for (const path of listTs()) {
      if (path.startsWith(`${RUNTIME_DIR}/`)) continue;
      const text = tree.read(path);
      if (text === undefined) continue;
      if (oldHeader && text.startsWith(`${oldHeader}\n`)) tree.overwrite(path, newHeader ? `${newHeader}\n${text.slice(oldHeader.length + 1)}` : text.slice(oldHeader.length + 1));
      else if (!oldHeader && newHeader) tree.overwrite(path, `${newHeader}\n${text}`);
    }
    const pkg = tree.read('package.json');
    if (pkg !== undefined) {
      tree.overwrite('package.json', pkg.replace(/"license": "[^"]*"/, `"license": "${after.license === 'apache2' ? 'Apache-2.0' : 'UNLICENSED'}"`));
    }
  }
  tree.overwrite('PROJECT', renderProject(next));
  return { config: next, notes };
}

function yearOf(header: string): number | undefined {
  const m = /Copyright (\d{4})/.exec(header);
  return m ? Number(m[1]) : undefined;
}
