/**
 * Where an imported name is declared, by following a file's imports and the re-exports of other
 * project files (`export { a as b } from`, `export * from`) through the files the reader loaded.
 * Value names only (consts and enums as marker arguments); types go through resolve.ts.
 */
import { posix } from 'node:path';
import type { Project, SourceFile } from 'ts-morph';
import { fileCandidates, specifierTargets, type PathAliases } from './aliases.js';

/** The tsconfig path aliases of each in-memory project the reader built. */
const projectAliases = new WeakMap<Project, PathAliases>();

export function setPathAliases(project: Project, aliases: PathAliases | undefined): void {
  if (aliases) projectAliases.set(project, aliases);
}

export interface ExportSite {
  file: SourceFile;
  /** The name it is declared under in `file`. */
  name: string;
}

/** The project file `specifier` names as seen from `from` (relative, or a tsconfig alias), if the reader loaded it. */
export function moduleFile(from: SourceFile, specifier: string): SourceFile | undefined {
  const project = from.getProject();
  const path = from.getFilePath();
  const root = path.slice(0, path.indexOf('/', 1)); // the in-memory root, '/project'
  const aliases = specifier.startsWith('.') ? undefined : projectAliases.get(project);
  if (!specifier.startsWith('.') && aliases === undefined) return undefined;
  for (const base of specifierTargets(posix.relative(root, path), specifier, aliases)) {
    for (const candidate of fileCandidates(base)) {
      const file = project.getSourceFile(`${root}/${candidate}`);
      if (file) return file;
    }
  }
  return undefined;
}

/** Where `name`, exported by the module `specifier` of `from`, is declared; undefined outside the project. */
export function exportSite(from: SourceFile, specifier: string, name: string, depth = 0): ExportSite | undefined {
  const file = moduleFile(from, specifier);
  if (!file || depth > 8) return undefined;
  if (file.getVariableDeclaration(name) || file.getEnum(name)) return { file, name };
  for (const exp of file.getExportDeclarations()) {
    const spec = exp.getModuleSpecifierValue();
    if (spec === undefined) continue;
    const named = exp.getNamedExports();
    if (named.length === 0) {
      const found = exportSite(file, spec, name, depth + 1);
      if (found) return found;
      continue;
    }
    for (const n of named) if ((n.getAliasNode()?.getText() ?? n.getName()) === name) return exportSite(file, spec, n.getName(), depth + 1);
  }
  return undefined;
}

/** Where a name used in `file` comes from: declared there, or imported by name (or as a namespace). */
export function importOf(file: SourceFile, local: string): { specifier: string; name?: string } | undefined {
  for (const imp of file.getImportDeclarations()) {
    if (imp.getNamespaceImport()?.getText() === local) return { specifier: imp.getModuleSpecifierValue() };
    for (const spec of imp.getNamedImports()) {
      if ((spec.getAliasNode()?.getText() ?? spec.getName()) === local) return { specifier: imp.getModuleSpecifierValue(), name: spec.getName() };
    }
  }
  return undefined;
}
