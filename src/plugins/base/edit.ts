/**
 * `edit`: change project-wide settings after init and bring the files that depend on them along.
 *
 * - multigroup: PROJECT only; later `create api` uses src/api/<group>/<version>. Existing APIs stay
 *   where PROJECT's `path` says they are (moving them is left to the user, as in kubebuilder).
 * - namespaced: PROJECT, the manager Deployment (WATCH_NAMESPACE) and the manager's role binding
 *   (RoleBinding to a Role, or ClusterRoleBinding to a ClusterRole), re-rendered from templates;
 *   and the @Rbac decorators of PROJECT's controllers get or lose `namespace: '<project>-system'`,
 *   as `create api` would have written them (see namespaced-rbac.ts). Decorators with another
 *   namespace are kept; a decorator or controller file it cannot rewrite becomes a note, and so
 *   does the reminder to regenerate config/rbac/role.yaml (`npm run manifests`).
 * - sharding: the runtime's sharding module (src/runtime/sharding/, its barrel line and checksums),
 *   main.ts passing its `shardingEngine` to createManager (at the manager-options marker), and
 *   PROJECT's `sharding: true`, which `alpha generate` replays. Only added: `--sharding=false` is
 *   refused (the user's code may use the module).
 * - license / owner: PROJECT, hack/boilerplate.ts.txt, package.json's license, and the header of
 *   every scaffolded TypeScript file that still starts with the previous header.
 */
import { renderProject, tsopSettings, withTsopSettings, type ProjectConfig } from '../../project/config.js';
import { controllerFile, resourceNames } from '../../project/resource.js';
import { renderTemplate } from '../../scaffold/render.js';
import type { Tree } from '../../scaffold/tree.js';
import { boilerplate, BOILERPLATE_FILE, scaffoldYear } from '../../scaffold/boilerplate.js';
import { clusterScopedIn } from '../../project/cluster-scope.js';
import { rewriteRbacNamespace } from './namespaced-rbac.js';
import { addRuntimeModule, RUNTIME_DIR } from '../../scaffold/embedded-runtime.js';
import { UserError } from '../../errors.js';
import { importPath } from '../../project/resource.js';
import { MARKERS } from './create-api.js';
import type { EditOptions } from '../plugin.js';

/** Paths of the TypeScript files whose header follows the boilerplate (all but the runtime). */
export type FileLister = () => string[];

/** `rendered(path)` tells the plugins that `path` was rendered afresh, so each can put its settings back. */
export function scaffoldEdit(
  tree: Tree,
  config: ProjectConfig,
  o: EditOptions,
  listTs: FileLister,
  rendered: (path: string) => void = () => {},
): { config: ProjectConfig; notes: string[] } {
  let next: ProjectConfig = { ...config };
  const notes: string[] = [];
  if (o.multigroup !== undefined && o.multigroup !== (config.multigroup === true)) {
    next.multigroup = o.multigroup;
    if (config.resources.length > 0)
      notes.push(
        `existing APIs stay where they are; new ones go under src/api/${o.multigroup ? '<group>/<version>' : '<version>'}`,
      );
  }
  if (o.namespaced !== undefined && o.namespaced !== (config.namespaced === true)) {
    next.namespaced = o.namespaced;
    const data = { projectName: config.projectName, namespaced: o.namespaced };
    tree.overwrite('config/manager/manager.yaml', renderTemplate('base/config/manager/manager.yaml.hbs', data));
    rendered('config/manager/manager.yaml'); // e.g. deploy-image kinds' <KIND>_IMAGE, which the fresh file lacks
    tree.overwrite('config/rbac/role_binding.yaml', renderTemplate('base/config/rbac/role_binding.yaml.hbs', data));
    notes.push(...namespaceControllers(tree, config, o.namespaced));
  }
  if (o.sharding !== undefined) notes.push(...addSharding(tree, o.sharding));
  if (o.sharding === true) next.sharding = true;
  const before = tsopSettings(config);
  const after = { license: o.license ?? before.license, owner: o.owner ?? before.owner };
  if (o.header !== undefined || after.license !== before.license || after.owner !== before.owner) {
    next = withTsopSettings(
      next,
      after.owner ? { license: after.license, owner: after.owner } : { license: after.license },
    );
    const oldHeader = tree.read(BOILERPLATE_FILE) ?? '';
    const newHeader = o.header ?? boilerplate(after.license, after.owner, yearOf(oldHeader) ?? scaffoldYear());
    if (tree.exists(BOILERPLATE_FILE)) tree.overwrite(BOILERPLATE_FILE, newHeader);
    else tree.create(BOILERPLATE_FILE, newHeader);
    for (const path of listTs()) {
      if (path.startsWith(`${RUNTIME_DIR}/`)) continue;
      const text = tree.read(path);
      if (text === undefined) continue;
      if (oldHeader && text.startsWith(`${oldHeader}\n`))
        tree.overwrite(
          path,
          newHeader ? `${newHeader}\n${text.slice(oldHeader.length + 1)}` : text.slice(oldHeader.length + 1),
        );
      else if (!oldHeader && newHeader) tree.overwrite(path, `${newHeader}\n${text}`);
    }
    const pkg = tree.read('package.json');
    if (pkg !== undefined) {
      tree.overwrite(
        'package.json',
        pkg.replace(/"license": "[^"]*"/, `"license": "${after.license === 'apache2' ? 'Apache-2.0' : 'UNLICENSED'}"`),
      );
    }
  }
  tree.overwrite('PROJECT', renderProject(next));
  return { config: next, notes };
}

