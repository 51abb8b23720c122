/**
 * `create api`: the API types (kind, spec, status; a group-version file once per version), the
 * controller with its @Rbac decorators and its test against a real control plane, the sample,
 * the admin/editor/viewer roles, and the insertions at markers — the CRD kustomization entry,
 * the sample entry, the roles, and the controller's registration in src/main.ts; a new version of
 * an existing kind marks the first version as the storage version if none is. Records into a
 * Tree and returns the updated PROJECT config; the caller commits.
 */
import { posix } from 'node:path';
import { renderProject, tsopSettings, type ProjectConfig, type ProjectResource } from '../../project/config.js';
import {
  controllerFile,
  controllerNames,
  defaultControllerName,
  importPath,
  resourceNames,
  sameGVK,
  type ResourceNames,
} from '../../project/resource.js';
import { renderSet } from '../../scaffold/render.js';
import type { Tree } from '../../scaffold/tree.js';
import { sampleSpecSource } from './sample-spec.js';
import { UserError } from '../../errors.js';
import { boilerplate, BOILERPLATE_FILE, scaffoldYear, withHeader } from '../../scaffold/boilerplate.js';
import { pluralOfKind } from '../../project/plural.js';
import { checkDerivedPlural, pascal } from '../../project/naming.js';
import { checkNamesFree } from './api-names.js';
import { kindClassName, typesFileImports, variableName } from '../../project/identifiers.js';
import {
  coreKindRef,
  CORE_API_GROUPS,
  externalKindRef,
  ownKindRef,
  type KindOrigin,
  type KindRef,
} from './api-kind.js';
import { addDependency, checkExternalFlags, type ExternalModule } from './external-module.js';
import { RUNTIME_DIR } from '../../scaffold/embedded-runtime.js';
import { hasStorageVersion, markStorageVersion } from './storage-version.js';
import type { ApiOptions } from '../plugin.js';

/** One controller a run scaffolds: its file, its test, its class and the name it runs under. */
interface ControllerTarget {
  name: string;
  file: string;
  test: string;
  reconciler: string;
  /** The file's stem, `memcached` in memcached-controller.ts. */
  stem: string;
}

export const MARKERS = {
  imports: '+kubebuilder:scaffold:imports',
  builder: '+kubebuilder:scaffold:builder',
  crd: '+kubebuilder:scaffold:crdkustomizeresource',
  samples: '+kubebuilder:scaffold:manifestskustomizesamples',
  roles: '+kubebuilder:scaffold:rbac-roles',
} as const;

