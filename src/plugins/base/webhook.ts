/**
 * `create webhook`: for one kind and version, a defaulter and/or validator class with its
 * `@Webhook` decorators and test (src/webhooks/<version>/<kind>-webhook.ts, kubebuilder's
 * internal/webhook/<version>/<kind>_webhook.go), or for conversion `@Hub()` on this version and a
 * converter per spoke version (src/api/<spoke>/<kind>-conversion.ts); the registration in
 * src/main.ts; and, with the first webhook, config/webhook, config/certmanager and the manager
 * patch, enabled in config/default (or config/self-provision instead of cert-manager, see
 * webhook-kustomize.ts), and a NetworkPolicy for webhook traffic (conversion also patches the CRD in config/crd). Every check
 * runs before anything is recorded; the caller commits the Tree.
 */
import { posix } from 'node:path';
import {
  renderProject,
  tsopSettings,
  type ProjectConfig,
  type ProjectResource,
  type ResourceWebhooks,
} from '../../project/config.js';
import { importPath, resourceNames, sameGVK, type ResourceNames } from '../../project/resource.js';
import { lowerKind, camelKind, pascal } from '../../project/naming.js';
import { pluralOfKind } from '../../project/plural.js';
import { clashesWithGlobal, importMember } from '../../project/identifiers.js';
import { renderSet } from '../../scaffold/render.js';
import { editSource } from '../../scaffold/source-edit.js';
import { admissionPath } from '../../../runtime/shapes/index.js';
import type { Tree } from '../../scaffold/tree.js';
import { UserError } from '../../errors.js';
import { boilerplate, BOILERPLATE_FILE, scaffoldYear, withHeader } from '../../scaffold/boilerplate.js';
import { MARKERS } from './create-api.js';
import { addRuntimeModule, RUNTIME_DIR } from '../../scaffold/embedded-runtime.js';
import { enableWebhookKustomize } from './webhook-kustomize.js';
import { sameShapes } from './conversion-shape.js';
import { enableOlmCertPatch } from '../olm/scaffold.js';
import { sampleSpecSource } from './sample-spec.js';
import { coreSample } from './webhook-core-samples.js';
import { addDependency, checkExternalFlags, type ExternalModule } from './external-module.js';
import { CORE_API_GROUPS, isProjectFile } from './api-kind.js';
import type { WebhookOptions } from '../plugin.js';

const WEBHOOK_MARKER = '+kubebuilder:scaffold:webhook';
/** In createManager's options (main.ts of tsop ≥ 0.3): the webhook server goes there. */
const MANAGER_OPTIONS_MARKER = '+kubebuilder:scaffold:manager-options';

