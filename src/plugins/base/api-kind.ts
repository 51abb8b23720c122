/**
 * How a scaffolded controller names and imports the kind it reconciles, for the three origins
 * kubebuilder knows: the project's own kind (its types file), a built-in kind (`--group apps
 * --kind Deployment --resource=false`: the runtime's typed kind, or a typed kind of the
 * @kubernetes/client-node model), and a kind of another project (`--external-api-path`: a type
 * imported from a package or a project file). Also the API group its @Rbac rules name.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkDomain, InvalidFlagError } from '../../project/naming.js';
import { importMember, typeAlias } from '../../project/identifiers.js';
import { importPath, type ResourceNames } from '../../project/resource.js';

/** Built-in API groups by kubebuilder's short name (`core`, `apps`, `rbac`, …) → API group. */
export const CORE_API_GROUPS: Readonly<Record<string, string>> = {
  core: '',
  admissionregistration: 'admissionregistration.k8s.io',
  apiextensions: 'apiextensions.k8s.io',
  apps: 'apps',
  autoscaling: 'autoscaling',
  batch: 'batch',
  certificates: 'certificates.k8s.io',
  coordination: 'coordination.k8s.io',
  discovery: 'discovery.k8s.io',
  events: 'events.k8s.io',
  networking: 'networking.k8s.io',
  node: 'node.k8s.io',
  policy: 'policy',
  rbac: 'rbac.authorization.k8s.io',
  scheduling: 'scheduling.k8s.io',
  storage: 'storage.k8s.io',
};

/**
 * The typed kinds runtime/apimachinery/kinds.ts exports, as `group/version/Kind` → constant name
 * (a unit test keeps this in step with the runtime's builtinKinds).
 */
export const RUNTIME_KINDS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ['', 'v1', 'Pod'],
    ['', 'v1', 'Service'],
    ['', 'v1', 'ConfigMap'],
    ['', 'v1', 'Secret'],
    ['', 'v1', 'ServiceAccount'],
    ['', 'v1', 'Namespace'],
    ['', 'v1', 'Node'],
    ['', 'v1', 'PersistentVolumeClaim'],
    ['', 'v1', 'PersistentVolume'],
    ['apps', 'v1', 'Deployment'],
    ['apps', 'v1', 'StatefulSet'],
    ['apps', 'v1', 'DaemonSet'],
    ['apps', 'v1', 'ReplicaSet'],
    ['batch', 'v1', 'Job'],
    ['batch', 'v1', 'CronJob'],
    ['networking.k8s.io', 'v1', 'Ingress'],
    ['networking.k8s.io', 'v1', 'NetworkPolicy'],
    ['discovery.k8s.io', 'v1', 'EndpointSlice'],
    ['policy', 'v1', 'PodDisruptionBudget'],
    ['autoscaling', 'v2', 'HorizontalPodAutoscaler'],
    ['rbac.authorization.k8s.io', 'v1', 'Role'],
    ['rbac.authorization.k8s.io', 'v1', 'RoleBinding'],
    ['rbac.authorization.k8s.io', 'v1', 'ClusterRole'],
    ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding'],
    ['coordination.k8s.io', 'v1', 'Lease'],
    ['events.k8s.io', 'v1', 'Event'],
    ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'],
  ].map(([group, version, kind]) => [`${group}/${version}/${kind}`, `${kind![0]!.toLowerCase()}${kind!.slice(1)}Kind`]),
);

export type KindOrigin = 'own' | 'core' | 'external';

export interface KindRef {
  origin: KindOrigin;
  /** The API group of the kind as the API server serves it (RBAC, apiVersion). */
  apiGroup: string;
  /** The local name of the kind's TypeScript type in the controller and its test. */
  typeName: string;
  /** The local name of its typed kind constant. */
  kindConst: string;
  /**
   * The kind's type as the controller (and its test, beside it) imports it: the member
   * (`type Memcached`, `V1Pod as Pod`) and the module; a kind of this project's comes with its
   * typed constant, a built-in or external one's is the type alone.
   */
  typeMember: string;
  typeModule: string;
  /** What the controller imports from the runtime's apimachinery for the kind (`deploymentKind`, `kindFor`), if anything. */
  apimachinery?: string;
  /**
   * Where no module exports the kind's typed constant, the controller declares it with `kindFor`
   * (the template writes the declaration): this is its doc comment's sentence.
   */
  kindDoc?: string;
  /** What PROJECT records as the resource's `path` (kubebuilder's value for core and external kinds). */
  projectPath?: string;
}

export interface ExternalApi {
  /** A package (`@acme/certs-api`) or a project file (`src/external/cert-manager/v1/certificate.ts`) that exports the type. */
  path: string;
  domain: string;
}

/** The project's own kind: its types file exports `<kind>Kind` and the type. */
export function ownKindRef(n: ResourceNames): KindRef {
  const typeName = typeAlias(n.kind);
  const kindConst = `${n.camelKind}Kind`;
  return {
    origin: 'own',
    apiGroup: n.fullGroup,
    typeName,
    kindConst,
    typeMember: importMember(n.kind, typeName, true),
    typeModule: importPath(n.paths.controller, n.paths.types),
  };
}