export function scaffoldApi(tree: Tree, config: ProjectConfig, o: ApiOptions): ProjectConfig {
  const { origin, module } = originOf(config, o);
  // The CRD plural (controller-gen's rule) names the CRD file, the @Rbac resources and the kustomization entry.
  if (o.plural === undefined && origin === 'own') checkDerivedPlural(o.kind, pluralOfKind(o.kind));
  const domain = origin === 'own' ? config.domain : origin === 'external' ? (o.externalApiDomain ?? '') : '';
  const fresh: ProjectResource = { group: o.group, version: o.version, kind: o.kind, domain };
  if (o.plural) fresh.plural = o.plural;
  const existing = config.resources.find(
    (r) =>
      sameGVK(r, fresh) &&
      (r.core === true) === (origin === 'core') &&
      (r.external === true) === (origin === 'external'),
  );
  if (o.controllerName !== undefined && !o.controller)
    throw new UserError(
      `--controller-name: '${o.controllerName}' names a controller to scaffold; pass --controller too`,
    );
  checkExisting(existing, o);
  const otherGroup = config.resources.find(
    (r) => !r.core && !r.external && (r.group !== o.group || r.domain !== config.domain),
  );
  if (origin === 'own' && otherGroup && !config.multigroup) {
    throw new UserError(
      `--group: '${o.group}' is a second API group (the project has '${otherGroup.group}') and the project is single-group; run 'tsop edit --multigroup' first`,
    );
  }
  // One controller per kind, whatever its versions: a new version of a controlled kind brings types only.
  const controlled = config.resources.find(
    (r) => r.group === o.group && r.kind === o.kind && r.version !== o.version && (r.controller || r.controllers),
  );
  if (o.controller && o.controllerName === undefined && controlled && !o.force) {
    throw new UserError(
      [
        `--controller: ${o.kind} already has a controller (created with ${o.group}/${controlled.version});`,
        `add the ${o.version} types alone with --controller=false, or pass --force to scaffold the controller`,
        `again for ${o.version}`,
      ].join(' '),
    );
  }
  // What PROJECT said about the kind stays (its API settings, webhooks); this run adds to it.
  const resource: ProjectResource = existing ? { ...existing, ...(o.plural ? { plural: o.plural } : {}) } : fresh;
  const n = resourceNames(config, resource);
  if (o.resource) {
    resource.path = n.paths.apiDir;
    resource.api = { crdVersion: 'v1', namespaced: o.namespaced };
  }
  const target = o.controller ? controllerTarget(config, n, o, existing) : undefined;
  if (o.controller) recordController(config, resource, n, o.controllerName);
  const namespaced =
    origin === 'core' && !o.namespacedGiven
      ? !CLUSTER_SCOPED_BUILTINS.has(o.kind)
      : (existing?.api?.namespaced ?? o.namespaced);
  const names: ResourceNames = { ...n, namespaced: o.resource ? o.namespaced : namespaced };
  if (origin === 'own' && o.resource) checkNamesFree(tree, config, names, o.plural);
  if (origin === 'own' && o.controller && !o.resource && !tree.exists(n.paths.types)) {
    throw new UserError(
      `--resource=false: the controller imports ${n.paths.types}, which does not exist; scaffold the API too (--resource)`,
    );
  }
  const ref = kindRef(origin, names, o);
  if (origin === 'core') {
    resource.core = true;
    resource.domain = '';
    resource.path = ref.projectPath;
  } else if (origin === 'external') {
    resource.external = true;
    resource.path = ref.projectPath;
    if (module) {
      if (existing?.module !== undefined && existing.module !== module.spec) {
        throw new UserError(
          `--external-api-module: PROJECT takes ${o.group}/${o.version}, Kind=${o.kind} from '${existing.module}'; drop --external-api-module or pass '${existing.module}'`,
        );
      }
      addDependency(tree, module);
      resource.module = module.spec;
    }
  }

  const header =
    tree.read(BOILERPLATE_FILE) ??
    boilerplate(tsopSettings(config).license, tsopSettings(config).owner, scaffoldYear());
  const data = templateData(tree, config, names, o, ref);
  // A named controller renders the controller templates under its own file and class.
  const controllerData = target
    ? { ...data, lowerKind: target.stem, reconciler: target.reconciler, controllerName: target.name }
    : data;
  const files = [
    ...renderSet('api', data).filter(
      (f) => f.path !== names.paths.controller && f.path !== names.paths.controllerTest && o.resource,
    ),
    ...(target ? renderSet('api', controllerData).filter((f) => f.path === target.file || f.path === target.test) : []),
  ];
  for (const f of files) {
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
    tree.insert(
      'config/rbac/kustomization.yaml',
      MARKERS.roles,
      ['admin', 'editor', 'viewer'].map((r) => `- ${names.filePrefix}_${r}_role.yaml`).join('\n'),
    );
    uncomment(tree, 'config/default/kustomization.yaml', '#- ../crd');
    markFirstVersionStored(tree, config, o);
  }
  if (target) registerController(tree, names, origin, target);

  const resources = existing
    ? config.resources.map((r) => (r === existing ? resource : r))
    : [...config.resources, resource];
  const next = { ...config, resources };
  tree.overwrite('PROJECT', renderProject(next));
  return next;
}

