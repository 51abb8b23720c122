/**
 * The list of tsop commands, in the order `tsop --help` shows them. Adding a command is one entry
 * here, its flags in command-flags.ts, and its module in this folder.
 */
import type { Command } from 'commander';
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
  CREATE_API_FLAGS,
  CREATE_WEBHOOK_FLAGS,
  DEV_FLAGS,
  DOCS_FLAGS,
  EDIT_FLAGS,
  IMPORT_CRD_FLAGS,
  IMPORT_KUBEBUILDER_FLAGS,
  INIT_FLAGS,
  MANIFESTS_FLAGS,
} from './command-flags.js';
import { command } from './flag-spec.js';
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