export function scaffoldWebhook(tree: Tree, config: ProjectConfig, o: WebhookOptions): ProjectConfig {
  const target = findTarget(config, o);
  const { resource, existing } = target;
  if (target.module) addDependency(tree, target.module);
  const before = existing?.webhooks;
  for (const [flag, on, had] of [
    ['--defaulting', o.defaulting, before?.defaulting],
    ['--programmatic-validation', o.validation, before?.validation],
    ['--conversion', o.conversion, before?.conversion],
  ] as const) {
    if (on && had && !o.force)
      throw new UserError(
        `${flag}: ${o.group}/${o.version}, Kind=${o.kind} already has this webhook; pass --force to scaffold it again`,
      );
  }
  // The file holds every webhook of the kind and version, so it is written with all of them.
  const hooks: ResourceWebhooks = { webhookVersion: 'v1' };
  if (o.defaulting || before?.defaulting) hooks.defaulting = true;
  if (o.validation || before?.validation) hooks.validation = true;
  if (o.conversion || before?.conversion) {
    hooks.conversion = true;
    hooks.spoke = [...new Set([...(before?.spoke ?? []), ...o.spokes])].sort();
  }
  // A custom path stays until another one is given (the file is rewritten with every webhook).
  const defaultingPath = hooks.defaulting ? (o.defaultingPath ?? before?.defaultingPath) : undefined;
  const validationPath = hooks.validation ? (o.validationPath ?? before?.validationPath) : undefined;
  if (defaultingPath !== undefined) hooks.defaultingPath = defaultingPath;
  if (validationPath !== undefined) hooks.validationPath = validationPath;
  const n = names(config, resource);
  checkPathClashes(config, resource, n, hooks);
  const webhookFile = posix.join(n.webhookDir, `${n.lowerKind}-webhook.ts`);
  if (tree.exists(webhookFile) && !o.force) {
    throw new UserError(
      `${webhookFile} already exists; pass --force to write it again with ${describe(hooks)} (your changes to it are replaced)`,
    );
  }
  const main = 'src/main.ts';
  const mainText = tree.read(main) ?? '';
  if (hooks.conversion) addHub(tree, n);

  const header =
    tree.read(BOILERPLATE_FILE) ??
    boilerplate(tsopSettings(config).license, tsopSettings(config).owner, scaffoldYear());
  const spokes = (hooks.spoke ?? []).map((v) => spokeData(tree, config, resource, v, webhookFile));
  const data = templateData(tree, config, n, hooks, spokes, webhookFile);
  const firstWebhook = !config.resources.some((r) => r.webhooks);
  for (const f of renderSet('webhook', data)) {
    const content = f.path.endsWith('.ts') ? withHeader(header, f.content) : f.content;
    if (f.path === webhookFile || f.path === posix.join(n.webhookDir, `${n.lowerKind}-webhook.test.ts`))
      tree.create(f.path, content, { force: o.force });
    else if (f.path.startsWith('config/') && !f.path.startsWith('config/crd/')) {
      if (firstWebhook && !tree.exists(f.path)) tree.create(f.path, content);
    } else if (f.path.startsWith('config/crd/') && o.conversion && !n.core) {
      if (!tree.exists(f.path)) tree.create(f.path, content);
    }
  }
  // One converter per spoke, next to the spoke's types; an existing one is the user's and stays.
  for (const s of o.conversion ? spokes : []) {
    const rendered = renderSet('webhook', { ...data, ...s.data }).find((f) => f.path === s.conversionFile);
    if (rendered && (!tree.exists(s.conversionFile) || o.force))
      tree.create(s.conversionFile, withHeader(header, rendered.content), { force: o.force });
  }

  // The runtime's webhook module arrives with the first webhook, and main.ts makes its server
  // for the manager. A main.ts of tsop ≤ 0.2 has no place for it: its manager makes the server
  // from the flags itself (deprecated, with a warning naming the line).
  addRuntimeModule(tree, 'webhook');
  if (mainText.includes(MANAGER_OPTIONS_MARKER)) {
    tree.insert(
      main,
      MARKERS.imports,
      `import { webhookServerFromFlags } from '${importPath(main, `${RUNTIME_DIR}/webhook/index.ts`)}';`,
    );
    tree.insert(
      main,
      MANAGER_OPTIONS_MARKER,
      '// The server the webhooks below register on (HTTPS on --webhook-port).\nwebhookServer: webhookServerFromFlags(flags),',
    );
  }
  const alias = `setup${o.kind}${pascal(o.version)}${n.multigroup && !n.core ? pascal(o.group) : ''}Webhook`;
  tree.insert(
    main,
    MARKERS.imports,
    `import { setup${o.kind}WebhookWithManager as ${alias} } from '${importPath(main, webhookFile)}';`,
  );
  // ENABLE_WEBHOOKS=false runs the manager without them (kubebuilder's switch, e.g. for `npm run run` outside a cluster).
  // Projects scaffolded before webhooks have no webhook marker: the registration goes above the builder's.
  const registration = `if (process.env['ENABLE_WEBHOOKS'] !== 'false') ${alias}(mgr);`;
  tree.insert(main, mainText.includes(WEBHOOK_MARKER) ? WEBHOOK_MARKER : MARKERS.builder, registration);
  enableWebhookKustomize(tree, {
    projectName: config.projectName,
    defaulting: hooks.defaulting === true,
    validation: hooks.validation === true,
    crd:
      o.conversion && !n.core
        ? { name: `${n.plural}.${n.fullGroup}`, patch: `patches/webhook_in_${n.plural}.yaml` }
        : undefined,
  });
  // OLM makes and mounts the serving certificate itself: the bundle's overlay drops the manager's.
  enableOlmCertPatch(tree);

  const updated: ProjectResource = { ...resource, webhooks: hooks };
  const resources = existing
    ? config.resources.map((r) => (r === existing ? updated : r))
    : [...config.resources, updated];
  const next = { ...config, resources };
  tree.overwrite('PROJECT', renderProject(next));
  return next;
}

