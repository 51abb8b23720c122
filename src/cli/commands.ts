/**
 * The list of tsop commands, in the order `tsop --help` shows them, and the one place their flag
 * declarations (src/flag.ts) become commander options. Adding a command is one entry here, its
 * flags declared beside what owns them (command-flags.ts; a scaffolding command's in the plugins,
 * src/plugins/command-flags.ts), and its module in this folder. It must stay light to load, as
 * `tsop --help` loads it: each command's module is imported when it runs.
 */
import { Option, type Command } from 'commander';
import type { AlphaGenerateFlags } from './alpha-generate.js';
import type { AlphaUpdateFlags } from './alpha-update.js';
import type { CreateApiFlags } from './create-api.js';
import type { CreateWebhookFlags } from './create-webhook.js';
import type { DevCommandFlags } from './dev.js';
import type { DocsFlags } from './docs.js';
import type { EditFlags } from './edit.js';
import type { ImportCrdFlags, ImportKubebuilderFlags } from './import.js';
import type { InitFlags } from './init.js';
import type { ManifestsFlags } from './manifests.js';
import {
  ALPHA_GENERATE_FLAGS,
  ALPHA_UPDATE_FLAGS,
  DEV_FLAGS,
  DOCS_FLAGS,
  IMPORT_CRD_FLAGS,
  IMPORT_KUBEBUILDER_FLAGS,
  ENVTEST_LIST_FLAGS,
  ENVTEST_USE_FLAGS,
} from './command-flags.js';
import { MANIFESTS_FLAGS } from '../manifests/flags.js';
import { BUNDLE_FLAGS, BUNDLE_VALIDATE_FLAGS, KUSTOMIZE_MANIFESTS_FLAGS, SCORECARD_FLAGS } from '../olm/flags.js';
import { CREATE_API_FLAGS, CREATE_WEBHOOK_FLAGS, EDIT_FLAGS, INIT_FLAGS } from '../plugins/command-flags.js';
import { booleanFlag, kebab, wholeNumber, type FlagSpec, type FlagSpecs } from '../flag.js';
import type { EnvtestListFlags, EnvtestSourceFlags, EnvtestUseFlags } from './envtest.js';
import type { BundleFlags, KustomizeManifestsFlags } from './generate-olm.js';
import type { BundleValidateFlags } from './bundle-validate.js';
import type { ScorecardFlags } from './scorecard.js';

/** The marker catalog, for `manifests --help` only: loaded by the hook below, not by every command. */
const markers = { help: (): string => '' };

