/**
 * The flags of the scaffolding commands that belong to the base layout and to the commands
 * themselves (init, create api, create webhook, edit), each declared once (src/flag.ts). The
 * plugins declare their own beside them (deploy-image/flags.ts, helm/flags.ts), and
 * ../command-flags.ts puts each command's together. It must stay light to load, as `tsop --help`
 * loads it.
 */
import type { ProjectConfig, ProjectResource } from '../../project/config.js';
import { UserError } from '../../errors.js';
import { bool, defineFlags, defineReplayedFlags, projectDir, text } from '../../flag.js';
import {
  checkControllerName,
  checkDomain,
  checkKind,
  checkPlural,
  checkVersion,
  checkWebhookPath,
} from '../../project/naming.js';
import { checkOwner } from '../../scaffold/boilerplate.js';

/** `--spoke v1, v2` → the versions (commas, spaces around them, empty entries dropped). */
export function spokeVersions(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const LICENSE = { values: ['apache2', 'none'], noun: 'a known license' } as const;

/** What `alpha generate` replays `init` from: PROJECT, and the settings read from it. */
export interface InitReplay {
  config: ProjectConfig;
  license: string;
  owner?: string | undefined;
  /** The OLM plugin keys PROJECT records. */
  olmPlugins: string[];
}

export const INIT_FLAGS = defineReplayedFlags<InitReplay>()({
  domain: text<InitReplay>('domain', 'domain of the API groups', {
    default: 'my.domain',
    check: checkDomain,
    replay: (r) => r.config.domain,
  }),
  projectName: text<InitReplay>('name', 'project name, a DNS-1123 label (default: the directory name)', {
    replay: (r) => r.config.projectName,
  }),
  repo: text<InitReplay>('name', 'npm package name of the project (default: the project name)', {
    aliases: ['package-name'],
    replay: (r) => r.config.repo,
  }),
  owner: text<InitReplay>('owner', 'copyright owner in the license header', {
    check: checkOwner,
    replay: (r) => r.owner,
  }),
  license: text<InitReplay>('license', "license header: 'apache2' or 'none'", {
    default: 'apache2',
    choices: LICENSE,
    replay: (r) => r.license,
  }),
  namespaced: bool<InitReplay>('watch one namespace (WATCH_NAMESPACE) with a Role instead of a ClusterRole', {
    replay: (r) => r.config.namespaced === true,
  }),
  multigroup: bool<InitReplay>('lay out APIs as src/api/<group>/<version>', {
    replay: (r) => r.config.multigroup === true,
  }),
  licenseFile: text(
    'path',
    'file whose content becomes the license header (hack/boilerplate.ts.txt); a /* ... */ comment block; overrides --license',
  ),
  plugins: text<InitReplay>(
    'keys',
    "plugin keys, comma-separated: the base layout (typescript.tsop.dev/v1, or kubebuilder's go/v4) and the OLM plugins (manifests.sdk.tsop.dev/v2, scorecard.sdk.tsop.dev/v2, or operator-sdk's keys)",
    {
      replay: (r) => (r.olmPlugins.length > 0 ? r.olmPlugins.join(',') : undefined),
    },
  ),
  skipInstall: bool<InitReplay>('do not run npm install', { replay: () => true }),
  fetchDeps: bool(
    "kubebuilder's name for the opposite of --skip-install: --fetch-deps=false installs nothing (default true)",
  ),
  projectVersion: text('version', 'PROJECT file version; only "3" (kubebuilder\'s default)', {
    check: (v) => {
      if (v !== '3')
        throw new UserError(`--project-version: '${v}' is not a PROJECT version tsop writes; use 3 (or leave it out)`);
    },
  }),
  force: bool("overwrite existing files (refused when PROJECT lists resources: 'alpha update' keeps them)"),
  overKubebuilder: bool(
    "in a kubebuilder (Go) project's directory: add only the files it does not have; its PROJECT becomes PROJECT.kubebuilder",
  ),
  dryRun: bool('print the files that would be written; write nothing'),
  dir: projectDir(),
});

/** What `alpha generate` replays `create api` and `create webhook` from: one PROJECT resource. */
export interface ResourceReplay {
  config: ProjectConfig;
  resource: ProjectResource;
}

/** Another project's kind (create api --resource=false, create webhook), named again as PROJECT records it. */
const external = (pathHelp: string) =>
  ({
    externalApiPath: text<ResourceReplay>('module', pathHelp, {
      replay: ({ resource: r }) => (r.external === true ? r.path : undefined),
    }),
    externalApiDomain: text<ResourceReplay>(
      'domain',
      "with --external-api-path: the domain of that kind's API group (e.g. 'io' for cert-manager.io)",
      {
        replay: ({ resource: r }) => (r.external === true && r.domain !== '' ? r.domain : undefined),
      },
    ),
    externalApiModule: text<ResourceReplay>(
      'package',
      "with --external-api-path: the npm package that provides it, optionally @version (added to package.json's dependencies)",
      {
        replay: ({ resource: r }) => (r.external === true ? r.module : undefined),
      },
    ),
  }) as const;

const gvk = (groupHelp: string, versionHelp: string) =>
  ({
    group: text<ResourceReplay>('group', groupHelp, { replay: ({ resource: r }) => r.group }),
    version: text<ResourceReplay>('version', versionHelp, {
      check: (v) => checkVersion(v),
      replay: ({ resource: r }) => r.version,
    }),
    kind: text<ResourceReplay>('kind', 'kind, UpperCamelCase (e.g. CronJob)', {
      check: checkKind,
      replay: ({ resource: r }) => r.kind,
    }),
  }) as const;

/** `create api`'s flags before the plugins' (which follow --plugins). */
export const CREATE_API_BASE_FLAGS = defineReplayedFlags<ResourceReplay>()({
  ...gvk('API group, without the domain (e.g. batch)', 'API version (e.g. v1, v1alpha1)'),
  plural: text<ResourceReplay>('plural', "resource plural (default: kubebuilder's pluralisation of the kind)", {
    check: checkPlural,
    replay: ({ resource: r }) => r.plural,
  }),
  resource: bool<ResourceReplay>('scaffold the API types (asked on a terminal when absent)', {
    replay: ({ resource: r }) => r.api !== undefined,
  }),
  controller: bool('scaffold the controller (asked on a terminal when absent)'),
  // A built-in kind's scope is known to create api; a flag here would override it.
  namespaced: bool<ResourceReplay>('the kind is namespaced (default true; false = cluster-scoped)', {
    replay: ({ resource: r }) => r.api?.namespaced,
  }),
  force: bool('scaffold again over existing files'),
  make: bool<ResourceReplay>('run tsop manifests afterwards (default true)', { replay: () => false }),
  plugins: text('keys', 'comma-separated plugin keys to run after the base layout, in the same plan'),
});

/** `create api`'s flags after the plugins'. */
export const CREATE_API_TAIL_FLAGS = defineReplayedFlags<ResourceReplay>()({
  manifests: bool("run tsop manifests afterwards (deploy-image's name for --make; default true)"),
  ...external("with --resource=false: the package or project file (src/….ts) that exports another project's kind"),
  controllerName: text(
    'name',
    'with --controller: a further controller of the kind, in src/controllers/<name>-controller.ts (e.g. memcached-backup)',
    { check: checkControllerName },
  ),
  dryRun: bool('print the files that would be written or changed; write nothing'),
  dir: projectDir(),
});

export const CREATE_WEBHOOK_FLAGS = defineReplayedFlags<ResourceReplay>()({
  ...gvk(
    "API group, without the domain; or a built-in group such as 'core' or 'apps'",
    'API version (e.g. v1, v1alpha1); with --conversion, the hub version',
  ),
  defaulting: bool<ResourceReplay>('scaffold a defaulting (mutating) webhook', {
    replay: ({ resource: r }) => r.webhooks?.defaulting === true,
  }),
  programmaticValidation: bool<ResourceReplay>('scaffold a validating webhook (create, update, delete)', {
    replay: ({ resource: r }) => r.webhooks?.validation === true,
  }),
  conversion: bool<ResourceReplay>('scaffold a conversion webhook: --version becomes the hub', {
    replay: ({ resource: r }) => r.webhooks?.conversion === true,
  }),
  spoke: text<ResourceReplay>(
    'versions',
    'with --conversion: the other versions that convert through the hub, comma-separated (e.g. v1,v2)',
    {
      check(list) {
        const spokes = spokeVersions(list);
        if (spokes.length === 0)
          throw new UserError(
            "--spoke: '' names no version; give the spoke versions, comma-separated (e.g. --spoke v1,v2)",
          );
        for (const s of spokes) checkVersion(s, 'spoke');
      },
      replay: ({ resource: r }) =>
        r.webhooks?.spoke && r.webhooks.spoke.length > 0 ? r.webhooks.spoke.join(',') : undefined,
    },
  ),
  defaultingPath: text<ResourceReplay>(
    'path',
    'with --defaulting: serve it at this path instead of /mutate-<group>-<version>-<kind> (e.g. /my-mutate)',
    {
      check: (path) => checkWebhookPath(path, 'defaulting-path'),
      replay: ({ resource: r }) => r.webhooks?.defaultingPath,
    },
  ),
  validationPath: text<ResourceReplay>(
    'path',
    'with --programmatic-validation: serve it at this path instead of /validate-<group>-<version>-<kind>',
    {
      check: (path) => checkWebhookPath(path, 'validation-path'),
      replay: ({ resource: r }) => r.webhooks?.validationPath,
    },
  ),
  // A project kind's plural is its CRD's; create webhook takes it from PROJECT.
  plural: text<ResourceReplay>(
    'plural',
    "a built-in or external kind's irregular plural (default: kubebuilder's pluralisation of the kind; a project kind's is its CRD's)",
    {
      check: checkPlural,
      replay: ({ resource: r }) => (r.core || r.external ? r.plural : undefined),
    },
  ),
  ...external("another project's kind: the package or project file (src/….ts) that exports its type"),
  force: bool('scaffold again over existing webhook files'),
  make: bool<ResourceReplay>('run tsop manifests afterwards (default true)', { replay: () => false }),
  dryRun: bool('print the files that would be written or changed; write nothing'),
  dir: projectDir(),
});

/** The settings `edit` changes: the base layout's flags (the Helm plugin refuses them). */
export const EDIT_SETTINGS_FLAGS = defineFlags({
  multigroup: bool('lay out new APIs as src/api/<group>/<version>'),
  namespaced: bool('watch one namespace with a Role and RoleBinding'),
  sharding: bool(
    "add the runtime's sharding module (src/runtime/sharding/) and pass it to the manager in main.ts, so --sharding=<ring> can shard the controllers",
  ),
  license: text('license', "license header: 'apache2' or 'none'", { choices: LICENSE }),
  owner: text('owner', 'copyright owner in the license header', { check: checkOwner }),
  licenseFile: text(
    'path',
    'file whose content becomes the license header of every scaffolded TypeScript file (a /* ... */ comment block)',
  ),
});

/** `edit`'s own flags before the plugins'. */
export const EDIT_COMMAND_FLAGS = defineFlags({
  plugins: text('keys', "plugin to run: 'helm/v2-alpha' writes a Helm chart in dist/chart from the kustomize output"),
  // Read by the Helm plugin only, but taken (and ignored) without it, as it always was.
  force: bool(
    'helm/v2-alpha: also rewrite values.yaml, NOTES.txt, _helpers.tpl, .helmignore and the network policies (never Chart.yaml)',
  ),
});

/** `edit`'s flags after the plugins'. */
export const EDIT_TAIL_FLAGS = defineFlags({
  dryRun: bool('print the files that would change; write nothing'),
  dir: projectDir(),
});