interface Target {
  resource: ProjectResource;
  existing: ProjectResource | undefined;
  /** --external-api-module, parsed: the package to add to package.json. */
  module?: ExternalModule | undefined;
}

/** The PROJECT resource the webhook is for, checked: a kind of this project, or a built-in kind. */
function findTarget(config: ProjectConfig, o: WebhookOptions): Target {
  if (!o.defaulting && !o.validation && !o.conversion) {
    throw new UserError(
      'nothing to scaffold: pass at least one of --defaulting, --programmatic-validation and --conversion',
    );
  }
  if (o.spokes.length > 0 && !o.conversion)
    throw new UserError(
      `--spoke: '${o.spokes.join(',')}' is only used with --conversion; add --conversion or drop --spoke`,
    );
  if (o.defaultingPath !== undefined && !o.defaulting)
    throw new UserError(
      `--defaulting-path: '${o.defaultingPath}' can only be used with --defaulting; add --defaulting or drop --defaulting-path`,
    );
  if (o.validationPath !== undefined && !o.validation)
    throw new UserError(
      `--validation-path: '${o.validationPath}' can only be used with --programmatic-validation; add --programmatic-validation or drop --validation-path`,
    );
  const external = externalTarget(config, o);
  if (external) return external;
  const mine: ProjectResource = { group: o.group, version: o.version, kind: o.kind, domain: config.domain };
  const existing = config.resources.find((r) =>
    r.core ? r.group === o.group && r.version === o.version && r.kind === o.kind : sameGVK(r, mine),
  );
  const isCore =
    !config.resources.some((r) => r.group === o.group && r.domain === config.domain && !r.core) &&
    o.group in CORE_API_GROUPS;
  if (isCore) {
    if (o.conversion)
      throw new UserError(
        `--conversion: ${o.kind} is a built-in kind of group '${o.group}'; conversion webhooks are for the project's own kinds`,
      );
    return {
      resource: withPlural(existing ?? { group: o.group, version: o.version, kind: o.kind, domain: '', core: true }, o),
      existing,
    };
  }
  if (!existing?.api) {
    throw new UserError(
      [
        `${o.group}/${o.version}, Kind=${o.kind} is not an API of this project (PROJECT); create it first`,
        `with 'tsop create api --group ${o.group} --version ${o.version} --kind ${o.kind}', or use a built-in`,
        `group (${Object.keys(CORE_API_GROUPS).join(', ')})`,
      ].join(' '),
    );
  }
  if (o.plural !== undefined && o.plural !== resourceNames(config, existing).plural) {
    const crdPlural = resourceNames(config, existing).plural;
    throw new UserError(
      `--plural: ${o.kind}'s CRD is served as '${crdPlural}' (set by create api); the webhook must name the same resource, so drop --plural or pass '${crdPlural}'`,
    );
  }
  if (o.conversion) {
    if (o.spokes.length === 0)
      throw new UserError(
        `--conversion needs --spoke: the other versions of ${o.kind} that convert through ${o.version} (the hub), e.g. --spoke v1`,
      );
    const versions = config.resources
      .filter((r) => r.group === o.group && r.kind === o.kind && r.domain === config.domain && r.api)
      .map((r) => r.version);
    for (const s of o.spokes) {
      if (s === o.version)
        throw new UserError(`--spoke: '${s}' is the hub version itself; name the other versions of ${o.kind}`);
      if (!versions.includes(s)) {
        throw new UserError(
          `--spoke: ${o.kind} has no version '${s}' in PROJECT (it has ${versions.join(', ')}); create it first with 'tsop create api --group ${o.group} --version ${s} --kind ${o.kind}'`,
        );
      }
    }
    const otherHub = config.resources.find(
      (r) => r.group === o.group && r.kind === o.kind && r.version !== o.version && r.webhooks?.conversion,
    );
    if (otherHub)
      throw new UserError(
        `--conversion: ${o.kind} ${otherHub.version} is already the hub; a kind has one hub, so add spokes there (--version ${otherHub.version} --spoke ...)`,
      );
  }
  return { resource: existing, existing };
}

