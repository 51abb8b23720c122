/**
 * package.json merged as data, not as lines: each key three-way on its own (dependency maps key by
 * key), so a dependency the user added next to one tsop changed is no conflict, and two sides
 * that made the same change agree. tsop's own entry follows one rule: a version range becomes the
 * new template's range (the update is to that version); any other install spec (a tarball, a git
 * ref, a path) is how the user gets tsop and stays theirs — when it still names the old version,
 * a note says to point it at the new one. A key both sides changed differently is a conflict,
 * written with git's markers around that one entry.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface PackageMerge {
  text: string;
  conflicts: boolean;
  /** Lines for the user: an install spec that still names the old tsop. */
  notes: string[];
}

const DEPENDENCY_MAPS = new Set(['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']);

/** Registry specs: a version, a range, a dist-tag. Anything with ':' or '/' is a tarball, git ref, path or URL. */
export function isRangeSpec(spec: string): boolean {
  return !/[:/\\]/.test(spec) && !/\.(tgz|tar\.gz)$/.test(spec);
}

/**
 * Merges the user's package.json (`current`) with tsop's change from `base` to `next`. Undefined
 * when one of the three is not a JSON object (the caller falls back to a line merge).
 */
export function mergePackageJson(
  current: string,
  base: string,
  next: string,
  labels: { from: string; to: string; path?: string },
): PackageMerge | undefined {
  const [yours, ancestor, theirs] = [current, base, next].map(parseObject);
  if (yours === undefined || ancestor === undefined || theirs === undefined) return undefined;
  const conflicts: Array<{ yours: Json | undefined; theirs: Json | undefined }> = [];
  const notes: string[] = [];
  const merged = mergeObject(ancestor, yours, theirs, [], conflicts, notes, labels) ?? {};
  const indent = /^\{\s*\n([ \t]+)"/.exec(current)?.[1] ?? '  ';
  let text = `${JSON.stringify(merged, null, indent)}\n`;
  const path = labels.path ?? 'package.json';
  text = text.replace(
    /^([ \t]*)"((?:[^"\\]|\\.)*)": "\\u0000conflict:(\d+)"(,?)$/gm,
    (_, pad: string, key: string, id: string, comma: string) => {
      const c = conflicts[Number(id)]!;
      const line = (v: Json | undefined): string =>
        v === undefined
          ? ''
          : `${pad}"${key}": ${JSON.stringify(v, null, indent).replace(/\n/g, `\n${pad}`)}${comma}\n`;
      return `<<<<<<< ${path} (yours)\n${line(c.yours)}=======\n${line(c.theirs)}>>>>>>> ${path} (tsop ${labels.to})`;
    },
  );
  return { text, conflicts: conflicts.length > 0, notes };
}

function mergeObject(
  base: JsonObject | undefined,
  yours: JsonObject,
  theirs: JsonObject,
  at: string[],
  conflicts: Array<{ yours: Json | undefined; theirs: Json | undefined }>,
  notes: string[],
  labels: { from: string; to: string },
): JsonObject {
  const keys = [...Object.keys(yours), ...Object.keys(theirs).filter((k) => !(k in yours))];
  const out: JsonObject = {};
  for (const key of keys) {
    const [b, y, t] = [base?.[key], yours[key], theirs[key]];
    const where = [...at, key];
    let value: Json | undefined;
    if (key === 'tsop' && at.length === 1 && DEPENDENCY_MAPS.has(at[0]!) && typeof y === 'string') {
      value = tsopEntry(y, b, t, notes, labels);
    } else if (same(y, t) || same(b, t)) {
      value = y;
    } else if (same(b, y)) {
      value = t;
    } else if (isObject(y) && isObject(t) && (b === undefined || isObject(b))) {
      value = mergeObject(b, y, t, where, conflicts, notes, labels);
    } else {
      conflicts.push({ yours: y, theirs: t });
      value = `\u0000conflict:${conflicts.length - 1}`;
    }
    if (value !== undefined) out[key] = value;
  }
  // npm keeps dependency maps sorted; so does the merge, when the user's was.
  if (at.length === 1 && DEPENDENCY_MAPS.has(at[0]!) && isSorted(Object.keys(yours))) {
    return Object.fromEntries(Object.entries(out).sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)));
  }
  return out;
}

/** tsop's own dependency: a range follows the template; another install spec stays the user's. */
function tsopEntry(
  yours: string,
  base: Json | undefined,
  theirs: Json | undefined,
  notes: string[],
  labels: { from: string; to: string },
): Json | undefined {
  if (isRangeSpec(yours)) return theirs === undefined && same(base, yours) ? undefined : (theirs ?? yours);
  if (yours.includes(labels.from) && !yours.includes(labels.to))
    notes.push(
      `package.json installs tsop from ${yours}, which looks like tsop ${labels.from}; point it at tsop ${labels.to} (npm i -D <its tarball or git ref>) so the project builds with the new version`,
    );
  return yours;
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as Json;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isSorted(keys: string[]): boolean {
  return keys.every((k, i) => i === 0 || keys[i - 1]! <= k);
}
