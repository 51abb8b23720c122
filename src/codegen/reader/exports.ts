/**
 * Where an imported name is declared, by following a file's imports and the re-exports of other
 * project files (`export { a as b } from`, `export * from`) through the files the reader loaded.
 * Value names only (consts and enums as marker arguments); types go through resolve.ts.
 */
import type { ts as TS } from 'ts-morph';
import { fileIndex, importTable, namedExports, specifierOf } from './syntax.js';
import { fileCandidates, specifierTargets, type PathAliases } from './aliases.js';

/**
 * tsop's markers module as a project imports it: the embedded runtime's `…/runtime/markers`
 * (with or without `/index.js`). A user's own module is never mistaken for it.
 */
export const MARKERS_MODULE = /(?:^|\/)runtime\/markers(?:\/index(?:\.[mc]?[jt]s)?)?$/;

/** The files the reader parsed for one model, by absolute in-memory path, and the tsconfig's path aliases. */
export interface ParsedProject {
  files: ReadonlyMap<string, TS.SourceFile>;
  aliases: PathAliases | undefined;
}

/** Each parsed file → the project it belongs to (a file knows no project of its own). */
const projectOf = new WeakMap<TS.SourceFile, ParsedProject>();

export function registerProject(project: ParsedProject): void {
  for (const file of project.files.values()) projectOf.set(file, project);
}

export interface ExportSite {
  file: TS.SourceFile;
  /** The name it is declared under in `file`. */
  name: string;
}

/** Each file's module specifiers as found so far (null: not a loaded project file). */
const modulesOf = new WeakMap<TS.SourceFile, Map<string, TS.SourceFile | null>>();

/** The project file `specifier` names as seen from `from` (relative, or a tsconfig alias), if the reader loaded it. */
export function moduleFile(from: TS.SourceFile, specifier: string): TS.SourceFile | undefined {
  let modules = modulesOf.get(from);
  if (!modules) modulesOf.set(from, (modules = new Map()));
  let found = modules.get(specifier);
  if (found === undefined) modules.set(specifier, (found = findModule(from, specifier) ?? null));
  return found ?? undefined;
}

function findModule(from: TS.SourceFile, specifier: string): TS.SourceFile | undefined {
  const project = projectOf.get(from);
  if (!project) return undefined;
  const path = from.fileName;
  const root = path.slice(0, path.indexOf('/', 1)); // the in-memory root, '/project'
  const aliases = specifier.startsWith('.') ? undefined : project.aliases;
  if (!specifier.startsWith('.') && aliases === undefined) return undefined;
  for (const base of specifierTargets(path.slice(root.length + 1), specifier, aliases)) {
    for (const candidate of fileCandidates(base)) {
      const file = project.files.get(`${root}/${candidate}`);
      if (file) return file;
    }
  }
  return undefined;
}

/** Where `name`, exported by the module `specifier` of `from`, is declared; undefined outside the project. */
export function exportSite(from: TS.SourceFile, specifier: string, name: string, depth = 0): ExportSite | undefined {
  const file = moduleFile(from, specifier);
  if (!file || depth > 8) return undefined;
  const index = fileIndex(file);
  if (index.variables.has(name) || index.enums.has(name)) return { file, name };
  for (const exp of index.exports) {
    const spec = specifierOf(exp.moduleSpecifier);
    if (spec === undefined) continue;
    const named = namedExports(exp, file);
    if (named.length === 0) {
      const found = exportSite(file, spec, name, depth + 1);
      if (found) return found;
      continue;
    }
    for (const n of named) if (n.alias === name) return exportSite(file, spec, n.name, depth + 1);
  }
  return undefined;
}

/** Where a name used in `file` comes from: declared there, or imported by name (or as a namespace). */
export function importOf(file: TS.SourceFile, local: string): { specifier: string; name?: string } | undefined {
  return importTable(file).values.get(local);
}
