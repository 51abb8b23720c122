/**
 * What deploy-image's `create api` does (plugin.ts is its catalog entry): it turns the kind the
 * base layout just scaffolded into one that runs an image. It overwrites the types (spec `size`,
 * and `containerPort` when a port is given), the sample, the controller (Deployment with the
 * restricted security context, finalizer, conditions, events) and its test; adds `<KIND>_IMAGE`
 * to the manager's container in config/manager/manager.yaml; and records the options in PROJECT
 * as kubebuilder does.
 *
 * Its flags (flags.ts) are checked before anything is scaffolded, so a bad value writes nothing.
 */
import { posix } from 'node:path';
import { stringify } from 'yaml';
import { UserError } from '../../errors.js';
import { recordFlags, replayFlags } from '../../flag.js';
import { defaultControllerName, importPath } from '../../project/resource.js';
import { importMember, kindClassName, typeAlias, typesFileImports, variableName } from '../../project/identifiers.js';
import { pluralOfKind } from '../../project/plural.js';
import type { ProjectConfig, ProjectResource } from '../../project/config.js';
import { renderSet } from '../../scaffold/render.js';
import type { Tree } from '../../scaffold/tree.js';
import { withHeader } from '../../scaffold/boilerplate.js';
import type { CreateApiContext, Flags } from '../plugin.js';
import { commandArgs, DEPLOY_IMAGE_FLAGS, type RecordedOptions } from './flags.js';
import { RUNTIME_DIR } from '../../scaffold/embedded-runtime.js';

/** As typed after --plugins (kubebuilder's short key). */
export const DEPLOY_IMAGE_PLUGIN = 'deploy-image/v1-alpha';

/**
 * The key of this plugin's settings under `plugins:` in PROJECT. kubebuilder names a plugin
 * `<name>.<qualifier of its language layout>/<version>`: `deploy-image.go.kubebuilder.io/v1-alpha`
 * beside the layout `go.kubebuilder.io/v4`. tsop's layout is `typescript.tsop.dev/v1`, so the same
 * rule gives this key. kubebuilder's own key would tell tools that read PROJECT (kubebuilder
 * alpha generate) to re-run the Go plugin on a TypeScript project; the value under the key has
 * kubebuilder's shape exactly.
 */
export const DEPLOY_IMAGE_PROJECT_KEY = 'deploy-image.typescript.tsop.dev/v1-alpha';

export const MANAGER_FILE = 'config/manager/manager.yaml';
/** In the manager container of config/manager/manager.yaml, where its environment variables end. */
const MANAGER_ENV_MARKER = '+kubebuilder:scaffold:manager-env';

/**
 * Checks the deploy-image flags together before anything is scaffolded: --image is required, and
 * the kind is namespaced with its one controller. Each flag's own rule is in flags.ts.
 */
export function checkDeployImageFlags(flags: Flags): void {
  if (flags['image'] === undefined || flags['image'] === '') {
    throw new UserError(
      `--image is required with --plugins ${DEPLOY_IMAGE_PLUGIN}: the image the controller deploys, e.g. --image memcached:1.6.26-alpine`,
    );
  }
  // kubebuilder's plugin always scaffolds a namespaced kind with its controller.
  if (flags['resource'] === false || flags['controller'] === false) {
    throw new UserError(
      `--${flags['resource'] === false ? 'resource' : 'controller'}=false: --plugins ${DEPLOY_IMAGE_PLUGIN} scaffolds both the API and its controller; leave the flag out`,
    );
  }
  if (flags['namespaced'] === false) {
    throw new UserError(
      `--namespaced=false: --plugins ${DEPLOY_IMAGE_PLUGIN} deploys into the namespace of each object, so its kind is namespaced; leave the flag out`,
    );
  }
  if (flags['controllerName'] !== undefined) {
    throw new UserError(
      `--controller-name: deploy-image scaffolds the kind's one controller; drop --controller-name, or add the named controller with a second 'tsop create api' without --plugins`,
    );
  }
}

