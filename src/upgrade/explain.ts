/**
 * Why the project no longer type-checks after `alpha update`: each compiler error is matched with
 * the change between the two tsop versions' scaffolds (runtime and templates) that removed or
 * changed the name it is about — `Property 'client' does not exist` meets the removed
 * `protected get client()` — and says which file lost which line, with the @deprecated note that
 * announced it when there was one. An import of a runtime file that moved is explained by the
 * move (the file's old and new place), not by some name the module path happens to contain. An
 * error no tsop change explains is said to be the project's own.
 */
import { posix } from 'node:path';

export interface CompileError {
  file: string;
  line: number;
  col: number;
  /** `TS2339` */
  code: string;
  message: string;
}

/** One scaffold file that differs between the two versions: the lines it lost and gained. */
export interface TsopChange {
  path: string;
  removed: string[];
  added: string[];
  /** The old file, to find the JSDoc above a removed line. */
  before: string;
  /** The file is gone in the new version; where its content went, when another file took it. */
  gone?: { movedTo: string | undefined };
}

/** Words too common to tie an error to one change. */
const COMMON = new Set([
  'string',
  'number',
  'boolean',
  'void',
  'undefined',
  'null',
  'unknown',
  'never',
  'object',
  'any',
  'Promise',
  'Array',
  'Record',
  'this',
  'true',
  'false',
]);

export function tsopChanges(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): TsopChange[] {
  const out: TsopChange[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(path) ?? '';
    const b = after.get(path) ?? '';
    if (a === b || !/\.ts$/.test(path)) continue;
    const change: TsopChange = {
      path,
      removed: minus(lines(a), lines(b)),
      added: minus(lines(b), lines(a)),
      before: a,
    };
    if (!after.has(path)) change.gone = { movedTo: newHome(path, a, before, after) };
    out.push(change);
  }
  // The runtime's changes first: an error about an API is most often about the runtime's.
  return out.sort((x, y) => rank(x.path) - rank(y.path) || (x.path < y.path ? -1 : 1));
}

/** One line per error: where, what the compiler says, and the tsop change behind it. */
export function explainError(
  error: CompileError,
  changes: readonly TsopChange[],
  versions: { from: string; to: string },
): string {
  const where = `${error.file}:${error.line}:${error.col}: ${error.code} ${error.message}`;
  if (error.code === 'TS1185')
    return `${where} — a conflict the update left in this file: resolve it and 'git add' the file`;
  const moved = movedModule(error, changes);
  if (moved) {
    const home = moved.gone?.movedTo;
    const entry = harnessEntry(moved.path);
    if (!home && entry) return `${where} — caused by tsop ${versions.to}: ${harnessGone(moved.path, entry)}`;
    return `${where} — caused by tsop ${versions.to}: ${moved.path} ${home ? `moved to ${home}; import it from there (${relativeImport(error.file, home)})` : 'was removed'}`;
  }
  for (const name of namesIn(error.message)) {
    const pattern = new RegExp(`(^|[^\\w$.])${name.replace(/[$]/g, '\\$')}([^\\w$]|$)`);
    // A name inside a string (a module specifier such as './client.js') is not the name.
    const word = { test: (line: string): boolean => pattern.test(line.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, "''")) };
    for (const change of changes) {
      const removed = change.removed
        .filter((l) => word.test(l))
        .sort((x, y) => declarationScore(y) - declarationScore(x))[0];
      if (removed === undefined) continue;
      const now = change.added.find((l) => word.test(l));
      const note = deprecationNote(change.before, removed);
      return `${where} — caused by tsop ${versions.to}: ${change.path} no longer has \`${removed}\`${now ? ` (it has \`${now}\`)` : ''}${note ? `; ${note}` : ''}`;
    }
  }
  return `${where} — no change between tsop ${versions.from} and ${versions.to} explains it: it is in the project's own code`;
}

/**
 * The change behind "Cannot find module '../runtime/apimachinery/http.js'": the file the import
 * reaches (from the erring file's folder) is gone in the new version.
 */
function movedModule(error: CompileError, changes: readonly TsopChange[]): TsopChange | undefined {
  if (error.code !== 'TS2307') return undefined;
  const specifier = /^Cannot find module '([^']+)'/.exec(error.message)?.[1];
  if (specifier === undefined || !specifier.startsWith('.')) return undefined;
  const target = posix.join(posix.dirname(error.file), specifier).replace(/\.js$/, '.ts');
  return changes.find((c) => c.gone && c.path === target);
}

