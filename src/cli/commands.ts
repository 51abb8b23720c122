/**
 * The list of tsop commands, in the order `tsop --help` shows them. Adding a command is one entry
 * here plus its module in this folder.
 */
import type { Command } from 'commander';
import type { AlphaGenerateFlags } from './alpha-generate.js';
import type { AlphaUpdateFlags } from './alpha-update.js';
import type { CreateApiFlags } from './create-api.js';
import type { CreateWebhookFlags } from './create-webhook.js';
import type { DevCommandFlags } from './dev.js';
import type { EditFlags } from './edit.js';
import type { InitFlags } from './init.js';
import { booleanFlag as boolean, wholeNumber } from './flags.js';
import { registerEnvtestCommand } from './envtest-command.js';
import { registerOlmCommands } from './olm-commands.js';

/** The marker catalog, for `manifests --help` only: loaded by the hook below, not by every command. */
const markers = { help: (): string => '' };

export function registerCommands(program: Command): void {
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub.name() === 'manifests') markers.help = (await import('../codegen/markers/index.js')).markerHelp;
  });
  // `create api --version v1` must reach the subcommand, not tsop's own --version.
  program.enablePositionalOptions();
  program
    .command('init')
    .description('scaffold a new operator project (PROJECT, package.json, src/main.ts, the runtime, config/)')
    .option('--domain <domain>', 'domain of the API groups', 'my.domain')
    .option('--project-name <name>', 'project name, a DNS-1123 label (default: the directory name)')
    .option('--repo <name>', 'npm package name of the project (default: the project name)')
    .option('--owner <owner>', 'copyright owner in the license header')
    .option('--license <license>', "license header: 'apache2' or 'none'", 'apache2')
    .option('--namespaced [bool]', 'watch one namespace (WATCH_NAMESPACE) with a Role instead of a ClusterRole', boolean)
    .option('--multigroup [bool]', 'lay out APIs as src/api/<group>/<version>', boolean)
    .option('--license-file <path>', "file whose content becomes the license header (hack/boilerplate.ts.txt); a /* ... */ comment block; overrides --license")
    .option('--plugins <keys>', "plugin keys, comma-separated: the base layout (typescript.tsop.dev/v1, or kubebuilder's go/v4) and the OLM plugins (manifests.sdk.tsop.dev/v2, scorecard.sdk.tsop.dev/v2, or operator-sdk's keys)")
    .option('--skip-install [bool]', 'do not run npm install', boolean)
    .option('--fetch-deps [bool]', "kubebuilder's name for the opposite of --skip-install: --fetch-deps=false installs nothing (default true)", boolean)
    .option('--project-version <version>', 'PROJECT file version; only "3" (kubebuilder\'s default)')
    .option('--force [bool]', "overwrite existing files (refused when PROJECT lists resources: 'alpha update' keeps them)", boolean)
    .option('--over-kubebuilder [bool]', "in a kubebuilder (Go) project's directory: add only the files it does not have; its PROJECT becomes PROJECT.kubebuilder", boolean)
    .option('--dry-run [bool]', 'print the files that would be written; write nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: InitFlags) => {
      const { runInit } = await import('./init.js');
      await runInit(opts);
    });

  const create = program.command('create').description('scaffold an API (create api) or webhooks (create webhook)');
  create
    .command('api')
    .description('scaffold a kind (types, sample, roles) and its controller (reconciler, test, registration)')
    .option('--group <group>', 'API group, without the domain (e.g. batch)')
    .option('--version <version>', 'API version (e.g. v1, v1alpha1)')
    .option('--kind <kind>', 'kind, UpperCamelCase (e.g. CronJob)')
    .option('--plural <plural>', "resource plural (default: kubebuilder's pluralisation of the kind)")
    .option('--resource [bool]', 'scaffold the API types (asked on a terminal when absent)', boolean)
    .option('--controller [bool]', 'scaffold the controller (asked on a terminal when absent)', boolean)
    .option('--namespaced [bool]', 'the kind is namespaced (default true; false = cluster-scoped)', boolean)
    .option('--force [bool]', 'scaffold again over existing files', boolean)
    .option('--make [bool]', 'run tsop manifests afterwards (default true)', boolean)
    .option('--plugins <keys>', 'comma-separated plugin keys to run after the base layout, in the same plan')
    .option('--image <image>', 'deploy-image: the operand image the controller deploys (e.g. memcached:1.6.26-alpine)')
    .option('--image-container-command <words>', 'deploy-image: the container command, comma-separated (e.g. memcached,--memory-limit=64,-o,modern,-v)')
    .option('--image-container-port <port>', 'deploy-image: the container port; adds a required spec.containerPort')
    .option('--run-as-user <uid>', "deploy-image: the container's securityContext.runAsUser")
    .option('--manifests [bool]', "run tsop manifests afterwards (deploy-image's name for --make; default true)", boolean)
    .option('--external-api-path <module>', "with --resource=false: the package or project file (src/….ts) that exports another project's kind")
    .option('--external-api-domain <domain>', "with --external-api-path: the domain of that kind's API group (e.g. 'io' for cert-manager.io)")
    .option('--external-api-module <package>', "with --external-api-path: the npm package that provides it, optionally @version (added to package.json's dependencies)")
    .option('--controller-name <name>', 'with --controller: a further controller of the kind, in src/controllers/<name>-controller.ts (e.g. memcached-backup)')
    .option('--dry-run [bool]', 'print the files that would be written or changed; write nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: CreateApiFlags) => {
      // Started before the scaffolding modules load, so ts-morph loads alongside them.
      const reader = opts.make !== false && opts.manifests !== false && opts.dryRun !== true ? (await import('../codegen/reader/background.js')).startReaderInBackground() : undefined;
      const { runCreateApi } = await import('./create-api.js');
      await runCreateApi(opts, undefined, reader);
    });

  create
    .command('webhook')
    .description('scaffold admission webhooks (defaulting, validation) or a conversion webhook for a kind, and enable them in config/')
    .option('--group <group>', "API group, without the domain; or a built-in group such as 'core' or 'apps'")
    .option('--version <version>', 'API version (e.g. v1, v1alpha1); with --conversion, the hub version')
    .option('--kind <kind>', 'kind, UpperCamelCase (e.g. CronJob)')
    .option('--defaulting [bool]', 'scaffold a defaulting (mutating) webhook', boolean)
    .option('--programmatic-validation [bool]', 'scaffold a validating webhook (create, update, delete)', boolean)
    .option('--conversion [bool]', 'scaffold a conversion webhook: --version becomes the hub', boolean)
    .option('--spoke <versions>', 'with --conversion: the other versions that convert through the hub, comma-separated (e.g. v1,v2)')
    .option('--defaulting-path <path>', 'with --defaulting: serve it at this path instead of /mutate-<group>-<version>-<kind> (e.g. /my-mutate)')
    .option('--validation-path <path>', 'with --programmatic-validation: serve it at this path instead of /validate-<group>-<version>-<kind>')
    .option('--plural <plural>', "a built-in or external kind's irregular plural (default: kubebuilder's pluralisation of the kind; a project kind's is its CRD's)")
    .option('--external-api-path <module>', "another project's kind: the package or project file (src/….ts) that exports its type")
    .option('--external-api-domain <domain>', "with --external-api-path: the domain of that kind's API group (e.g. 'io' for cert-manager.io)")
    .option('--external-api-module <package>', "with --external-api-path: the npm package that provides it, optionally @version (added to package.json's dependencies)")
    .option('--force [bool]', 'scaffold again over existing webhook files', boolean)
    .option('--make [bool]', 'run tsop manifests afterwards (default true)', boolean)
    .option('--dry-run [bool]', 'print the files that would be written or changed; write nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: CreateWebhookFlags) => {
      const { runCreateWebhook } = await import('./create-webhook.js');
      await runCreateWebhook(opts);
    });

  program
    .command('edit')
    .description('change project settings (multigroup, namespaced, license, owner) and the files that depend on them, or add a Helm chart (--plugins helm/v2-alpha)')
    .option('--multigroup [bool]', 'lay out new APIs as src/api/<group>/<version>', boolean)
    .option('--namespaced [bool]', 'watch one namespace with a Role and RoleBinding', boolean)
    .option('--license <license>', "license header: 'apache2' or 'none'")
    .option('--owner <owner>', 'copyright owner in the license header')
    .option('--license-file <path>', 'file whose content becomes the license header of every scaffolded TypeScript file (a /* ... */ comment block)')
    .option('--plugins <keys>', "plugin to run: 'helm/v2-alpha' writes a Helm chart in dist/chart from the kustomize output")
    .option('--force [bool]', 'helm/v2-alpha: also rewrite values.yaml, NOTES.txt, _helpers.tpl, .helmignore and the network policies (never Chart.yaml)', boolean)
    .option('--manifests <file>', 'helm/v2-alpha: kustomize output to build the chart from (default: build it into dist/install.yaml)')
    .option('--output-dir <dir>', 'helm/v2-alpha: the chart goes to <dir>/chart (default dist)')
    .option('--dry-run [bool]', 'print the files that would change; write nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: EditFlags) => {
      const { runEdit } = await import('./edit.js');
      await runEdit(opts);
    });

  // kubebuilder's `alpha` commands: re-scaffold from PROJECT, and take a newer tsop's scaffolding.
  const alpha = program.command('alpha').description('experimental commands (alpha generate, alpha update)');
  alpha
    .command('generate')
    .description('re-scaffold the project from its PROJECT file into a new directory with this tsop')
    .option('--input-dir <path>', 'project to read PROJECT from (default: the current directory)')
    .option('--output-dir <path>', 'new or empty directory to scaffold into')
    .action(async (opts: AlphaGenerateFlags) => {
      const { runAlphaGenerate } = await import('./alpha-generate.js');
      await runAlphaGenerate(opts);
    });
  alpha
    .command('update')
    .description("bring the project to a newer tsop's scaffolding: a 3-way merge committed on a branch of its own, then the project's type-check (refuses a dirty tree)")
    .option('--from-version <version>', 'the tsop version that scaffolded the project (default: cliVersion in PROJECT)')
    .option('--to-version <version>', 'the tsop version to update to (default: this tsop; another one runs through npx)')
    .option('--from-branch <branch>', 'the branch to update (default: the one checked out); it is left as it is')
    .option('--output-branch <branch>', 'the branch the update is committed on (default: tsop-update-from-<from>-to-<to>)')
    .option('--force [bool]', 'commit conflicts with their markers instead of leaving them unmerged (exit 1 all the same)', boolean)
    .option('--ci [bool]', 'for automation: nothing interactive, conflicts committed with their markers, exit 1 on conflicts or type errors and 2 when the type-check cannot run', boolean)
    .option('--typecheck [bool]', "run the project's type-check after the merge and report each error with the tsop change behind it (default true)", boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: AlphaUpdateFlags) => {
      const { runAlphaUpdate } = await import('./alpha-update.js');
      await runAlphaUpdate(opts);
    });

  program
    .command('manifests')
    .description('generate CRDs (config/crd/bases), RBAC (config/rbac/role.yaml) and webhook configurations (config/webhook/manifests.yaml) from decorated classes')
    .option('--dir <path>', 'project root', '.')
    .option('--output-dir <path>', 'directory to write into, relative to --dir', 'config')
    .option('--check [bool]', 'write nothing; print a diff of out-of-date files and breaking schema changes, exit 1 if any', boolean)
    .option('--max-desc-len <n>', 'shorten descriptions to n characters (0 removes them)', wholeNumber)
    .option('--verify [bool]', 'write nothing; install the CRDs on a throwaway control plane and dry-run config/samples, one line per finding, exit 1 on any error', boolean)
    .option('--generate-embedded-object-meta [bool]', "keep name, namespace, labels, annotations and finalizers of ObjectMeta nested in a spec (pod templates), as controller-gen's crd:generateEmbeddedObjectMeta; default from PROJECT (plugins.manifests.typescript.tsop.dev/v1), else false", boolean)
    .option('--controller-gen-compat [bool]', "write controller-gen's text where tsop writes otherwise: @UniqueItems as uniqueItems: true (the API server refuses it), a nullable enum as enum + nullable (the API server then refuses null), @XIntOrString on a string or integer field with that type kept beside x-kubernetes-int-or-string; default from PROJECT (plugins.manifests.typescript.tsop.dev/v1), else false", boolean)
    .addHelpText('after', () => `\nAPI conventions: a class decorated @Resource(...) under src/api/ is a kind; its group and version come from\n\`export const groupVersion = { group, version }\` in its directory; classes with @Rbac(...) are controllers.\nTypeScript number becomes 'type: number'; use int32/int64 for integers.\n${markers.help()}\n`)
    .action(async (opts: { dir: string; outputDir: string; check?: boolean; maxDescLen?: number; generateEmbeddedObjectMeta?: boolean; controllerGenCompat?: boolean; verify?: boolean }) => {
      const { runManifests } = await import('./manifests.js');
      await runManifests(opts);
    });

  // `import crd` / `import kubebuilder`: existing CRDs (or a kubebuilder project's APIs) → decorated TypeScript.
  const importCommand = program.command('import').description('bring existing CRDs (import crd) or a kubebuilder project\'s APIs (import kubebuilder) into TypeScript, losslessly');
  importCommand
    .command('crd <source>')
    .description('write decorated TypeScript for each CRD in a file, a directory of YAML files, a URL or - (stdin), so `tsop manifests` regenerates the same CRD')
    .option('--own [bool]', 'the kinds become APIs of this project: PROJECT entry, src/api/<version>/, samples (the default)', boolean)
    .option('--external [bool]', "types only, for another project's kinds this one watches or creates: src/external/<group>/<version>/, and the CRD in config/crd/external/", boolean)
    .option('--allow-lossy [bool]', "write the closest TypeScript where a CRD uses what tsop cannot express, with a '// tsop: not expressible' comment there (without it: exit 1, nothing written)", boolean)
    .option('--force [bool]', 'overwrite files that exist', boolean)
    .option('--make [bool]', 'run tsop manifests afterwards (default true)', boolean)
    .option('--dry-run [bool]', 'print the files that would be written or changed; write nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (source: string, opts: import('./import.js').ImportCrdFlags) => {
      const { runImportCrd } = await import('./import.js');
      await runImportCrd(source, opts);
    });
  importCommand
    .command('kubebuilder <dir>')
    .description("make a tsop project of a kubebuilder project: its domain, repo, multigroup and namespaced settings, every kind it owns imported from config/crd/bases, and the Go files to rewrite listed")
    .option('--allow-lossy [bool]', "write the closest TypeScript where a CRD uses what tsop cannot express, with a '// tsop: not expressible' comment there", boolean)
    .option('--force [bool]', 'overwrite files that exist', boolean)
    .option('--make [bool]', 'run tsop manifests afterwards (default true)', boolean)
    .option('--dry-run [bool]', 'print the files that would be written; write nothing', boolean)
    .option('--dir <path>', 'the tsop project to write (default: the current directory; made with the kubebuilder settings when it has no PROJECT)')
    .action(async (dir: string, opts: import('./import.js').ImportKubebuilderFlags) => {
      const { runImportKubebuilder } = await import('./import.js');
      await runImportKubebuilder(dir, opts);
    });

  program
    .command('dev')
    .description('the inner loop: an embedded control plane, CRDs applied, the operator run from source and restarted on save, config/samples applied; Ctrl-C stops it all')
    .option('--dir <path>', 'project directory (default: the current directory)')
    .option('--kubeconfig [path]', 'use this cluster instead of an embedded control plane (without a path: $KUBECONFIG or ~/.kube/config, its current context)')
    .option('--samples [bool]', 'apply config/samples at start and on save (default true)', boolean)
    .option('--keep [dir]', "keep the embedded control plane's data (etcd) in this folder for the next --keep run, so its objects survive Ctrl-C (without a path: .tsop/dev in the project)")
    .option('--controllers [bool]', 'the fuller plane: kube-controller-manager, kube-scheduler and kwok nodes, so pods are scheduled and run, Jobs complete and owned objects are garbage-collected (default: on when the controllers may create workloads)', boolean)
    .option('--nodes <n>', 'kwok nodes of the fuller plane (default 1)', wholeNumber)
    .action(async (opts: DevCommandFlags) => {
      const { runDevCommand } = await import('./dev.js');
      await runDevCommand(opts);
    });

  registerEnvtestCommand(program);

  program
    .command('docs')
    .description('write the API reference in Markdown (one page per group/version: fields, types, validation, defaults), as crd-ref-docs does for Go')
    .option('--dir <path>', 'project root', '.')
    .option('--out <path>', 'folder to write the pages into, relative to --dir', 'docs/api')
    .option('--check [bool]', 'write nothing; exit 1 if a page is out of date', boolean)
    .action(async (opts: { dir: string; out: string; check?: boolean }) => {
      const { runDocs } = await import('./docs.js');
      await runDocs(opts);
    });

  registerOlmCommands(program);
}