/** A TypeScript string literal in single quotes (JSON's escapes, so control characters stay escaped). */
function quoted(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** The options kubebuilder records, as strings; absent flags are left out. */
type DeployImageOptions = { image: string } & Record<string, unknown>;

export function createApi(ctx: CreateApiContext): ProjectConfig {
  const options = recordFlags(DEPLOY_IMAGE_FLAGS, ctx.flags) as DeployImageOptions;
  const n = ctx.names;
  // Kinds named like globals, keywords or template imports: as the api templates name them (src/project/identifiers.ts).
  const imports = typesFileImports(n.kind, ['Default', 'Minimum']);
  const typeName = typeAlias(n.kind);
  const data = {
    ...n,
    typeName,
    typeImportMember: importMember(n.kind, typeName, true),
    varName: variableName(n.camelKind),
    kindClass: kindClassName(n.kind),
    kindExportedAs: kindClassName(n.kind) !== n.kind,
    typesImports: imports,
    typesLocal: Object.fromEntries(Object.entries(imports).map(([k, v]) => [k, v.replace(/^.* as /, '')])),
    typesFile: posix.basename(n.paths.types, '.ts'),
    // The runtime's typed kinds, aliased where the kind's own `<camelKind>Kind` has their name.
    ...runtimeKind('deployment', 'apps', n.camelKind),
    ...runtimeKind('event', 'core', n.camelKind),
    getFn: testHelper('get', n.kind),
    createFn: testHelper('create', n.kind),
    upperKind: n.kind.toUpperCase(),
    apiDir: n.paths.apiDir,
    controllerDir: n.paths.controllerDir,
    sampleFile: posix.basename(n.paths.sample, '.yaml'),
    projectName: ctx.config.projectName,
    customPlural: n.plural !== pluralOfKind(n.kind),
    controllerName: defaultControllerName(ctx.config, n),
    rbacNamespace: ctx.config.namespaced ? `${ctx.config.projectName}-system` : '',
    runtimeFromApi: posix.relative(n.paths.apiDir, RUNTIME_DIR),
    runtimeFromController: posix.relative(n.paths.controllerDir, RUNTIME_DIR),
    typesImport: importPath(n.paths.controller, n.paths.types),
    crdFromController: `${posix.relative(n.paths.controllerDir, 'config/crd/bases')}/`,
    containerPort: options['containerPort'] ?? '',
    runAsUser: options['runAsUser'] ?? '',
    command:
      typeof options['containerCommand'] === 'string'
        ? commandArgs(options['containerCommand']).map(quoted).join(', ')
        : '',
  };
  // The base layout created these files in the same plan; the plugin's versions replace them.
  for (const f of renderSet('deploy-image', data)) {
    const content = f.path.endsWith('.ts') ? withHeader(ctx.header, f.content) : f.content;
    if (ctx.tree.exists(f.path)) ctx.tree.overwrite(f.path, content);
    else ctx.tree.create(f.path, content);
  }
  addImageEnv(ctx.tree, `${data.upperKind}_IMAGE`, options.image);
  return record(ctx, options);
}

/** `{ deploymentKindLocal, deploymentKindImport }`: `deploymentKind`, or `deploymentKind as appsDeploymentKind` for a kind Deployment. */
function runtimeKind(name: string, group: string, camelKind: string): Record<string, string> {
  const local = camelKind === name ? `${group}${name[0]!.toUpperCase()}${name.slice(1)}Kind` : `${name}Kind`;
  return { [`${name}KindLocal`]: local, [`${name}KindImport`]: importMember(`${name}Kind`, local) };
}

/** Names the controller test imports or declares beside its `get<Kind>`/`create<Kind>` helpers. */
const TEST_NAMES = new Set(['createClient', 'createManager', 'getDeployment']);

/** The test's helper for the kind: `getMemcached`, or `getDeploymentObject` where the name is taken. */
function testHelper(verb: 'get' | 'create', kind: string): string {
  return TEST_NAMES.has(`${verb}${kind}`) ? `${verb}${kind}Object` : `${verb}${kind}`;
}

/**
 * Adds `- name: <KIND>_IMAGE, value: <image>` to the manager container's env (creating `env:`
 * when the container has none yet), or changes the value when the variable is already there.
 */
function addImageEnv(tree: Tree, name: string, image: string): void {
  const text = tree.read(MANAGER_FILE);
  const value = stringify(image).trimEnd();
  const existing = text?.split('\n').findIndex((l) => l.trim() === `- name: ${name}`) ?? -1;
  if (text !== undefined && existing >= 0) {
    const lines = text.split('\n');
    const next = lines[existing + 1];
    if (next?.trim().startsWith('value:')) {
      lines[existing + 1] = next.replace(/value:.*$/, `value: ${value}`);
      tree.overwrite(MANAGER_FILE, lines.join('\n'));
      return;
    }
  }
  const hasEnv = text?.split('\n').some((l) => /^\s+env:\s*$/.test(l)) ?? false;
  const entry = `- name: ${name}\n  value: ${value}`;
  // A missing file or marker is recorded by insert as a problem of the plan, so nothing is written.
  tree.insert(MANAGER_FILE, MANAGER_ENV_MARKER, hasEnv ? entry : `env:\n${entry}`);
}

/**
 * Puts each deploy-image kind's `<KIND>_IMAGE` (from PROJECT) back into config/manager/manager.yaml,
 * for commands that render that file afresh (`edit --namespaced`).
 */
export function restoreImageEnvs(tree: Tree, config: ProjectConfig): void {
  const resources = config.plugins[DEPLOY_IMAGE_PROJECT_KEY]?.['resources'];
  if (!Array.isArray(resources)) return;
  for (const r of resources as { kind?: unknown; options?: { image?: unknown } }[]) {
    if (typeof r.kind === 'string' && typeof r.options?.image === 'string')
      addImageEnv(tree, `${r.kind.toUpperCase()}_IMAGE`, r.options.image);
  }
}

/** PROJECT: `plugins.<key>.resources[]` gets this kind's entry (replacing one for the same kind, on --force). */
function record(ctx: CreateApiContext, options: DeployImageOptions): ProjectConfig {
  const { group, domain, version, kind } = ctx.resource;
  const current = ctx.config.plugins[DEPLOY_IMAGE_PROJECT_KEY] ?? {};
  const resources = Array.isArray(current['resources']) ? (current['resources'] as Record<string, unknown>[]) : [];
  const same = (r: Record<string, unknown>): boolean =>
    r['group'] === group && r['version'] === version && r['kind'] === kind && (r['domain'] ?? '') === domain;
  const entry: Record<string, unknown> = { version, kind, options };
  if (group) entry['group'] = group;
  if (domain) entry['domain'] = domain;
  const next = [...resources.filter((r) => !same(r)), entry];
  return {
    ...ctx.config,
    plugins: { ...ctx.config.plugins, [DEPLOY_IMAGE_PROJECT_KEY]: { ...current, resources: next } },
  };
}

/** The flags a recorded resource was created with, when this plugin created it: `record` read back, for `alpha generate`. */
export function recordedFlags(config: ProjectConfig, r: ProjectResource): Flags | undefined {
  const entries = (config.plugins[DEPLOY_IMAGE_PROJECT_KEY]?.['resources'] ?? []) as Array<{
    group?: string;
    version?: string;
    kind?: string;
    options?: RecordedOptions;
  }>;
  const entry = entries.find((e) => e.group === r.group && e.version === r.version && e.kind === r.kind);
  return entry?.options ? flagsOfOptions(entry.options) : undefined;
}

/**
 * This plugin's options as PROJECT records them (kubebuilder's deploy-image keys, which tsop
 * writes too) turned back into `create api` flags.
 */
export function flagsOfOptions(o: RecordedOptions): Record<string, string> {
  return replayFlags(DEPLOY_IMAGE_FLAGS, o) as Record<string, string>;
}
