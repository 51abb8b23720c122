/**
 * `create api`: the API types (kind, spec, status; a group-version file once per version), the
 * controller with its @Rbac decorators and its test against a real control plane, the sample,
 * the admin/editor/viewer roles, and the insertions at markers — the CRD kustomization entry,
 * the sample entry, the roles, and the controller's registration in src/main.ts; a new version of
 * an existing kind marks the first version as the storage version if none is. Records into a
 * Tree and returns the updated PROJECT config; the caller commits.
 */
import { posix } from 'node:path';
import { renderProject, tsopSettings, type ProjectConfig, type ProjectResource } from '../project/config.js';
import { importPath, resourceNames, sameGVK, type ResourceNames } from '../project/resource.js';
import { renderSet } from '../scaffold/render.js';
import type { Tree } from '../scaffold/tree.js';
import { UserError } from '../errors.js';
import { boilerplate, BOILERPLATE_FILE, scaffoldYear, withHeader } from './boilerplate.js';
import { pluralOfKind } from '../project/plural.js';
import { checkDerivedPlural } from '../project/naming.js';
import { RUNTIME_DIR } from './runtime.js';
import { hasStorageVersion, markStorageVersion } from './storage-version.js';

export interface ApiOptions {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  resource: boolean;
  controller: boolean;
  namespaced: boolean;
  force: boolean;
}

export const MARKERS = {
  imports: '+kubebuilder:scaffold:imports',
  builder: '+kubebuilder:scaffold:builder',
  crd: '+kubebuilder:scaffold:crdkustomizeresource',
  samples: '+kubebuilder:scaffold:manifestskustomizesamples',
  roles: '+kubebuilder:scaffold:rbac-roles',
} as const;

export function scaffoldApi(tree: Tree, config: ProjectConfig, o: ApiOptions): ProjectConfig {
  // The CRD plural (controller-gen's rule) names the CRD file, the @Rbac resources and the kustomization entry.
  if (o.plural === undefined) checkDerivedPlural(o.kind, pluralOfKind(o.kind));
  const resource: ProjectResource = { group: o.group, version: o.version, kind: o.kind, domain: config.domain };
  if (o.plural) resource.plural = o.plural;
  const existing = config.resources.find((r) => sameGVK(r, resource));
  if (existing && !o.force) {
    throw new UserError(`${o.group}/${o.version}, Kind=${o.kind} already exists in PROJECT; pass --force to scaffold it again`);
  }
  const otherGroup = config.resources.find((r) => r.group !== o.group || r.domain !== config.domain);
  if (otherGroup && !config.multigroup) {
    throw new UserError(`--group: '${o.group}' is a second API group (the project has '${otherGroup.group}') and the project is single-group; run 'tsop edit --multigroup' first`);
  }
  // One controller per kind, whatever its versions: a new version of a controlled kind brings types only.
  const controlled = config.resources.find((r) => r.group === o.group && r.kind === o.kind && r.version !== o.version && r.controller);
  if (o.controller && controlled && !o.force) {
    throw new UserError(
      `--controller: ${o.kind} already has a controller (created with ${o.group}/${controlled.version}); add the ${o.version} types alone with --controller=false, or pass --force to scaffold the controller again for ${o.version}`,
    );
  }
  const n = resourceNames(config, resource);
  if (o.resource) {
    resource.path = n.paths.apiDir;
    resource.api = { crdVersion: 'v1', namespaced: o.namespaced };
  }
  if (o.controller) resource.controller = true;
  const names: ResourceNames = { ...n, namespaced: o.namespaced };
  if (o.controller && !o.resource && !tree.exists(n.paths.types)) {
    throw new UserError(`--resource=false: the controller imports ${n.paths.types}, which does not exist; scaffold the API too (--resource)`);
  }

  const header = tree.read(BOILERPLATE_FILE) ?? boilerplate(tsopSettings(config).license, tsopSettings(config).owner, scaffoldYear());
  const data = templateData(config, names, o);
  for (const f of renderSet('api', data)) {
    if (!wanted(f.path, names, o)) continue;
    const content = f.path.endsWith('.ts') ? withHeader(header, f.content) : f.content;
    // Shared by every version of a group (group-version file) or of a kind (roles): written once.
    if (f.path === names.paths.groupVersion || f.path.startsWith(`config/rbac/${names.filePrefix}_`)) {
      if (!tree.exists(f.path)) tree.create(f.path, content);
      continue;
    }
    tree.create(f.path, content, { force: o.force });
  }

  if (o.resource) {
    tree.insert('config/crd/kustomization.yaml', MARKERS.crd, `- bases/${names.fullGroup}_${names.plural}.yaml`);
    tree.insert('config/samples/kustomization.yaml', MARKERS.samples, `- ${posix.basename(names.paths.sample)}`);
    tree.insert('config/rbac/kustomization.yaml', MARKERS.roles, ['admin', 'editor', 'viewer'].map((r) => `- ${names.filePrefix}_${r}_role.yaml`).join('\n'));
    uncomment(tree, 'config/default/kustomization.yaml', '#- ../crd');
    markFirstVersionStored(tree, config, o);
  }
  if (o.controller) {
    const main = 'src/main.ts';
    tree.insert(main, MARKERS.imports, `import { ${o.kind}Reconciler } from '${importPath(main, names.paths.controller)}';`);
    tree.insert(main, MARKERS.builder, `new ${o.kind}Reconciler(mgr.client).setupWithManager(mgr);`);
  }

  const resources = existing ? config.resources.map((r) => (r === existing ? resource : r)) : [...config.resources, resource];
  const next = { ...config, resources };
  tree.overwrite('PROJECT', renderProject(next));
  return next;
}

