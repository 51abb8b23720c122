/**
 * A command's flags, declared once: each entry gives the flag's kind (boolean, text, whole
 * number), its value name, help, default, aliases, allowed values and its own rule. From that one
 * list come the commander options (`addFlags`), the typed options object the command runs with
 * (`FlagsOf`), the check every run goes through, from the command line or from code
 * (`checkFlags`), and `alpha generate`'s replay of what PROJECT recorded (`replayFlags`).
 *
 * An entry's key is the options property (camelCase); the flag is its kebab-case form
 * (`projectName` → `--project-name`). Booleans are `--flag [bool]`, read as Go's flag package
 * reads them (flags.ts).
 */
import { Option, type Command } from 'commander';
import { UserError } from '../errors.js';
import { kebab } from '../project/naming.js';
import { booleanFlag, wholeNumber } from './flags.js';

/** A boolean, a text value, a text value that may be left out (then `true`), a whole number. */
export type FlagKind = 'bool' | 'text' | 'optionalText' | 'count';
type ValueOf<K extends FlagKind> = K extends 'bool'
  ? boolean
  : K extends 'count'
    ? number
    : K extends 'optionalText'
      ? string | true
      : string;

export interface FlagSpec<K extends FlagKind = FlagKind, R = never> {
  kind: K;
  /** The value's name in help (`<domain>`); for text and count flags. */
  value?: string;
  help: string;
  /** Applied by the command line when the flag is absent, and shown in help. */
  default?: ValueOf<K>;
  /** A one-letter name as well (`-o`). */
  short?: string;
  /** Other names for the same flag, kebab-case (`--package-name` for `--repo`). */
  aliases?: readonly string[];
  /** The values a text flag takes, and what they are called in the refusal (`a known license`). */
  choices?: { values: readonly string[]; noun: string };
  /** The flag's own rule on its value: throws a UserError naming the flag. */
  check?(value: ValueOf<K>): void;
  /** What `alpha generate` passes for it, from what PROJECT recorded (`R`); undefined leaves it out. */
  replay?(recorded: R): ValueOf<K> | undefined;
}

/** A command's flags by options key. `R` is what the replay reads (PROJECT, a resource). */
export type FlagSpecs<R = never> = Record<string, FlagSpec<FlagKind, R>>;

/** The options object a command runs with: every flag optional, typed by its kind. */
export type FlagsOf<S> = { -readonly [K in keyof S]?: S[K] extends FlagSpec<infer T, infer _R> ? ValueOf<T> : never };

/** Declares a command's flags, keeping each entry's literal kind for `FlagsOf`. */
export function defineFlags<const S extends FlagSpecs>(specs: S): S {
  return specs;
}

/** Declares the flags of a command `alpha generate` replays from `R` (what PROJECT recorded). */
export function defineReplayedFlags<R>(): <const S extends FlagSpecs<R>>(specs: S) => S {
  return (specs) => specs;
}

export const bool = <R = never>(
  help: string,
  more: Omit<FlagSpec<'bool', R>, 'kind' | 'help'> = {},
): FlagSpec<'bool', R> => ({ kind: 'bool', help, ...more });
export const text = <R = never>(
  value: string,
  help: string,
  more: Omit<FlagSpec<'text', R>, 'kind' | 'help' | 'value'> = {},
): FlagSpec<'text', R> => ({ kind: 'text', value, help, ...more });
export const optionalText = <R = never>(
  value: string,
  help: string,
  more: Omit<FlagSpec<'optionalText', R>, 'kind' | 'help' | 'value'> = {},
): FlagSpec<'optionalText', R> => ({ kind: 'optionalText', value, help, ...more });
export const count = <R = never>(
  value: string,
  help: string,
  more: Omit<FlagSpec<'count', R>, 'kind' | 'help' | 'value'> = {},
): FlagSpec<'count', R> => ({ kind: 'count', value, help, ...more });

/** `projectName` → `project-name` (project/naming.ts). */
export { kebab };
const camel = (name: string): string => name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

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
export function command(
  parent: Command,
  name: string,
  description: string,
  flags: FlagSpecs<never> | FlagSpecs<unknown>,
): Command {
  return addFlags(parent.command(name).description(description), flags);
}

/**
 * The flags a command runs with, checked: aliases folded into their flag (two spellings with
 * different values are refused), each flag's allowed values and rule applied. Commands call it
 * first, so a run from code is checked as one from the command line.
 */
export function checkFlags<S extends FlagSpecs<never> | FlagSpecs<unknown>>(
  specs: S,
  given: FlagsOf<S> & Record<string, unknown>,
): FlagsOf<S> {
  const flags: Record<string, unknown> = { ...given };
  for (const [key, spec] of Object.entries(specs) as Array<[string, FlagSpec]>) {
    for (const alias of spec.aliases ?? []) {
      const aliasKey = camel(alias);
      const value = flags[aliasKey];
      if (value === undefined) continue;
      delete flags[aliasKey];
      const own = given[key];
      if (own !== undefined && own !== value && own !== spec.default) {
        throw new UserError(
          `--${alias}: '${String(value)}' and --${kebab(key)} '${String(own)}' are the same flag with two values; pass one of them`,
        );
      }
      flags[key] = value;
    }
    const value = flags[key];
    if (value === undefined) continue;
    if (spec.choices && !spec.choices.values.includes(value as string)) {
      const values = spec.choices.values.map((v) => `'${v}'`);
      const list =
        values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` : values.join('');
      throw new UserError(`--${kebab(key)}: '${String(value)}' is not ${spec.choices.noun}; use ${list}`);
    }
    (spec.check as ((v: unknown) => void) | undefined)?.(value);
  }
  return flags as FlagsOf<S>;
}

/** What `alpha generate` passes for a command's flags, from what PROJECT recorded: each flag's `replay`. */
export function replayFlags<R, S extends FlagSpecs<R>>(specs: S, recorded: R): FlagsOf<S> {
  const flags: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const value = (spec as FlagSpec<FlagKind, R>).replay?.(recorded);
    if (value !== undefined) flags[key] = value;
  }
  return flags as FlagsOf<S>;
}
