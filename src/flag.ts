/**
 * A command-line flag, declared once: its kind (boolean, text, whole number), value name, help,
 * default, aliases, allowed values, its own rule, and how it is recorded into PROJECT and replayed
 * from it. The command that uses a flag, or the plugin that does, owns its declaration; from it
 * come the commander option (src/cli/commands.ts), the typed options object the command runs with
 * (`FlagsOf`), the check every run goes through, from the command line or from code
 * (`checkFlags`), and `alpha generate`'s replay of what PROJECT recorded (`replayFlags`).
 *
 * An entry's key is the options property (camelCase); the flag is its kebab-case form
 * (`projectName` → `--project-name`). Booleans are `--flag [bool]`, read as Go's flag package
 * reads them (strconv.ParseBool), so a kubebuilder command line works unchanged: `--force`,
 * `--force=false`, `--force=0`, `--force=F`, `--force=TRUE`... and nothing else (`yes`, `tRuE` and
 * `` are refused, as Go refuses them). The generated project's main.ts reads its own flags the same way.
 */
import { InvalidArgumentError } from 'commander';
import { UserError } from './errors.js';

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
  /** What PROJECT records of it (a plugin's settings), the inverse of `replay`. */
  record?(value: ValueOf<K>): Record<string, unknown>;
}

/** A command's flags by options key. `R` is what the replay reads (PROJECT, a resource). */
export type FlagSpecs<R = never> = Record<string, FlagSpec<FlagKind, R>>;

/** The options object a command runs with: every flag optional, typed by its kind. */
export type FlagsOf<S> = { -readonly [K in keyof S]?: S[K] extends FlagSpec<infer T, infer _R> ? ValueOf<T> : never };

/** Declares a command's flags, keeping each entry's literal kind for `FlagsOf`. */
export function defineFlags<const S extends FlagSpecs>(specs: S): S {
  return specs;
}

/** Declares flags `alpha generate` replays from `R` (what PROJECT recorded). */
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

/** `projectName` → `project-name`: an options key as its command-line flag. */
export const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name: string): string => name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** A boolean flag's value; undefined for a bare `--flag`, which means true. Undefined for anything else. */
export function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined || TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return undefined;
}

/** commander's argument parser for `--flag [bool]` options. */
export function booleanFlag(value: string | undefined): boolean {
  const parsed = parseBool(value);
  if (parsed === undefined)
    throw new InvalidArgumentError(
      "must be true or false (also 1/0, t/f, T/F, TRUE/FALSE, True/False, as Go's flag package reads them)",
    );
  return parsed;
}

/** commander's argument parser for counts: a whole number, 0 or more. */
export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number, 0 or more');
  return Number(value);
}

/**
 * The flags a command runs with, checked: aliases folded into their flag (two spellings with
 * different values are refused), each flag's allowed values and rule applied. Commands call it
 * first, so a run from code is checked as one from the command line. Flags `specs` does not
 * declare (a plugin's) pass through unchecked: their owner checks them.
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
    // The command line's parser refuses other text (wholeNumber); this is the same rule for a run from code.
    if (spec.kind === 'count' && !(typeof value === 'number' && Number.isInteger(value) && value >= 0))
      throw new UserError(`--${kebab(key)}: '${String(value)}' must be a whole number, 0 or more`);
    (spec.check as ((v: unknown) => void) | undefined)?.(value);
  }
  return flags as FlagsOf<S>;
}

/** What `alpha generate` passes for the flags, from what PROJECT recorded: each flag's `replay`. */
export function replayFlags<R, S extends FlagSpecs<R>>(specs: S, recorded: R): FlagsOf<S> {
  const flags: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const value = (spec as FlagSpec<FlagKind, R>).replay?.(recorded);
    if (value !== undefined) flags[key] = value;
  }
  return flags as FlagsOf<S>;
}

/** What PROJECT records of the given flags, in declaration order: each given flag's `record`. */
export function recordFlags<S extends FlagSpecs<never> | FlagSpecs<unknown>>(
  specs: S,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const recorded: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs) as Array<[string, FlagSpec]>) {
    const value = given[key];
    if (value !== undefined && spec.record) Object.assign(recorded, (spec.record as (v: unknown) => object)(value));
  }
  return recorded;
}

/** `--dir`, as most commands take it. */
export const projectDir = (): FlagSpec<'text'> => text('path', 'project directory (default: the current directory)');