export function registerCommands(program: Command): void {
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub.name() === 'manifests') markers.help = (await import('../codegen/markers/index.js')).markerHelp;
  });
  // `create api --version v1` must reach the subcommand, not tsop's own --version.
  program.enablePositionalOptions();
  command(
    program,
    'init',
    'scaffold a new operator project (PROJECT, package.json, src/main.ts, the runtime, config/)',
    INIT_FLAGS,
  ).action(async (opts: InitFlags) => {
    const { runInit } = await import('./init.js');
    await runInit(opts);
  });

  const create = program.command('create').description('scaffold an API (create api) or webhooks (create webhook)');
  command(
    create,
    'api',
    'scaffold a kind (types, sample, roles) and its controller (reconciler, test, registration)',
    CREATE_API_FLAGS,
  ).action(async (opts: CreateApiFlags) => {
    // Started before the scaffolding modules load, so ts-morph loads alongside them.
    const reader =
      opts.make !== false && opts.manifests !== false && opts.dryRun !== true
        ? (await import('../codegen/reader/background.js')).startReaderInBackground()
        : undefined;
    const { runCreateApi } = await import('./create-api.js');
    await runCreateApi(opts, undefined, reader);
  });

  command(
    create,
    'webhook',
    'scaffold admission webhooks (defaulting, validation) or a conversion webhook for a kind, and enable them in config/',
    CREATE_WEBHOOK_FLAGS,
  ).action(async (opts: CreateWebhookFlags) => {
    const { runCreateWebhook } = await import('./create-webhook.js');
    await runCreateWebhook(opts);
  });

  command(
    program,
    'edit',
    'change project settings (multigroup, namespaced, license, owner) and the files that depend on them, or add a Helm chart (--plugins helm/v2-alpha)',
    EDIT_FLAGS,
  ).action(async (opts: EditFlags) => {
    const { runEdit } = await import('./edit.js');
    await runEdit(opts);
  });

  // kubebuilder's `alpha` commands: re-scaffold from PROJECT, and take a newer tsop's scaffolding.
  const alpha = program.command('alpha').description('experimental commands (alpha generate, alpha update)');
  command(
    alpha,
    'generate',
    're-scaffold the project from its PROJECT file into a new directory with this tsop',
    ALPHA_GENERATE_FLAGS,
  ).action(async (opts: AlphaGenerateFlags) => {
    const { runAlphaGenerate } = await import('./alpha-generate.js');
    await runAlphaGenerate(opts);
  });
  command(
    alpha,
    'update',
    "bring the project to a newer tsop's scaffolding: a 3-way merge committed on a branch of its own, then the project's type-check (refuses a dirty tree)",
    ALPHA_UPDATE_FLAGS,
  ).action(async (opts: AlphaUpdateFlags) => {
    const { runAlphaUpdate } = await import('./alpha-update.js');
    await runAlphaUpdate(opts);
  });

  command(
    program,
    'manifests',
    'generate CRDs (config/crd/bases), RBAC (config/rbac/role.yaml) and webhook configurations (config/webhook/manifests.yaml) from decorated classes',
    MANIFESTS_FLAGS,
  )
    .addHelpText(
      'after',
      () =>
        `\nAPI conventions: a class decorated @Resource(...) under src/api/ is a kind; its group ` +
        `and version come from\n\`export const groupVersion = { group, version }\` in its ` +
        `directory; classes with @Rbac(...) are controllers.\nTypeScript number becomes 'type: ` +
        `number'; use int32/int64 for integers.\n${markers.help()}\n`,
    )
    .action(async (opts: ManifestsFlags) => {
      const { runManifests } = await import('./manifests.js');
      await runManifests(opts);
    });

  // `import crd` / `import kubebuilder`: existing CRDs (or a kubebuilder project's APIs) → decorated TypeScript.
  const importCommand = program
    .command('import')
    .description(
      "bring existing CRDs (import crd) or a kubebuilder project's APIs (import kubebuilder) into TypeScript, losslessly",
    );
  command(
    importCommand,
    'crd <source>',
    'write decorated TypeScript for each CRD in a file, a directory of YAML files, a URL or - (stdin), so `tsop manifests` regenerates the same CRD',
    IMPORT_CRD_FLAGS,
  ).action(async (source: string, opts: ImportCrdFlags) => {
    const { runImportCrd } = await import('./import.js');
    await runImportCrd(source, opts);
  });
  command(
    importCommand,
    'kubebuilder <dir>',
    'make a tsop project of a kubebuilder project: its domain, repo, multigroup and namespaced settings, every kind it owns imported from config/crd/bases, and the Go files to rewrite listed',
    IMPORT_KUBEBUILDER_FLAGS,
  ).action(async (dir: string, opts: ImportKubebuilderFlags) => {
    const { runImportKubebuilder } = await import('./import.js');
    await runImportKubebuilder(dir, opts);
  });

  command(
    program,
    'dev',
    'the inner loop: an embedded control plane, CRDs applied, the operator run from source and restarted on save, config/samples applied; Ctrl-C stops it all',
    DEV_FLAGS,
  ).action(async (opts: DevCommandFlags) => {
    const { runDevCommand } = await import('./dev.js');
    await runDevCommand(opts);
  });

  registerEnvtestCommand(program);

  command(
    program,
    'docs',
    'write the API reference in Markdown (one page per group/version: fields, types, validation, defaults), as crd-ref-docs does for Go',
    DOCS_FLAGS,
  ).action(async (opts: DocsFlags) => {
    const { runDocs } = await import('./docs.js');
    await runDocs(opts);
  });

  registerOlmCommands(program);
}

function optionFor(name: string, spec: FlagSpec, help: string): Option {
  const arg = spec.kind === 'bool' ? ' [bool]' : spec.kind === 'optionalText' ? ` [${spec.value}]` : ` <${spec.value}>`;
  const option = new Option(`${spec.short ? `-${spec.short}, ` : ''}--${name}${arg}`, help);
  if (spec.kind === 'bool') option.argParser(booleanFlag);
  else if (spec.kind === 'count') option.argParser(wholeNumber);
  if (spec.default !== undefined) option.default(spec.default);
  return option;
}

/** Adds the flags to a commander command, in declaration order; an alias is an option of its own, mapped by `checkFlags`. */
function addFlags(command: Command, specs: FlagSpecs<never> | FlagSpecs<unknown>): Command {
  for (const [key, spec] of Object.entries(specs) as Array<[string, FlagSpec]>) {
    const name = kebab(key);
    const also = spec.aliases?.length ? ` (also --${spec.aliases.join(', --')})` : '';
    command.addOption(optionFor(name, spec, `${spec.help}${also}`));
    for (const alias of spec.aliases ?? [])
      command.addOption(
        optionFor(
          alias,
          { kind: spec.kind, value: spec.value, help: '' } as FlagSpec,
          `the same as --${name}`,
        ).hideHelp(),
      );
  }
  return command;
}

