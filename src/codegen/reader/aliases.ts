/**
 * Where an import specifier points inside the project: relative specifiers (`./types.js`) and the
 * project's tsconfig `paths` aliases (`@/api/types`, `~shared/*`), as a project-relative path
 * without extension. The loader (sources.ts) follows them to read types declared outside src/api,
 * and the resolver follows them to find declarations. Pure; the tsconfig text comes in the
 * source set.
 */
import { posix } from 'node:path';

/** The tsconfig file the loader adds to the source set, when the project has one. */
export const TSCONFIG = 'tsconfig.json';

export interface PathAliases {
  /** `paths` entries: `prefix*suffix` (or an exact name) → target patterns, project-relative. */
  entries: Array<{ prefix: string; suffix: string; wildcard: boolean; targets: string[] }>;
}

/** tsconfig.json text (comments and trailing commas allowed, as tsc allows them) → its path aliases. */
export function parsePathAliases(text: string | undefined): PathAliases | undefined {
  if (text === undefined) return undefined;
  let config: { compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
  try {
    config = JSON.parse(stripJsonComments(text)) as typeof config;
  } catch {
    return undefined; // tsc reports a broken tsconfig; manifests only needs its aliases
  }
  const paths = config.compilerOptions?.paths;
  if (typeof paths !== 'object' || paths === null) return undefined;
  const base = typeof config.compilerOptions?.baseUrl === 'string' ? config.compilerOptions.baseUrl : '.';
  const entries: PathAliases['entries'] = [];
  for (const [pattern, targets] of Object.entries(paths as Record<string, unknown>)) {
    if (!Array.isArray(targets)) continue;
    const star = pattern.indexOf('*');
    entries.push({
      prefix: star < 0 ? pattern : pattern.slice(0, star),
      suffix: star < 0 ? '' : pattern.slice(star + 1),
      wildcard: star >= 0,
      targets: targets
        .filter((t): t is string => typeof t === 'string')
        .map((t) => posix.normalize(posix.join(base, t))),
    });
  }
  // The longest prefix wins, as in TypeScript's own matching.
  entries.sort((a, b) => b.prefix.length - a.prefix.length);
  return { entries };
}

/**
 * Candidate project-relative paths (extension-less) for `specifier` imported by the
 * project-relative file `from`; empty for a package import.
 */
export function specifierTargets(from: string, specifier: string, aliases: PathAliases | undefined): string[] {
  const strip = (p: string): string => p.replace(/\.(m?js|m?ts)$/, '');
  const inside = (p: string): boolean => !p.startsWith('../') && p !== '..';
  if (specifier.startsWith('.'))
    return [strip(posix.normalize(posix.join(posix.dirname(from), specifier)))].filter(inside);
  const out: string[] = [];
  for (const e of aliases?.entries ?? []) {
    if (
      e.wildcard
        ? !(
            specifier.startsWith(e.prefix) &&
            specifier.endsWith(e.suffix) &&
            specifier.length >= e.prefix.length + e.suffix.length
          )
        : specifier !== e.prefix
    )
      continue;
    const middle = e.wildcard ? specifier.slice(e.prefix.length, specifier.length - e.suffix.length) : '';
    for (const t of e.targets) out.push(strip(t.replace('*', middle)));
    break;
  }
  return out.filter(inside);
}

/** The files a candidate may be: `x.ts`, `x/index.ts`, `x.mts`. */
export function fileCandidates(base: string): string[] {
  return [`${base}.ts`, `${base}/index.ts`, `${base}.mts`];
}

/** JSON with `//` and block comments and trailing commas → JSON (strings are kept intact). */
function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = endOfString(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) break;
      i++;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
