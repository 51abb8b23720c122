/**
 * `tsop alpha generate` (kubebuilder's name): re-scaffold a project from its PROJECT file into a
 * new directory with this tsop — `init` with the recorded settings, then `create api` for each
 * recorded resource in order (deploy-image resources with their recorded options), then
 * `create webhook` for each recorded webhook, then `manifests`. No user code is carried over: the result is what this tsop would have written.
 * `alpha update` uses it for both sides of its 3-way merge. The command (not `alpha update`, which
 * leaves dist/ alone) then runs `edit --plugins helm/v2-alpha` when PROJECT records the Helm plugin.
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { DEPLOY_IMAGE_PLUGIN } from '../plugins/deploy-image.js';
import { isOlmPluginKey } from '../olm/plugin.js';
import { HELM_PLUGIN, HELM_PROJECT_KEY } from '../plugins/helm/index.js';
import { tsopSettings, type ProjectConfig, type ProjectResource } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, replayFlags, type FlagsOf } from './flag-spec.js';
import { ALPHA_GENERATE_FLAGS, CREATE_API_FLAGS, CREATE_WEBHOOK_FLAGS, INIT_FLAGS } from './command-flags.js';

export type AlphaGenerateFlags = FlagsOf<typeof ALPHA_GENERATE_FLAGS>;

/** deploy-image records its options per resource under this PROJECT plugin key. */
const DEPLOY_IMAGE_KEY = 'deploy-image.typescript.tsop.dev/v1-alpha';

export async function runAlphaGenerate(given: AlphaGenerateFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(ALPHA_GENERATE_FLAGS, given);
  const input = resolve(flags.inputDir ?? process.cwd());
  if (flags.outputDir === undefined) throw new UserError('alpha generate: --output-dir is required (a new or empty directory to scaffold into)');
  const output = resolve(flags.outputDir);
  if (existsSync(output) && readdirSync(output).length > 0) {
    throw new UserError(`alpha generate: --output-dir ${output} is not empty; pass a new or empty directory`);
  }
  const config = await loadProject(input, 'alpha generate', io.err);
  await generateProject(config, output);
  const helm = config.plugins[HELM_PROJECT_KEY];
  if (helm !== undefined) {
    const { runEdit } = await import('./edit.js');
    const outputDir = typeof helm['output'] === 'string' ? helm['output'] : undefined;
    const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };
    try {
      await runEdit({ dir: output, plugins: HELM_PLUGIN, ...(outputDir !== undefined ? { outputDir } : {}) }, quiet);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      io.err(`note: the Helm chart was not generated: ${error.message}\n`);
    }
  }
  io.err(`re-scaffolded '${config.projectName}' (${config.resources.length} resources) from ${input}/PROJECT into ${output}\n`);
}

/** Scaffolds `config` into `output` as this tsop would, printing nothing: each command's flags replayed from PROJECT (command-flags.ts). */
export async function generateProject(config: ProjectConfig, output: string): Promise<void> {
  const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };
  const settings = tsopSettings(config);
  const { runInit } = await import('./init.js');
  const olmPlugins = Object.keys(config.plugins).filter(isOlmPluginKey);
  await runInit({ ...replayFlags(INIT_FLAGS, { config, license: settings.license, owner: settings.owner, olmPlugins }), dir: output }, quiet);
  const { runCreateApi } = await import('./create-api.js');
  for (const r of config.resources) {
    if (r.api === undefined && r.controller !== true && !r.controllers) continue; // a core kind, or webhooks only
    const image = deployImageOptions(config, r);
    // Named controllers (kubebuilder's `controllers` list) come one by one after the kind.
    const [first, ...more] = r.controllers?.map((c) => c.name) ?? [];
    const replayed = replayFlags(CREATE_API_FLAGS, { config, resource: r });
    await runCreateApi(
      {
        ...replayed,
        dir: output,
        controller: r.controller === true || first !== undefined,
        // deploy-image scaffolds the kind's first controller itself, under its default name.
        ...(first !== undefined && image === undefined ? { controllerName: first } : {}),
        ...(image ?? {}),
      },
      quiet,
    );
    for (const name of more) {
      const { plural: _plural, namespaced: _namespaced, ...kind } = replayed; // the kind exists by now
      await runCreateApi({ ...kind, dir: output, resource: false, controller: true, controllerName: name }, quiet);
    }
  }
  // Webhooks after every kind exists, as a conversion webhook's spokes must.
  const { runCreateWebhook } = await import('./create-webhook.js');
  for (const r of config.resources) {
    if (!r.webhooks) continue;
    await runCreateWebhook({ ...replayFlags(CREATE_WEBHOOK_FLAGS, { config, resource: r }), dir: output }, quiet);
  }
  if (config.resources.some((r) => r.api !== undefined)) {
    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: output, outputDir: 'config' }, quiet);
  }
}

/** The deploy-image flags a resource was created with, if that plugin created it. */
function deployImageOptions(config: ProjectConfig, r: ProjectResource): Record<string, string> | undefined {
  const entries = (config.plugins[DEPLOY_IMAGE_KEY]?.['resources'] ?? []) as Array<{ group?: string; version?: string; kind?: string; options?: Record<string, unknown> }>;
  const entry = entries.find((e) => e.group === r.group && e.version === r.version && e.kind === r.kind);
  if (!entry?.options) return undefined;
  const o = entry.options;
  const flags: Record<string, string> = { plugins: DEPLOY_IMAGE_PLUGIN };
  if (typeof o['image'] === 'string') flags['image'] = o['image'];
  if (typeof o['containerCommand'] === 'string') flags['imageContainerCommand'] = o['containerCommand'];
  if (o['containerPort'] !== undefined) flags['imageContainerPort'] = String(o['containerPort']);
  if (o['runAsUser'] !== undefined) flags['runAsUser'] = String(o['runAsUser']);
  return flags;
}