/** A subcommand of `parent` with its description and flags. */
function command(
  parent: Command,
  name: string,
  description: string,
  flags: FlagSpecs<never> | FlagSpecs<unknown>,
): Command {
  return addFlags(parent.command(name).description(description), flags);
}

/**
 * How `tsop envtest` and its subcommands read their flags (setup-envtest's names where it has
 * them: `use [version]`, `-i`, `-p path|env`, `--index`; declared in command-flags.ts); the work
 * is in envtest.ts, loaded only when one of them runs.
 */
function registerEnvtestCommand(program: Command): void {
  const envtest = program
    .command('envtest')
    .description(
      "control-plane binaries for tests and tsop dev, as setup-envtest does: download (checked) or build them into setup-envtest's cache",
    );
  command(
    envtest,
    'use',
    "download what the cache lacks (etcd, kube-apiserver, kubectl; the fuller plane's too with --fuller) and print where it is",
    ENVTEST_USE_FLAGS,
  )
    .argument(
      '[version]',
      'exact (1.36.3), a minor (1.36, 1.36.x) or latest; default: the version tsop is tested with, else the newest patch of its minor',
    )
    .action(async (version: string | undefined, opts: EnvtestUseFlags) => {
      const { runEnvtestUse } = await import('./envtest.js');
      await runEnvtestUse(version, opts);
    });
  command(
    envtest,
    'list',
    'list the versions in the cache and those the release index offers for this platform',
    ENVTEST_LIST_FLAGS,
  ).action(async (opts: EnvtestListFlags) => {
    const { runEnvtestList } = await import('./envtest.js');
    await runEnvtestList(opts);
  });
  envtest
    .command('cleanup')
    .description('remove versions from the cache (all without a version), and partial downloads')
    .argument('[version]', 'exact (1.36.3) or a minor (1.36, 1.36.x)')
    .action(async (version: string | undefined, opts: EnvtestSourceFlags) => {
      const { runEnvtestCleanup } = await import('./envtest.js');
      await runEnvtestCleanup(version, opts);
    });
}

/**
 * The OLM commands, operator-sdk's names and flags (declared in command-flags.ts):
 * `generate kustomize manifests`, `generate bundle`, `bundle validate` and `scorecard`. Each
 * module loads when its command runs.
 */
function registerOlmCommands(program: Command): void {
  const generate = program
    .command('generate')
    .description(
      'OLM: generate the ClusterServiceVersion base (generate kustomize manifests) or a bundle (generate bundle), as operator-sdk does',
    );
  const kustomize = generate.command('kustomize').description('kustomize bases for OLM');
  command(
    kustomize,
    'manifests',
    'write config/manifests/bases/<package>.clusterserviceversion.yaml (descriptors from @CsvDescription/@CsvDescriptor) and, when missing, config/manifests/kustomization.yaml and config/scorecard/',
    KUSTOMIZE_MANIFESTS_FLAGS,
  ).action(async (opts: KustomizeManifestsFlags) => {
    const { runKustomizeManifests } = await import('./generate-olm.js');
    await runKustomizeManifests(opts);
  });
  command(
    generate,
    'bundle',
    "write the OLM bundle (bundle/manifests, bundle/metadata, bundle/tests/scorecard) and bundle.Dockerfile from 'kubectl kustomize config/manifests' ($IMG sets the manager image)",
    BUNDLE_FLAGS,
  ).action(async (opts: BundleFlags) => {
    const { runGenerateBundle } = await import('./generate-olm.js');
    await runGenerateBundle(opts);
  });

  const bundle = program.command('bundle').description('OLM bundle commands (bundle validate)');
  command(
    bundle,
    'validate [dir]',
    "validate a bundle directory as operator-sdk does (operator-framework/api's validators); exit 1 on any error",
    BUNDLE_VALIDATE_FLAGS,
  ).action(async (dir: string | undefined, opts: BundleValidateFlags) => {
    const { runBundleValidate } = await import('./bundle-validate.js');
    await runBundleValidate(dir, opts);
  });

  command(
    program,
    'scorecard [bundle]',
    "run the bundle's scorecard tests (basic and olm suites) with its CRDs installed and samples applied on an embedded control plane; exit 1 when a test fails",
    SCORECARD_FLAGS,
  ).action(async (bundle: string | undefined, opts: ScorecardFlags) => {
    const { runScorecard } = await import('./scorecard.js');
    await runScorecard(bundle, opts);
  });
}