function harnessGone(path: string, entry: string): string {
  return `the test harness is no longer embedded (${path} was removed); import what it exports from '${entry}', from tsop, the project's dev dependency`;
}

/** The package entry a file of the harness embedded up to tsop 0.2 is exported from now (scaffold/harness-shims.ts). */
function harnessEntry(path: string): string | undefined {
  const folder = /^src\/runtime\/(testing|envtest)\//.exec(path)?.[1];
  return folder === undefined ? undefined : `tsop/${folder}`;
}

/**
 * Where a removed file's content lives now: a file new in this version with the same name, or
 * failing that the new file sharing most of its lines.
 */
function newHome(
  path: string,
  text: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string | undefined {
  const added = [...after.keys()].filter((p) => !before.has(p) && p.endsWith('.ts'));
  const named = added.filter((p) => posix.basename(p) === posix.basename(path));
  if (named.length === 1) return named[0];
  const old = new Set(lines(text));
  let best: { path: string; shared: number } | undefined;
  for (const p of named.length > 1 ? named : added) {
    const shared = lines(after.get(p) ?? '').filter((l) => old.has(l)).length;
    if (shared > (best?.shared ?? 0)) best = { path: p, shared };
  }
  return best !== undefined && best.shared >= old.size / 2 ? best.path : undefined;
}

/** The specifier that imports `target` from `file` (both project paths; `.ts` imported as `.js`). */
function relativeImport(file: string, target: string): string {
  const rel = posix.relative(posix.dirname(file), target).replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The names an error message quotes ('client', 'MemcachedReconciler'), in order. */
function namesIn(message: string): string[] {
  const names: string[] = [];
  for (const [, quoted] of message.matchAll(/'([^']+)'/g)) {
    // A module ('"./runtime/client/index.js"', '../runtime/rest/http.js') names a file, not an API.
    if (quoted!.startsWith('"') || /^\.{1,2}\//.test(quoted!)) continue;
    for (const word of quoted!.match(/[A-Za-z_$][\w$]*/g) ?? [])
      if (!COMMON.has(word) && !names.includes(word)) names.push(word);
  }
  return names;
}

/** The @deprecated text of the JSDoc right above `line` in `text`, if any. */
function deprecationNote(text: string, line: string): string | undefined {
  const all = text.split('\n');
  const at = all.findIndex((l) => l.trim() === line);
  for (let i = at - 1; i >= 0 && i >= at - 6; i--) {
    const l = all[i]!.trim();
    const found = /@deprecated\s+(.*?)\s*(\*\/)?$/.exec(l);
    if (found) return `it was deprecated ${found[1]}`;
    if (!l.startsWith('*') && !l.startsWith('/**')) break;
  }
  return undefined;
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//') && !l.startsWith('*') && !l.startsWith('/*'));
}

/** The lines of `a` not in `b`, counting repeats. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  return a.filter((l) => {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    return n === 0;
  });
}

function rank(path: string): number {
  return path.startsWith('src/runtime/') ? 0 : 1;
}

/** Declarations explain a missing name better than uses of it. */
function declarationScore(line: string): number {
  return /^(export\b|(public|protected|private|static|readonly)\s|get\s|set\s|constructor\s*\(|function\b|class\b|interface\b|type\b|const\b|let\b)/.test(
    line,
  )
    ? 1
    : 0;
}