/** A built-in kind: the runtime's typed kind when it has one, else the client-node model, typed with kindFor. */
export function coreKindRef(n: ResourceNames, shortGroup: string): KindRef {
  const apiGroup = CORE_API_GROUPS[shortGroup] ?? shortGroup;
  const projectPath = `k8s.io/api/${shortGroup || 'core'}/${n.version}`;
  const known = RUNTIME_KINDS[`${apiGroup}/${n.version}/${n.kind}`];
  const model = clientNodeModel(shortGroup || 'core', n.version, n.kind);
  if (!model) {
    throw new InvalidFlagError(
      'kind',
      n.kind,
      `is not a built-in kind of ${apiGroup ? `${apiGroup}/` : ''}${n.version} (no such model in @kubernetes/client-node)`,
      "check the group, version and kind (e.g. --group apps --version v1 --kind Deployment), or pass --external-api-path for another project's kind",
    );
  }
  const typeName = typeAlias(model);
  if (known) {
    return {
      origin: 'core',
      apiGroup,
      typeName,
      kindConst: known,
      typeMember: importMember(model, typeName),
      typeModule: '@kubernetes/client-node',
      apimachinery: known,
      projectPath,
    };
  }
  const kindConst = `${n.camelKind}Kind`;
  return {
    origin: 'core',
    apiGroup,
    typeName,
    kindConst,
    typeMember: importMember(model, typeName),
    typeModule: '@kubernetes/client-node',
    apimachinery: 'kindFor',
    kindDoc: `${n.kind} objects (${apiGroup ? `${apiGroup}/` : ''}${n.version}), typed by the @kubernetes/client-node model.`,
    projectPath,
  };
}

/** Another project's kind: its type comes from `--external-api-path`, its typed kind is declared here. */
export function externalKindRef(n: ResourceNames, ext: ExternalApi): KindRef {
  const apiGroup = ext.domain ? `${n.group}.${ext.domain}` : n.group;
  const typeName = typeAlias(n.kind);
  const kindConst = `${n.camelKind}Kind`;
  const from = isProjectFile(ext.path) ? importPath(n.paths.controller, ext.path.replace(/^\.\//, '')) : ext.path;
  return {
    origin: 'external',
    apiGroup,
    typeName,
    kindConst,
    typeMember: importMember(n.kind, typeName),
    typeModule: from,
    apimachinery: 'kindFor',
    kindDoc: `${n.kind} objects of ${apiGroup}/${n.version}, typed by ${ext.path}.`,
    projectPath: ext.path,
  };
}

/** A project file (`src/…`, `./src/…`, ending in .ts) rather than a package name. */
export function isProjectFile(path: string): boolean {
  return /^(\.\/)?src\//.test(path);
}

/** `--external-api-path`: a package name with an optional subpath, or a project file under src/ ending in .ts. */
export function checkExternalApiPath(path: string): void {
  const pkg = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/;
  const file = /^(\.\/)?src\/([A-Za-z0-9._-]+\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.ts$/;
  // `src/…` and `./…` name files of this project, never packages: such a path must be a .ts file.
  if (/^(\.\/|src\/)/.test(path) && !file.test(path)) {
    throw new InvalidFlagError(
      'external-api-path',
      path,
      'names a file of this project, which must be a TypeScript file under src/ ending in .ts',
      `name the .ts file that exports the kind's type, e.g. '${path.replace(/^\.\//, '').replace(/\.[cm]?js$/, '')}.ts'`,
    );
  }
  if (!pkg.test(path) && !file.test(path)) {
    throw new InvalidFlagError(
      'external-api-path',
      path,
      'is neither an npm package (optionally with a subpath) nor a project file under src/ ending in .ts',
      "name the module that exports the kind's type, e.g. '@acme/cert-manager-api/v1' or 'src/external/cert-manager/v1/certificate.ts'",
    );
  }
}

/** `--external-api-domain`: the domain the other project's API group ends with. */
export function checkExternalDomain(domain: string): void {
  try {
    checkDomain(domain);
  } catch {
    throw new InvalidFlagError(
      'external-api-domain',
      domain,
      'is not a DNS-1123 subdomain',
      "pass the domain the other project's group ends with, e.g. 'io' for cert-manager.io",
    );
  }
}

/** The @kubernetes/client-node model of a built-in kind (`V1Deployment`, `EventsV1Event`), or undefined. */
function clientNodeModel(shortGroup: string, version: string, kind: string): string | undefined {
  const models = clientNodeModels();
  const v = version[0]!.toUpperCase() + version.slice(1);
  // Where two groups share a kind name, the model carries the group: CoreV1Event, EventsV1Event.
  const prefix = shortGroup.replace(/(^|[-.])([a-z])/g, (_m, _s: string, c: string) => c.toUpperCase());
  const candidates = [`${v}${kind}`, `${prefix}${v}${kind}`];
  if (models === undefined) return candidates[0]; // no client-node next to tsop: trust the name
  return candidates.find((name) => existsSync(join(models, `${name}.d.ts`)));
}

let modelsDir: string | undefined | null = null;
function clientNodeModels(): string | undefined {
  if (modelsDir === null) {
    try {
      const entry = createRequire(import.meta.url).resolve('@kubernetes/client-node');
      const dir = join(dirname(entry), 'gen/models');
      modelsDir = existsSync(dir) ? dir : undefined;
    } catch {
      modelsDir = undefined;
    }
  }
  return modelsDir;
}