/**
 * Another project's kind: named by --external-api-path (and --external-api-domain), or already in
 * PROJECT from `create api --external-api-path`. Undefined when the kind is not an external one.
 */
function externalTarget(config: ProjectConfig, o: WebhookOptions): Target | undefined {
  const existing = config.resources.find(
    (r) => r.external && r.group === o.group && r.version === o.version && r.kind === o.kind,
  );
  if (
    o.externalApiPath === undefined &&
    o.externalApiDomain === undefined &&
    o.externalApiModule === undefined &&
    !existing
  )
    return undefined;
  const module = checkExternalFlags(o, existing?.path);
  const id = `${o.group}/${o.version}, Kind=${o.kind}`;
  if (o.conversion)
    throw new UserError(
      `--conversion: ${id} is another project's kind; conversion webhooks are for the project's own kinds`,
    );
  if (existing && o.externalApiPath !== undefined && existing.path !== o.externalApiPath) {
    throw new UserError(
      `--external-api-path: PROJECT takes ${id} from '${existing.path ?? ''}'; drop --external-api-path or pass '${existing.path ?? ''}'`,
    );
  }
  if (existing && o.externalApiDomain !== undefined && existing.domain !== o.externalApiDomain) {
    throw new UserError(
      `--external-api-domain: PROJECT has ${id} in domain '${existing.domain}'; drop --external-api-domain or pass '${existing.domain}'`,
    );
  }
  if (existing?.module !== undefined && o.externalApiModule !== undefined && existing.module !== o.externalApiModule) {
    throw new UserError(
      `--external-api-module: PROJECT takes ${id} from '${existing.module}'; drop --external-api-module or pass '${existing.module}'`,
    );
  }
  const resource: ProjectResource = existing
    ? { ...existing }
    : {
        group: o.group,
        version: o.version,
        kind: o.kind,
        domain: o.externalApiDomain ?? '',
        external: true,
        path: o.externalApiPath!,
      };
  if (module) resource.module = module.spec;
  return { resource: withPlural(resource, o), existing, module };
}

/** The resource with --plural, which must agree with a plural PROJECT already records for the kind. */
function withPlural(resource: ProjectResource, o: WebhookOptions): ProjectResource {
  if (o.plural === undefined) return resource;
  if (resource.plural !== undefined && resource.plural !== o.plural) {
    throw new UserError(
      `--plural: PROJECT already names ${o.kind}'s plural '${resource.plural}'; the webhooks of one kind share its plural, so drop --plural or pass '${resource.plural}'`,
    );
  }
  return { ...resource, plural: o.plural };
}

interface WebhookNames extends ResourceNames {
  core: boolean;
  external: boolean;
  /** Another project's kind: the module that exports its type. */
  externalPath: string | undefined;
  apiGroup: string;
  webhookDir: string;
}

function names(config: ProjectConfig, r: ProjectResource): WebhookNames {
  const n = resourceNames(config, r);
  const core = r.core === true;
  const apiGroup = core ? (CORE_API_GROUPS[r.group] ?? r.group) : n.fullGroup;
  const webhookDir = n.multigroup
    ? posix.join('src/webhooks', r.group || 'core', r.version)
    : posix.join('src/webhooks', r.version);
  return {
    ...n,
    core,
    external: r.external === true,
    externalPath: r.external ? r.path : undefined,
    apiGroup,
    webhookDir,
    plural: core ? (r.plural ?? pluralOfKind(r.kind)) : n.plural,
    apiVersion: apiGroup ? `${apiGroup}/${r.version}` : r.version,
  };
}

interface SpokeData {
  conversionFile: string;
  data: Record<string, unknown>;
  entry: { version: string; alias: string; importPath: string; apiVersion: string; sampleSpec: string };
}

