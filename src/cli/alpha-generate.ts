/**
 * `tsop alpha generate` (kubebuilder's name): re-scaffold a project from its PROJECT file into a
 * new directory with this tsop — `init` with the recorded settings, then `create api` for each
 * recorded resource in order (deploy-image resources with their recorded options), then
 * `create webhook` for each recorded webhook, then `edit --sharding` when PROJECT records it, then `manifests`. A kind whose recorded path shows the
 * other layout (made before an `edit --multigroup`) is created with that layout switched on for it,
 * as the user's own `edit` had it, so it lands where PROJECT says. No user code is carried over: the result is what this tsop would have written.
 * `alpha update` uses it for both sides of its 3-way merge. The command (not `alpha update`, which
 * leaves dist/ alone) then runs `edit` again for the plugins PROJECT records that replay so
 * (`edit --plugins helm/v2-alpha` for the Helm chart). Which plugins PROJECT records, and the
 * flags that re-run each, come from the plugin catalog.
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { PLUGINS, recordedPlugins } from '../plugins/catalog.js';
import type { Flags } from '../plugins/plugin.js';
import { tsopSettings, type ProjectConfig, type ProjectResource } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { resourceMultigroup } from '../project/resource.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, replayFlags, type FlagsOf } from '../flag.js';
import { ALPHA_GENERATE_FLAGS } from './command-flags.js';
import { CREATE_API_OWN_FLAGS, CREATE_WEBHOOK_FLAGS, INIT_FLAGS } from '../plugins/command-flags.js';
import type { CreateApiFlags } from './create-api.js';
import type { EditFlags } from './edit.js';

export type AlphaGenerateFlags = FlagsOf<typeof ALPHA_GENERATE_FLAGS>;

export async function runAlphaGenerate(given: AlphaGenerateFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(ALPHA_GENERATE_FLAGS, given);
  const input = resolve(flags.inputDir ?? process.cwd());
  if (flags.outputDir === undefined)
    throw new UserError('alpha generate: --output-dir is required (a new or empty directory to scaffold into)');
  const output = resolve(flags.outputDir);
  if (existsSync(output) && readdirSync(output).length > 0) {
    throw new UserError(`alpha generate: --output-dir ${output} is not empty; pass a new or empty directory`);
  }
  const config = await loadProject(input, 'alpha generate', io.err);
  await generateProject(config, output);
  for (const plugin of PLUGINS) {
    const replay = plugin.edit?.replay;
    const flags = replay?.flags(config);
    if (replay === undefined || flags === undefined) continue;
    const { runEdit } = await import('./edit.js');
    const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };
    try {
      await runEdit({ ...(flags as EditFlags), dir: output }, quiet);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      io.err(`note: ${replay.output} was not generated: ${error.message}\n`);
    }
  }
  io.err(
    `re-scaffolded '${config.projectName}' (${config.resources.length} resources) from ${input}/PROJECT into ${output}\n`,
  );
}

/** Scaffolds `config` into `output` as this tsop would, printing nothing: each command's flags replayed from PROJECT (command-flags.ts). */
export async function generateProject(config: ProjectConfig, output: string): Promise<void> {
  const quiet: CommandIO = { out: () => undefined, err: () => undefined, interactive: false };
  const settings = tsopSettings(config);
  const { runInit } = await import('./init.js');
  // The init plugins PROJECT records besides the layout (the OLM ones), named again.
  const olmPlugins = recordedPlugins(config)
    .filter((p) => p.init !== undefined)
    .map((p) => p.key);
  await runInit(
    {
      ...replayFlags(INIT_FLAGS, { config, license: settings.license, owner: settings.owner, olmPlugins }),
      dir: output,
    },
    quiet,
  );
  const { runCreateApi } = await import('./create-api.js');
  const { runEdit } = await import('./edit.js');
  let multigroup = config.multigroup === true;
  const layout = async (want: boolean): Promise<void> => {
    if (want !== multigroup) await runEdit({ dir: output, multigroup: want }, quiet);
    multigroup = want;
  };
  for (const r of config.resources) {
    if (r.api === undefined && r.controller !== true && !r.controllers) continue; // a core kind, or webhooks only
    await layout(resourceMultigroup(config, r));
    const plugged = pluginFlags(config, r);
    // Named controllers (kubebuilder's `controllers` list) come one by one after the kind.
    const [first, ...more] = r.controllers?.map((c) => c.name) ?? [];
    const replayed = replayFlags(CREATE_API_OWN_FLAGS, { config, resource: r });
    await runCreateApi(
      {
        ...replayed,
        dir: output,
        controller: r.controller === true || first !== undefined,
        // A plugin that made the kind (deploy-image) scaffolds its first controller itself, under its default name.
        ...(first !== undefined && plugged === undefined ? { controllerName: first } : {}),
        ...((plugged ?? {}) as CreateApiFlags),
      },
      quiet,
    );
    for (const name of more) {
      const { plural: _plural, namespaced: _namespaced, ...kind } = replayed; // the kind exists by now
      await runCreateApi({ ...kind, dir: output, resource: false, controller: true, controllerName: name }, quiet);
    }
  }
  await layout(config.multigroup === true);
  // Webhooks after every kind exists, as a conversion webhook's spokes must.
  const { runCreateWebhook } = await import('./create-webhook.js');
  for (const r of config.resources) {
    if (!r.webhooks) continue;
    await runCreateWebhook({ ...replayFlags(CREATE_WEBHOOK_FLAGS, { config, resource: r }), dir: output }, quiet);
  }
  // The runtime's sharding module, and main.ts passing it, as `edit --sharding` added them.
  if (config.sharding === true) await runEdit({ dir: output, sharding: true }, quiet);
  if (config.resources.some((r) => r.api !== undefined)) {
    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: output, outputDir: 'config' }, quiet);
  }
}

/** `--plugins` and the plugins' flags a resource was created with, when plugins (deploy-image) created it. */
function pluginFlags(config: ProjectConfig, r: ProjectResource): Flags | undefined {
  const replayed = PLUGINS.flatMap((p) => {
    const flags = p.createApi?.replay?.(config, r);
    return flags === undefined ? [] : [{ key: p.key, flags }];
  });
  if (replayed.length === 0) return undefined;
  return Object.assign({ plugins: replayed.map((p) => p.key).join(',') }, ...replayed.map((p) => p.flags)) as Flags;
}
