/**
 * The flags of the scaffolding commands, as the command line offers them: the base layout's and
 * the command's own, then, after --plugins, every plugin's flags for that command (each plugin
 * declares its own; the catalog refuses them without the plugin and has the plugin check them).
 * Light to load, unlike the catalog: `tsop --help` reads it. test/cli/flag-spec.test.ts checks
 * that it spreads what each catalog entry declares.
 */
import { kebab, type FlagSpecs } from '../flag.js';
import {
  CREATE_API_BASE_FLAGS,
  CREATE_API_TAIL_FLAGS,
  CREATE_WEBHOOK_FLAGS,
  EDIT_COMMAND_FLAGS,
  EDIT_SETTINGS_FLAGS,
  EDIT_TAIL_FLAGS,
  INIT_FLAGS,
} from './base/flags.js';
import { DEPLOY_IMAGE_FLAGS } from './deploy-image/flags.js';
import { HELM_FLAGS } from './helm/flags.js';

type Specs = FlagSpecs<never> | FlagSpecs<unknown>;

/**
 * One command's flags from the declarations of the base layout, the command and its plugins, in
 * order. A flag is declared once: a key two of them declare is refused.
 */
export function spreadFlags<const L extends readonly Specs[]>(...lists: L): Intersection<L> {
  const flags: Record<string, unknown> = {};
  for (const list of lists) {
    for (const [key, spec] of Object.entries(list)) {
      if (key in flags) throw new Error(`the flag --${kebab(key)} is declared twice for one command; declare it once`);
      flags[key] = spec;
    }
  }
  return flags as Intersection<L>;
}

type Intersection<L extends readonly unknown[]> = L extends readonly [infer H, ...infer T]
  ? H & Intersection<T>
  : unknown;

export { INIT_FLAGS, CREATE_WEBHOOK_FLAGS };

/** What `create api` itself checks: its flags less the plugins'. */
export const CREATE_API_OWN_FLAGS = spreadFlags(CREATE_API_BASE_FLAGS, CREATE_API_TAIL_FLAGS);

export const CREATE_API_FLAGS = spreadFlags(CREATE_API_BASE_FLAGS, DEPLOY_IMAGE_FLAGS, CREATE_API_TAIL_FLAGS);

/** What `edit` itself checks: its flags less the base layout's settings and the plugins'. */
export const EDIT_OWN_FLAGS = spreadFlags(EDIT_COMMAND_FLAGS, EDIT_TAIL_FLAGS);

export const EDIT_FLAGS = spreadFlags(EDIT_SETTINGS_FLAGS, EDIT_COMMAND_FLAGS, HELM_FLAGS, EDIT_TAIL_FLAGS);
