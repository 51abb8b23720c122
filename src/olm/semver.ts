/**
 * Semantic versions as OLM reads them (blang/semver v4, which operator-framework/api wraps):
 * `parse` is strict (MAJOR.MINOR.PATCH, optional -pre and +build, no leading zeros, no 'v'); the
 * tolerant form, which a CSV's spec.version goes through, first trims spaces and one leading 'v',
 * drops leading zeros of each dot-separated part and fills a missing minor or patch with 0 (not
 * when that short version carries -pre or +build). Each refusal says why in blang's words, so
 * tsop's messages match operator-sdk's.
 */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
  build: string[];
}

export type SemverResult = { version: SemVer; error?: undefined } | { version?: undefined; error: string };

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const UINT64_MAX = 18446744073709551615n;
const leadingZero = (s: string): boolean => s.length > 1 && s.startsWith('0');

/** A decimal that fits in Go's uint64, as strconv.ParseUint reads it. */
function uint(s: string): number | string {
  if (s === '') return 'strconv.ParseUint: parsing "": invalid syntax';
  if (BigInt(s) > UINT64_MAX) return `strconv.ParseUint: parsing "${s}": value out of range`;
  return Number(s);
}

function parseSemverResult(s: string): SemverResult {
  if (s.length === 0) return { error: 'Version string empty' };
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) return { error: 'No Major.Minor.Patch elements found' };
  const numbers: number[] = [];
  for (const [i, name] of [
    [0, 'major'],
    [1, 'minor'],
  ] as const) {
    const p = parts[i]!;
    if (!NUMBERS.test(p)) return { error: `Invalid character(s) found in ${name} number "${p}"` };
    if (leadingZero(p))
      return { error: `${name[0]!.toUpperCase()}${name.slice(1)} number must not contain leading zeroes "${p}"` };
    const n = uint(p);
    if (typeof n === 'string') return { error: n };
    numbers.push(n);
  }
  let patchStr = parts[2]!;
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patchStr.indexOf('+');
  if (plus >= 0) {
    build = patchStr.slice(plus + 1).split('.');
    patchStr = patchStr.slice(0, plus);
  }
  const dash = patchStr.indexOf('-');
  if (dash >= 0) {
    pre = patchStr.slice(dash + 1).split('.');
    patchStr = patchStr.slice(0, dash);
  }
  if (!NUMBERS.test(patchStr)) return { error: `Invalid character(s) found in patch number "${patchStr}"` };
  if (leadingZero(patchStr)) return { error: `Patch number must not contain leading zeroes "${patchStr}"` };
  const patch = uint(patchStr);
  if (typeof patch === 'string') return { error: patch };
  for (const p of pre) {
    if (p === '') return { error: 'Prerelease is empty' };
    if (NUMBERS.test(p)) {
      if (leadingZero(p)) return { error: `Numeric PreRelease version must not contain leading zeroes "${p}"` };
      const n = uint(p);
      if (typeof n === 'string') return { error: n };
    } else if (!ALPHANUM.test(p)) return { error: `Invalid character(s) found in prerelease "${p}"` };
  }
  for (const b of build) {
    if (b === '') return { error: 'Build meta data is empty' };
    if (!ALPHANUM.test(b)) return { error: `Invalid character(s) found in build meta data "${b}"` };
  }
  return { version: { major: numbers[0]!, minor: numbers[1]!, patch, pre, build } };
}

export function parseSemverTolerantResult(text: string): SemverResult {
  let s = text.trim();
  if (s.startsWith('v')) s = s.slice(1);
  const parts = splitN(s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t === '' || !/^[0-9]/.test(t) ? `0${t}` : t;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!))
      return { error: 'Short version cannot contain PreRelease/Build meta data' };
    while (parts.length < 3) parts.push('0');
  }
  return parseSemverResult(parts.join('.'));
}

export function parseSemver(text: string): SemVer | undefined {
  return parseSemverResult(text).version;
}

export function parseSemverTolerant(text: string): SemVer | undefined {
  return parseSemverTolerantResult(text).version;
}

/** Go's strings.SplitN: at most n parts, the last one holding the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const all = s.split(sep);
  return all.length <= n ? all : [...all.slice(0, n - 1), all.slice(n - 1).join(sep)];
}

/** The version as blang prints it (what OLM writes back): 1.2.3-rc.1+build.5. */
export function formatSemver(v: SemVer): string {
  const pre = v.pre.length > 0 ? `-${v.pre.join('.')}` : '';
  const build = v.build.length > 0 ? `+${v.build.join('.')}` : '';
  return `${v.major}.${v.minor}.${v.patch}${pre}${build}`;
}

export function compareSemver(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** Equal to the zero version (build metadata aside, as blang's Equals compares). */
export function isZero(v: SemVer | undefined): boolean {
  return v === undefined || (v.major === 0 && v.minor === 0 && v.patch === 0 && v.pre.length === 0);
}
