/**
 * Semantic versions as OLM reads them (blang/semver): `parse` is strict (MAJOR.MINOR.PATCH with
 * optional -pre and +build, no leading zeros, no 'v'), `parseTolerant` also takes a leading 'v',
 * surrounding spaces and a missing minor or patch. Both return undefined for what they refuse.
 */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
}

const NUMERIC = /^(0|[1-9]\d*)$/;
const IDENT = /^[0-9A-Za-z-]+$/;

export function parseSemver(text: string): SemVer | undefined {
  const plus = text.indexOf('+');
  const core = plus < 0 ? text : text.slice(0, plus);
  if (
    plus >= 0 &&
    !text
      .slice(plus + 1)
      .split('.')
      .every((b) => IDENT.test(b))
  )
    return undefined;
  const dash = core.indexOf('-');
  const main = dash < 0 ? core : core.slice(0, dash);
  const pre = dash < 0 ? [] : core.slice(dash + 1).split('.');
  if (pre.some((p) => !IDENT.test(p) || (/^\d+$/.test(p) && !NUMERIC.test(p)))) return undefined;
  const parts = main.split('.');
  if (parts.length !== 3 || !parts.every((p) => NUMERIC.test(p))) return undefined;
  return { major: Number(parts[0]), minor: Number(parts[1]), patch: Number(parts[2]), pre };
}

export function parseSemverTolerant(text: string): SemVer | undefined {
  let s = text.trim().replace(/^v/, '');
  const cut = s.search(/[-+]/);
  const main = cut < 0 ? s : s.slice(0, cut);
  const parts = main.split('.');
  if (parts.length > 3 || parts.some((p) => p === '')) return undefined;
  const normal = parts.map((p) => (/^\d+$/.test(p) ? String(Number(p)) : p));
  while (normal.length < 3) normal.push('0');
  s = normal.join('.') + (cut < 0 ? '' : s.slice(cut));
  return parseSemver(s);
}

export function compareSemver(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export function isZero(v: SemVer | undefined): boolean {
  return v === undefined || (v.major === 0 && v.minor === 0 && v.patch === 0 && v.pre.length === 0);
}