/** In createManager's options (main.ts of tsop ≥ 0.3): where main.ts passes what the manager runs. */
const MANAGER_OPTIONS_MARKER = '+kubebuilder:scaffold:manager-options';

/**
 * `edit --sharding`: the runtime's sharding module, and main.ts passing it to the manager. Adds
 * nothing that is there already, so a second run changes nothing. A main.ts of tsop ≤ 0.2 has no
 * manager-options marker (and its runtime runs sharding itself): a note says what to add by hand.
 */
function addSharding(tree: Tree, on: boolean): string[] {
  if (!on) {
    throw new UserError(
      "edit: --sharding=false is not supported: tsop does not take the sharding module away (your code may use it); remove shardingEngine from src/main.ts and 'sharding: true' from PROJECT by hand",
    );
  }
  addRuntimeModule(tree, 'sharding');
  const main = 'src/main.ts';
  const text = tree.read(main);
  const from = importPath(main, `${RUNTIME_DIR}/sharding/index.ts`);
  if (text === undefined || !text.includes(MANAGER_OPTIONS_MARKER)) {
    return [
      `${main} has no '${MANAGER_OPTIONS_MARKER}' marker: pass \`shardingEngine\` (import { shardingEngine } from '${from}') to createManager by hand`,
    ];
  }
  tree.insert(main, MARKERS.imports, `import { shardingEngine } from '${from}';`);
  tree.insert(
    main,
    MANAGER_OPTIONS_MARKER,
    "// Runs --sharding=<ring> (or the sharding option): this replica's part in the ring.\nshardingEngine,",
  );
  return [];
}

/**
 * Adds (namespaced) or removes the project namespace on the @Rbac decorators of every controller
 * in PROJECT, in `tree`; returns notes on what is left to the user.
 */
function namespaceControllers(tree: Tree, config: ProjectConfig, namespaced: boolean): string[] {
  const ns = `${config.projectName}-system`;
  const byHand = namespaced
    ? `add namespace: '${ns}' to its @Rbac decorators by hand`
    : `remove namespace: '${ns}' from its @Rbac decorators by hand`;
  const notes: string[] = [];
  let rewritten = false;
  const clusterScoped = clusterScopedIn(config);
  const clusterWide = new Set<string>();
  for (const candidates of controllerFiles(config)) {
    const path = candidates.find((p) => tree.exists(p));
    if (path === undefined) {
      notes.push(`${candidates[0]} not found; if the controller lives elsewhere, ${byHand}`);
      continue;
    }
    const text = tree.read(path) ?? '';
    const result = rewriteRbacNamespace(text, ns, namespaced ? 'add' : 'remove', clusterScoped);
    for (const r of result.clusterWide) clusterWide.add(r);
    if (result.text !== text) {
      tree.overwrite(path, result.text);
      rewritten = true;
    }
    for (const why of result.skipped) notes.push(`${path}:${why}; ${byHand}`);
  }
  // A Role cannot grant cluster-scoped resources: they stay in the ClusterRole (bound by a ClusterRoleBinding).
  if (clusterWide.size > 0)
    notes.push(`cluster-scoped resources stay in the ClusterRole: ${[...clusterWide].join(', ')}`);
  if (rewritten)
    notes.push("run 'npm run manifests' to regenerate config/rbac/role.yaml from the updated @Rbac decorators");
  return notes;
}

/**
 * Where `create api` put each controller, once per file (one kind in several versions shares
 * one), with the other layout's path as a fallback: controllers created before an
 * `edit --multigroup` stay where they were.
 */
function controllerFiles(config: ProjectConfig): [string, string][] {
  const other: ProjectConfig = { ...config, multigroup: !config.multigroup };
  const files = new Map<string, [string, string]>();
  for (const r of config.resources) {
    if (r.controller) {
      const path = resourceNames(config, r).paths.controller;
      files.set(path, [path, resourceNames(other, r).paths.controller]);
    }
    // Named controllers (create api --controller-name): <name>-controller.ts beside the kind's.
    for (const { name } of r.controllers ?? []) {
      const path = controllerFile(config, resourceNames(config, r), name);
      files.set(path, [path, controllerFile(other, resourceNames(other, r), name)]);
    }
  }
  return [...files.values()];
}

function yearOf(header: string): number | undefined {
  const m = /Copyright (\d{4})/.exec(header);
  return m ? Number(m[1]) : undefined;
}