/** Built-in kinds that are cluster-scoped (the rest are namespaced). */
const CLUSTER_SCOPED_BUILTINS = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'PriorityClass',
  'RuntimeClass',
  'IngressClass',
  'CertificateSigningRequest',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'APIService',
  'ComponentStatus',
  'FlowSchema',
  'PriorityLevelConfiguration',
  'IPAddress',
  'ServiceCIDR',
  'DeviceClass',
]);

/**
 * Where the kind comes from. `--external-api-path` names another project's kind; with
 * --resource=false, a built-in group (`apps`, `core`, …) whose kind the project does not define
 * is a built-in kind, as kubebuilder decides; anything else is the project's own.
 */
function originOf(config: ProjectConfig, o: ApiOptions): { origin: KindOrigin; module?: ExternalModule | undefined } {
  if (o.externalApiPath !== undefined && o.resource) {
    throw new UserError(
      `--external-api-path: '${o.externalApiPath}' is another project's API, so tsop scaffolds no types for it; pass --resource=false --controller`,
    );
  }
  const module = checkExternalFlags(o);
  if (o.externalApiPath !== undefined) return { origin: 'external', module };
  const own = config.resources.some(
    (r) => !r.core && !r.external && r.group === o.group && r.kind === o.kind && r.api !== undefined,
  );
  if (!o.resource && !own && (o.group === '' || o.group in CORE_API_GROUPS)) return { origin: 'core' };
  return { origin: 'own' };
}

/** A kind already in PROJECT: adding its controller later is fine, scaffolding what exists again needs --force. */
function checkExisting(existing: ProjectResource | undefined, o: ApiOptions): void {
  if (!existing || o.force) return;
  const id = `${o.group}/${o.version}, Kind=${o.kind}`;
  if (o.resource && existing.api)
    throw new UserError(`${id} already exists in PROJECT; pass --force to scaffold it again`);
  if (o.controllerName !== undefined) {
    if (existing.controllers?.some((c) => c.name === o.controllerName))
      throw new UserError(
        `--controller-name: ${id} already has the controller '${o.controllerName}'; pass --force to scaffold it again`,
      );
    return;
  }
  if (o.controller && existing.controller)
    throw new UserError(`--controller: ${id} already has a controller; pass --force to scaffold it again`);
}

/**
 * Where the controller goes: the kind's own file and class, or for `--controller-name`
 * `<name>-controller.ts` with `<Name>Reconciler`. A name runs one controller in the whole project.
 */
function controllerTarget(
  config: ProjectConfig,
  n: ResourceNames,
  o: ApiOptions,
  existing: ProjectResource | undefined,
): ControllerTarget {
  const name = o.controllerName ?? defaultControllerName(config, n);
  const own = name === defaultControllerName(config, n);
  if (!own) {
    for (const r of config.resources) {
      if (r === existing && o.force) continue;
      if (controllerNames(config, r).includes(name))
        throw new UserError(
          `--controller-name: '${name}' is already a controller of ${r.group}/${r.version}, Kind=${r.kind}; controller names are unique in a project, choose another`,
        );
    }
  }
  const file = controllerFile(config, n, name);
  return {
    name,
    file,
    test: file.replace(/\.ts$/, '.test.ts'),
    reconciler: `${own ? n.kind : pascal(name)}Reconciler`,
    stem: own ? n.lowerKind : name,
  };
}

/** PROJECT's record of the kind's controllers: `controller: true`, or kubebuilder's list of names once one is named. */
function recordController(
  config: ProjectConfig,
  resource: ProjectResource,
  n: ResourceNames,
  named: string | undefined,
): void {
  if (named === undefined && !resource.controllers) {
    resource.controller = true;
    return;
  }
  const names = new Set([...controllerNames(config, resource), named ?? defaultControllerName(config, n)]);
  resource.controllers = [...names].map((name) => ({ name }));
  delete resource.controller;
}

