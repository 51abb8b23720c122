/**
 * A ClusterServiceVersion's spec.version as operator-framework/api decodes it: a string read by
 * blang/semver's tolerant parser (`v0.0.1`, `'1'`, `01.0.0` are fine; `banana` is not), absent
 * meaning 0.0.0. operator-sdk cannot load a CSV whose version does not decode, so neither
 * `bundle validate` nor the generators accept one.
 */
import { formatSemver, parseSemverTolerantResult } from './semver.js';

/** Why the value cannot be a CSV's spec.version (operator-sdk's words), or undefined when it can. */
export function csvVersionProblem(version: unknown): string | undefined {
  if (version === undefined) return undefined;
  if (typeof version !== 'string' && version !== null) {
    const type =
      typeof version === 'number'
        ? 'number'
        : typeof version === 'boolean'
          ? 'bool'
          : Array.isArray(version)
            ? 'array'
            : 'object';
    return `json: cannot unmarshal ${type} into Go struct field ClusterServiceVersionSpec.spec.version of type string`;
  }
  return parseSemverTolerantResult(version ?? '').error;
}

/** The version as OLM writes it back (`v0.0.1` → 0.0.1, `'1'` → 1.0.0); 0.0.0 when absent. */
export function csvVersionText(version: unknown): string {
  const parsed = typeof version === 'string' ? parseSemverTolerantResult(version).version : undefined;
  return parsed ? formatSemver(parsed) : '0.0.0';
}

/** One line for a CSV whose spec.version does not decode: where, the value, why, and the fix. */
export function csvVersionMessage(where: string, version: unknown, problem: string): string {
  return `${where}: spec.version ${JSON.stringify(version)} is not a semantic version (${problem}); write MAJOR.MINOR.PATCH, e.g. 0.0.1`;
}