/** A new version of a kind with no storage version yet: the version made first becomes it (see storage-version.ts). */
function markFirstVersionStored(tree: Tree, config: ProjectConfig, o: ApiOptions): void {
  const others = config.resources.filter((r) => r.group === o.group && r.kind === o.kind && r.version !== o.version && r.api);
  const files = others.map((r) => resourceNames(config, r).paths.types).filter((path) => tree.exists(path));
  if (files.length === 0 || files.some((path) => hasStorageVersion(tree.read(path) ?? ''))) return;
  const first = files[0]!;
  const marked = markStorageVersion(tree.read(first) ?? '', o.kind);
  if (marked !== undefined) tree.overwrite(first, marked);
}

function wanted(path: string, n: ResourceNames, o: ApiOptions): boolean {
  if (path === n.paths.controller || path === n.paths.controllerTest) return o.controller;
  return o.resource;
}

function templateData(config: ProjectConfig, n: ResourceNames, o: ApiOptions): Record<string, unknown> {
  return {
    ...n,
    apiDir: n.paths.apiDir,
    controllerDir: n.paths.controllerDir,
    sampleFile: posix.basename(n.paths.sample, '.yaml'),
    projectName: config.projectName,
    customPlural: o.plural !== undefined && o.plural !== pluralOfKind(o.kind),
    controllerName: config.multigroup ? `${n.group}-${n.lowerKind}` : n.lowerKind,
    rbacNamespace: config.namespaced ? `, namespace: '${config.projectName}-system'` : '',
    runtimeFromApi: posix.relative(n.paths.apiDir, RUNTIME_DIR),
    runtimeFromController: posix.relative(n.paths.controllerDir, RUNTIME_DIR),
    typesImport: importPath(n.paths.controller, n.paths.types),
    crdFromController: `${posix.relative(n.paths.controllerDir, 'config/crd/bases')}/`,
  };
}

/** Turns a commented-out line (`#- ../crd`) into a live one, once. */
function uncomment(tree: Tree, path: string, line: string): void {
  const current = tree.read(path);
  if (current === undefined) {
    tree.overwrite(path, ''); // records the missing-file problem
    return;
  }
  const lines = current.split('\n');
  const i = lines.findIndex((l) => l.trim() === line);
  if (i < 0) return; // already uncommented (or removed on purpose)
  lines[i] = lines[i]!.replace('#', '');
  tree.overwrite(path, lines.join('\n'));
}
