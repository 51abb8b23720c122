/**
 * The plugin chain. The base layout (`typescript.tsop.dev/v1`: init + api, in base.ts and api.ts)
 * always runs first; a plugin named with `--plugins` (deploy-image, webhook, ...) runs after it
 * against the same Tree, so its files and insertions are validated and committed together with
 * the base plan — or not at all.
 *
 * A plugin gets the resource's names and paths (the same ones the base used), the PROJECT config
 * as the base left it, the template data, and the insertion markers (MARKERS in api.ts). It may
 * create or overwrite files, insert at markers, and return a changed config (for instance its
 * own settings under `plugins.<key>`, or `webhooks` on the resource). Adding a plugin is one
 * entry in PLUGINS.
 */
import { UserError } from '../errors.js';
import { LAYOUT, type ProjectConfig, type ProjectResource } from '../project/config.js';
import type { ResourceNames } from '../project/resource.js';
import type { Tree } from '../scaffold/tree.js';
import { deployImagePlugin } from './deploy-image.js';

export interface ApiHookContext {
  tree: Tree;
  config: ProjectConfig;
  resource: ProjectResource;
  names: ResourceNames;
  /** The license header scaffolded TypeScript files start with. */
  header: string;
  /** Flags of `create api` this plugin declared (e.g. deploy-image's --image). */
  flags: Readonly<Record<string, unknown>>;
}

export interface ScaffoldPlugin {
  /** `name/version`, as typed after --plugins (kubebuilder's plugin keys). */
  key: string;
  /** Other names --plugins accepts for it (its fully qualified keys). */
  aliases?: readonly string[];
  /** Runs after the base `create api` recorded its files; returns the config to record. */
  createApi?(ctx: ApiHookContext): ProjectConfig;
}

/** Plugins in the order they run after the base layout. */
export const PLUGINS: ScaffoldPlugin[] = [deployImagePlugin];

/** Resolves `--plugins a,b` (the base layout may be named or left out) to the extra plugins. */
export function resolvePlugins(keys: string | undefined): ScaffoldPlugin[] {
  if (keys === undefined) return [];
  const out: ScaffoldPlugin[] = [];
  for (const key of keys.split(',').map((k) => k.trim()).filter((k) => k !== '' && k !== LAYOUT)) {
    const plugin = PLUGINS.find((p) => p.key === key || p.aliases?.includes(key));
    if (!plugin) {
      const known = [LAYOUT, ...PLUGINS.map((p) => p.key)].map((k) => `'${k}'`).join(', ');
      throw new UserError(`--plugins: '${key}' is not a tsop plugin; known plugins: ${known}`);
    }
    out.push(plugin);
  }
  return out;
}