function kindRef(origin: KindOrigin, n: ResourceNames, o: ApiOptions): KindRef {
  if (origin === 'core') return coreKindRef(n, o.group || 'core');
  if (origin === 'external')
    return externalKindRef(n, { path: o.externalApiPath ?? '', domain: o.externalApiDomain ?? '' });
  return ownKindRef(n);
}

/**
 * Imports the reconciler into src/main.ts and registers it. A name main.ts already imports (the
 * same kind in another group, multigroup) is imported under an alias with the group in it.
 */
function registerController(tree: Tree, n: ResourceNames, origin: KindOrigin, target: ControllerTarget): void {
  const main = 'src/main.ts';
  const name = target.reconciler;
  const current = tree.read(main) ?? '';
  const from = importPath(main, target.file);
  if (current.includes(`'${from}';`)) return; // registered before (--force)
  const taken = (id: string): boolean => new RegExp(`\\b${id}\\b`).test(current);
  let local = name;
  if (taken(name)) {
    const prefix = pascal(origin === 'core' ? n.group || 'core' : n.group);
    local = `${prefix}${name}`;
    for (let i = 2; taken(local); i++) local = `${prefix}${name}${i}`;
  }
  const member = local === name ? name : `${name} as ${local}`;
  tree.insert(main, MARKERS.imports, `import { ${member} } from '${from}';`);
  tree.insert(main, MARKERS.builder, `new ${local}().setupWithManager(mgr);`);
}

/** A new version of a kind with no storage version yet: the version made first becomes it (see storage-version.ts). */
function markFirstVersionStored(tree: Tree, config: ProjectConfig, o: ApiOptions): void {
  const others = config.resources.filter(
    (r) => r.group === o.group && r.kind === o.kind && r.version !== o.version && r.api,
  );
  const files = others.map((r) => resourceNames(config, r).paths.types).filter((path) => tree.exists(path));
  if (files.length === 0 || files.some((path) => hasStorageVersion(tree.read(path) ?? ''))) return;
  const first = files[0]!;
  const marked = markStorageVersion(tree.read(first) ?? '', kindClassName(o.kind));
  if (marked !== undefined) tree.overwrite(first, marked);
}

function templateData(
  tree: Tree,
  config: ProjectConfig,
  n: ResourceNames,
  o: ApiOptions,
  ref: KindRef,
): Record<string, unknown> {
  const imports = typesFileImports(n.kind);
  return {
    ...n,
    ownKind: ref.origin === 'own',
    sampleSpec: ref.origin === 'own' ? sampleSpecSource(tree, n.paths.crd, n.version, 3) : '{}',
    externalKind: ref.origin === 'external',
    rbacGroup: ref.apiGroup,
    typeName: ref.typeName,
    kindConst: ref.kindConst,
    typeMember: ref.typeMember,
    typeModule: ref.typeModule,
    kindHelper: ref.apimachinery ?? '',
    kindDoc: ref.kindDoc ?? '',
    varName: variableName(n.camelKind),
    kindClass: kindClassName(n.kind),
    kindExportedAs: kindClassName(n.kind) !== n.kind,
    typesImports: imports,
    typesLocal: Object.fromEntries(Object.entries(imports).map(([k, v]) => [k, v.replace(/^.* as /, '')])),
    externalCrdFromController: `${posix.relative(n.paths.controllerDir, 'config/crd/external')}/`,
    apiDir: n.paths.apiDir,
    controllerDir: n.paths.controllerDir,
    sampleFile: posix.basename(n.paths.sample, '.yaml'),
    typesFile: posix.basename(n.paths.types, '.ts'),
    projectName: config.projectName,
    customPlural: o.plural !== undefined && o.plural !== pluralOfKind(o.kind),
    controllerName: defaultControllerName(config, n),
    reconciler: `${n.kind}Reconciler`,
    // A Role cannot grant a cluster-scoped kind (nor events about it, which land in 'default'):
    // its rules stay in the ClusterRole even in a namespaced project, as edit --namespaced keeps them.
    rbacNamespace: config.namespaced && n.namespaced ? `${config.projectName}-system` : '',
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
