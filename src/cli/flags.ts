/**
 * Flag values shared by every tsop command. Booleans are read as Go's flag package reads them
 * (strconv.ParseBool), so a kubebuilder command line works unchanged: `--force`, `--force=false`,
 * `--force=0`, `--force=F`, `--force=TRUE`... and nothing else (`yes`, `tRuE` and `` are refused,
 * as Go refuses them). The generated project's main.ts reads its own flags the same way.
 */
import { InvalidArgumentError } from 'commander';

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
