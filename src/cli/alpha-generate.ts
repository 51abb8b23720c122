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
import type { ExternalFlags } from '../plugins/external-module.js';
import { stdio, type CommandIO } from './io.js';

export interface AlphaGenerateFlags {
  inputDir?: string;
  outputDir?: string;
}

/** deploy-image records its options per resource under this PROJECT plugin key. */
const DEPLOY_IMAGE_KEY = 'deploy-image.typescript.tsop.dev/v1-alpha';

export async function runAlphaGenerate(flags: AlphaGenerateFlags, io: CommandIO = stdio): Promise<void> {
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

/** The OLM plugins PROJECT records, as init's --plugins (nothing when there are none). */
function olmPluginFlag(config: ProjectConfig): { plugins?: string } {
  const keys = Object.keys(config.plugins).filter(isOlmPluginKey);
  return keys.length > 0 ? { plugins: keys.join(',') } : {};
}

/** Scaffolds `config` into `output` as this tsop would, printing nothing. */
export async function generateProject(config: ProjectConfig, output: string): Promise<void> {
  const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };
  const settings = tsopSettings(config);
  const { runInit } = await import('./init.js');
  await runInit(
    {
      dir: output,
      domain: config.domain,
      projectName: config.projectName,
      repo: config.repo,
      license: settings.license,
      ...(settings.owner !== undefined ? { owner: settings.owner } : {}),
      namespaced: config.namespaced === true,
      multigroup: config.multigroup === true,
      skipInstall: true,
      ...olmPluginFlag(config),
    },
    quiet,
  );
  const { runCreateApi } = await import('./create-api.js');
  for (const r of config.resources) {
    if (r.api === undefined && r.controller !== true && !r.controllers) continue; // a core kind, or webhooks only
    const image = deployImageOptions(config, r);
    // Named controllers (kubebuilder's `controllers` list) come one by one after the kind.
    const [first, ...more] = r.controllers?.map((c) => c.name) ?? [];
    await runCreateApi(
      {
        dir: output,
        group: r.group,
        version: r.version,
        kind: r.kind,
        ...(r.plural !== undefined ? { plural: r.plural } : {}),
        resource: r.api !== undefined,
        controller: r.controller === true || first !== undefined,
        // deploy-image scaffolds the kind's first controller itself, under its default name.
        ...(first !== undefined && image === undefined ? { controllerName: first } : {}),
        // A built-in kind's scope is known to create api; a flag here would override it.
        ...(r.api !== undefined ? { namespaced: r.api.namespaced } : {}),
        ...externalFlags(r),
        make: false,
        ...(image ?? {}),
      },
      quiet,
    );
    for (const name of more) {
      await runCreateApi({ dir: output, group: r.group, version: r.version, kind: r.kind, resource: false, controller: true, controllerName: name, ...externalFlags(r), make: false }, quiet);
    }
  }
  // Webhooks after every kind exists, as a conversion webhook's spokes must.
  const { runCreateWebhook } = await import('./create-webhook.js');
  for (const r of config.resources) {
    const w = r.webhooks;
    if (!w) continue;
    await runCreateWebhook(
      {
        dir: output,
        group: r.group,
        version: r.version,
        kind: r.kind,
        defaulting: w.defaulting === true,
        programmaticValidation: w.validation === true,
        conversion: w.conversion === true,
        ...(w.spoke && w.spoke.length > 0 ? { spoke: w.spoke.join(',') } : {}),
        defaultingPath: w.defaultingPath,
        validationPath: w.validationPath,
        // A project kind's plural is its CRD's; create webhook takes it from PROJECT.
        plural: r.core || r.external ? r.plural : undefined,
        ...externalFlags(r),
        make: false,
      },
      quiet,
    );
  }
  if (config.resources.some((r) => r.api !== undefined)) {
    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: output, outputDir: 'config' }, quiet);
  }
}

/** Another project's kind, named again as PROJECT records it: the module exporting its type, its group's domain, its package. */
function externalFlags(r: ProjectResource): ExternalFlags {
  if (r.external !== true) return {};
  return { externalApiPath: r.path, externalApiDomain: r.domain === '' ? undefined : r.domain, externalApiModule: r.module };
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