function spokeData(
  tree: Tree,
  config: ProjectConfig,
  hub: ProjectResource,
  version: string,
  webhookFile: string,
): SpokeData {
  const spoke = config.resources.find(
    (r) => r.group === hub.group && r.kind === hub.kind && r.version === version && r.domain === hub.domain,
  )!;
  const sn = resourceNames(config, spoke);
  const hn = resourceNames(config, hub);
  const conversionFile = posix.join(sn.paths.apiDir, `${sn.lowerKind}-conversion.ts`);
  return {
    conversionFile,
    data: {
      apiDir: sn.paths.apiDir,
      version,
      hubVersion: hub.version,
      hubImport: importPath(conversionFile, hn.paths.types),
      selfImport: importPath(conversionFile, sn.paths.types),
      hubWebhook: webhookFile,
      conversionFile,
      // Copying spec and status type-checks only when both versions declare the same types.
      sameShapes: sameShapes(tree.read(hn.paths.types) ?? '', tree.read(sn.paths.types) ?? ''),
      runtimeFromApi: posix.relative(sn.paths.apiDir, RUNTIME_DIR),
    },
    entry: {
      version,
      alias: `${camelKind(hub.kind)}${pascal(version)}Conversion`,
      importPath: importPath(webhookFile, conversionFile),
      apiVersion: sn.apiVersion,
      sampleSpec: sampleSpecSource(tree, sn.paths.crd, version, 3),
    },
  };
}

