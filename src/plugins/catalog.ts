/**
 * The plugin catalog: every plugin tsop has, one entry each (plugin.ts says what an entry is), and
 * the one way a command gets its chain from it. The chain starts with the layout PROJECT names
 * (loading a project checks it is tsop's base layout, as `init` writes it); the plugins named with
 * `--plugins` follow, in the order given, each once. Every step records into the same Tree, so
 * the plugins' files are checked and committed together with the base plan, or not at all.
 *
 * A plugin's flags are refused when it is not in the chain, and its own checks run before
 * anything is read or planned. Adding a plugin is one entry in PLUGINS.
 */
import { UserError } from '../errors.js';
import { LAYOUT, PROJECT_FILE, renderProject, type ProjectConfig } from '../project/config.js';
import { checkFlags, kebab, type FlagSpecs, type FlagsOf } from '../flag.js';
import { basePlugin } from './base/plugin.js';
import { deployImagePlugin } from './deploy-image/plugin.js';
import { helmPlugin } from './helm/plugin.js';
import { manifestsPlugin, scorecardPlugin } from './olm/plugin.js';
import type { ContextOf, Flags, Plugin, Subcommand, SubcommandName } from './plugin.js';
import type { Tree } from '../scaffold/tree.js';

/** Every plugin, the base layout first; messages list them in this order. */
export const PLUGINS: Plugin[] = [basePlugin, deployImagePlugin, helmPlugin, manifestsPlugin, scorecardPlugin];

/** The plugin PROJECT's layout names: the first step of every chain. */
export const layoutPlugin: Plugin = basePlugin;

/** PROJECT before `init`: only its layout, which the init chain fills in. */
export function newProject(): ProjectConfig {
  return {
    version: '3',
    domain: '',
    layout: [layoutPlugin.key],
    projectName: '',
    repo: '',
    resources: [],
    plugins: {},
  };
}

/** The keys --plugins takes for a plugin (in one command, with the ones only that command takes). */
function keysOf(plugin: Plugin, subcommand?: SubcommandName): string[] {
  return [plugin.key, ...(plugin.aliases ?? []), ...((subcommand && plugin[subcommand]?.aliases) ?? [])];
}

const quoted = (keys: readonly string[]): string => keys.map((k) => `'${k}'`).join(', ');

const implementing = (subcommand: SubcommandName): Plugin[] => PLUGINS.filter((p) => p[subcommand] !== undefined);

/** Why a key is not one of a command's plugins, after `--plugins: '<key>' `. */
const NOT_A_PLUGIN_OF: Record<SubcommandName, (key: string) => string> = {
  init(key) {
    const other = PLUGINS.find((p) => keysOf(p).includes(key));
    if (other?.edit) return `is added after init in tsop; run 'tsop edit --plugins ${other.key}' in the new project`;
    if (other?.createApi)
      return `scaffolds a kind, not a project; pass it to 'tsop create api --plugins ${other.key}' after init`;
    const olm = implementing('init').filter((p) => p !== layoutPlugin);
    return [
      `is not a plugin init knows; init takes ${quoted(keysOf(layoutPlugin, 'init'))} (all the same base`,
      `layout) and the OLM plugins ${quoted(olm.map((p) => p.key))} (or operator-sdk's`,
      `${quoted(olm.flatMap((p) => p.aliases ?? []))})`,
    ].join(' ');
  },
  createApi: () => `is not a tsop plugin; known plugins: ${quoted(implementing('createApi').map((p) => p.key))}`,
  createWebhook: () =>
    `is not a plugin of tsop create webhook; it takes none besides the base layout '${layoutPlugin.key}'`,
  edit() {
    const keys = implementing('edit')
      .filter((p) => p !== layoutPlugin)
      .map((p) => p.key);
    return `is not a plugin of tsop edit; ${keys.length === 1 ? 'the one there is' : 'the ones there are'}: ${quoted(keys)}`;
  },
};

/**
 * A command's chain: the layout, then the plugins `--plugins a,b` names (the layout may be named
 * too). A key no plugin of the command answers to is refused with the keys it takes.
 */
export function pluginChain(subcommand: SubcommandName, keys: string | undefined): Plugin[] {
  const chain = [layoutPlugin];
  if (keys === undefined) return chain;
  for (const key of keys.split(',').map((k) => k.trim())) {
    if (key === '') {
      // init refuses an empty key; the other commands pass over one.
      if (subcommand === 'init')
        throw new UserError(
          `--plugins: '${keys}' has an empty plugin key; pass keys separated by single commas, e.g. --plugins ${LAYOUT}`,
        );
      continue;
    }
    const plugin = implementing(subcommand).find((p) => keysOf(p, subcommand).includes(key));
    if (plugin === undefined) throw new UserError(`--plugins: '${key}' ${NOT_A_PLUGIN_OF[subcommand](key)}`);
    if (!chain.includes(plugin)) chain.push(plugin);
  }
  return chain;
}

/**
 * Before anything is read: a flag of a plugin outside the chain is refused (naming the plugin to
 * add), then each plugin in the chain checks them: together (`check`), then each of its own flags' rule.
 */
export function checkPluginFlags(subcommand: SubcommandName, chain: readonly Plugin[], flags: Flags): void {
  for (const plugin of PLUGINS) {
    if (chain.includes(plugin)) continue;
    const given = Object.keys(plugin[subcommand]?.flags ?? {}).find((f) => flags[f] !== undefined);
    if (given !== undefined)
      throw new UserError(
        `--${kebab(given)} belongs to the ${plugin.name} plugin; add --plugins ${plugin.key} to use it`,
      );
  }
  for (const plugin of chain) {
    const step = plugin[subcommand];
    step?.check?.(flags);
    if (step?.flags) checkFlags(step.flags, flags as FlagsOf<FlagSpecs<never>>);
  }
}

/**
 * Runs the chain's steps in order over one plan: each gets PROJECT as the one before left it
 * (`context` builds what a step sees from it), and PROJECT is rendered after each step that
 * changed it. Returns the config the last step left.
 */
export async function runChain<S extends SubcommandName>(
  chain: readonly Plugin[],
  subcommand: S,
  context: (config: ProjectConfig) => ContextOf<S>,
  config: ProjectConfig,
): Promise<ProjectConfig> {
  for (const plugin of chain) {
    const step = plugin[subcommand] as Subcommand<ContextOf<S>> | undefined;
    if (step === undefined) continue;
    const ctx = context(config);
    const next = await step.scaffold(ctx);
    if (next !== config) ctx.tree.overwrite(PROJECT_FILE, renderProject(next));
    config = next;
  }
  return config;
}

/** The plugins PROJECT records under `plugins:` (by their project key, else by any of their keys), the layout aside. */
export function recordedPlugins(config: ProjectConfig): Plugin[] {
  return PLUGINS.filter(
    (p) =>
      p !== layoutPlugin &&
      (p.projectKey !== undefined ? [p.projectKey] : keysOf(p)).some((k) => config.plugins[k] !== undefined),
  );
}

/** Every plugin puts its settings, as `config` records them, back into `path`, which a step rendered afresh. */
export function restoreSettings(tree: Tree, config: ProjectConfig, path: string): void {
  for (const plugin of PLUGINS) plugin.restoreSettings?.(tree, config, path);
}