function templateData(
  tree: Tree,
  config: ProjectConfig,
  n: WebhookNames,
  hooks: ResourceWebhooks,
  spokes: SpokeData[],
  webhookFile: string,
): Record<string, unknown> {
  const admission = hooks.defaulting === true || hooks.validation === true;
  const imports = new Set<string>();
  if (admission) imports.add('webhookFor');
  if (hooks.conversion) imports.add('conversionFor');
  if (hooks.validation) imports.add('FieldError').add('ValidationError');
  if (admission) imports.add('type AdmissionContext');
  if (hooks.defaulting) imports.add('type CustomDefaulter');
  if (hooks.validation) imports.add('type CustomValidator').add('type Warnings');
  const tests = [
    hooks.defaulting ? `${n.kind}CustomDefaulter` : '',
    hooks.validation ? `${n.kind}CustomValidator` : '',
  ].filter(Boolean);
  const webhookDir = posix.dirname(webhookFile);
  const kindType = webhookKindType(n.kind);
  // A core kind's test goes through the API server when a valid sample of it is known.
  // Another project's kind has no CRD here to serve it: its test calls the classes directly.
  const sample = n.core
    ? coreSample(n.group, n.version, n.kind)
    : n.external
      ? undefined
      : { namespaced: n.namespaced, body: `spec: ${sampleSpecSource(tree, n.paths.crd, n.version, 2)}` };
  return {
    ...n,
    namespaced: sample?.namespaced ?? n.namespaced,
    envtest: admission && sample !== undefined,
    sampleBody: sample?.body ?? '',
    lowerKind: lowerKind(n.kind),
    webhookDir,
    apiDir: n.paths.apiDir,
    projectName: config.projectName,
    defaulting: hooks.defaulting === true,
    validation: hooks.validation === true,
    conversion: hooks.conversion === true,
    admission,
    webhookImports: [...imports].join(', '),
    testImports: tests.join(', '),
    coreType: `V1${n.kind}`,
    external: n.external,
    externalTypeImport: importMember(n.kind, kindType),
    externalImport:
      n.externalPath === undefined
        ? ''
        : isProjectFile(n.externalPath)
          ? importPath(webhookFile, n.externalPath.replace(/^\.\//, ''))
          : n.externalPath,
    defaultingPath: hooks.defaultingPath ?? conventionalPath(n, 'mutate'),
    customDefaultingPath: hooks.defaultingPath !== undefined,
    validationPath: hooks.validationPath ?? conventionalPath(n, 'validate'),
    customValidationPath: hooks.validationPath !== undefined,
    runtimeFromWebhook: posix.relative(webhookDir, RUNTIME_DIR),
    configFromWebhook: posix.relative(webhookDir, 'config'),
    typesImport: importPath(webhookFile, n.paths.types),
    kindType,
    kindTypeImport: importMember(n.kind, kindType, true),
    selfImport: '',
    spokes: spokes.map((s) => s.entry),
    hubSampleSpec: hooks.conversion ? sampleSpecSource(tree, n.paths.crd, n.version, 3) : '{}',
    // Only a spoke's render fills these; the conversion template is skipped otherwise.
    version: n.version,
    hubVersion: n.version,
    hubImport: '',
    hubWebhook: webhookFile,
    conversionFile: '',
    sameShapes: true,
    runtimeFromApi: posix.relative(n.paths.apiDir, RUNTIME_DIR),
  };
}

/** The path the runtime serves a kind's webhook at (runtime/shapes), as controller-runtime does. */
function conventionalPath(n: Pick<WebhookNames, 'apiGroup' | 'version' | 'kind'>, type: 'mutate' | 'validate'): string {
  return admissionPath(type, n.apiGroup, n.version, n.kind);
}

/** The admission paths a resource's webhooks are served at, with what each one is. */
function admissionPaths(
  config: ProjectConfig,
  r: ProjectResource,
  hooks: ResourceWebhooks | undefined,
  n = names(config, r),
): Array<{ path: string; what: string }> {
  const id = `${r.core ? r.group : n.fullGroup}/${r.version} ${r.kind}`;
  const out: Array<{ path: string; what: string }> = [];
  if (hooks?.defaulting)
    out.push({ path: hooks.defaultingPath ?? conventionalPath(n, 'mutate'), what: `the defaulting webhook of ${id}` });
  if (hooks?.validation)
    out.push({
      path: hooks.validationPath ?? conventionalPath(n, 'validate'),
      what: `the validating webhook of ${id}`,
    });
  return out;
}

/** One path serves one webhook: a custom path may not take another webhook's (this kind's or another's). */
function checkPathClashes(
  config: ProjectConfig,
  resource: ProjectResource,
  n: WebhookNames,
  hooks: ResourceWebhooks,
): void {
  const mine = admissionPaths(config, resource, hooks, n);
  const others = config.resources
    .filter((r) => r.webhooks && !sameGVK(r, resource))
    .flatMap((r) => admissionPaths(config, r, r.webhooks));
  const [first, second] = mine;
  if (first && second && first.path === second.path) {
    throw new UserError(
      [
        `--${hooks.validationPath !== undefined ? 'validation-path' : 'defaulting-path'}: '${first.path}' is`,
        `used by both webhooks of ${resource.kind}; the defaulting and the validating webhook need paths of`,
        `their own`,
      ].join(' '),
    );
  }
  for (const m of mine) {
    const taken = others.find((x) => x.path === m.path);
    if (taken)
      throw new UserError(
        `--${m.what.startsWith('the defaulting') ? 'defaulting-path' : 'validation-path'}: '${m.path}' is already served by ${taken.what}; choose another path`,
      );
  }
}

/** What the webhook, its test and a spoke's converter import besides the kind (`<Kind>Object`, `Hub`, `Self` are declared). */
const WEBHOOK_TEMPLATE_NAMES = new Set(
  `KubeObject Manager Webhook FieldError ValidationError AdmissionContext CustomDefaulter CustomValidator Warnings Client
  Spoke Hub Self`.split(/\s+/),
);

/**
 * The local name of the kind's type in webhook modules: the kind, or `<Kind>Type` where it would
 * shadow a global or a name those modules import (`Promise`, `Client`, `Manager`).
 */
function webhookKindType(kind: string): string {
  return clashesWithGlobal(kind) || WEBHOOK_TEMPLATE_NAMES.has(kind) ? `${kind}Type` : kind;
}

/** `@Hub()` on the hub version's kind class, and `Hub` in its markers import. */
function addHub(tree: Tree, n: WebhookNames): void {
  const file = n.paths.types;
  if (!tree.exists(file))
    throw new UserError(
      `--conversion: ${file} does not exist; the hub version's types must be there to mark them @Hub()`,
    );
  editSource(tree, file, (source) => {
    if (source.decorators('Hub').length > 0) return;
    const resource = source.decorators('Resource')[0];
    const markers = source.namedImport((module) => module.endsWith('/markers/index.js'));
    if (!resource || !markers) {
      throw new UserError(
        [
          `--conversion: cannot find the @Resource class of ${n.kind} or its markers import in ${file}; add`,
          `'Hub' to the import from the runtime's markers and '@Hub()' above @Resource, then run this again`,
        ].join(' '),
      );
    }
    source.add(source.lineAboveEdit(resource.decorator, '@Hub()'), ...source.addNamedImportEdits(markers, 'Hub'));
  });
}

function describe(h: ResourceWebhooks): string {
  return [h.defaulting ? 'defaulting' : '', h.validation ? 'validation' : '', h.conversion ? 'conversion' : '']
    .filter(Boolean)
    .join(', ');
}
