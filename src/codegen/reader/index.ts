/**
 * The reader: user sources → ApiModel. Conventions (kubebuilder's, in TypeScript form):
 *
 * - A **kind** is a class decorated `@Resource(...)`. Its name is the kind — or the one name it is
 *   exported under, when only `export { ObjectObject as Object }` exports it (a class named
 *   like a global its own decorator code reads cannot be declared); its fields are the
 *   root of the schema (`apiVersion`, `kind` and `metadata` are always present with their standard
 *   schemas, whether declared or not).
 * - Its **group and version** come from `export const groupVersion = { group: 'batch.example.com',
 *   version: 'v1' }` in any file of the kind's directory or the nearest directory above it
 *   (kubebuilder's groupversion_info.go). The same kind in several version directories is one CRD
 *   with several versions. `fields: 'optional'` there makes the fields of every type declared
 *   under that directory optional unless `@Required()` (a package-level validation:Optional);
 *   `skip: true` leaves its kinds out (a package-level kubebuilder:skip).
 * - A **controller** is any class with `@Rbac(...)` markers; a **webhook** any class with `@Webhook(...)`.
 * Decorators are known by the name they are exported under, whatever the file imports them as.
 *
 * Each file is parsed on its own by TypeScript's parser into raw syntax nodes (no program, no lib,
 * no type checker, and not ts-morph, whose wrappers cost more than the parse): names are resolved
 * by following imports (see resolve.ts), never by type-checking.
 */
import { posix } from 'node:path';
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { ApiModel, CommentMarker, ControllerDef, Diagnostic, KindDef, SourcePos } from '../model.js';
import { GO_MARKER_LINE } from '../description.js';
import { collectMarkers, decoratorName } from '../collector.js';
import { LiteralError, literalValue } from '../literal.js';
import { Resolver } from './resolve.js';
import { TypeReader } from './type-reader.js';
import { parsePathAliases, TSCONFIG } from './aliases.js';
import { registerProject } from './exports.js';
import { augmentationProblems } from './augmentations.js';
import { decoratorsOf, fileIndex, fileOf, hasModifier, lineAt, lineOf, namedExports, parseFile } from './syntax.js';

/** Project-relative POSIX path → file text. */
export type SourceSet = Readonly<Record<string, string>>;

const ROOT = '/project';

type SourceFile = TS.SourceFile;

export function readApiModel(sources: SourceSet): ApiModel {
  const files = new Map<string, SourceFile>();
  for (const path of Object.keys(sources).sort()) {
    if (!/\.m?ts$/.test(path)) continue; // the tsconfig rides along for its path aliases
    const full = posix.join(ROOT, path);
    files.set(full, parseFile(full, sources[path] ?? ''));
  }
  registerProject({ files, aliases: parsePathAliases(sources[TSCONFIG]) });
  const relPaths = new Map<SourceFile, string>();
  for (const [full, file] of files) relPaths.set(file, full.slice(ROOT.length + 1));
  const rel = (f: SourceFile): string => relPaths.get(f) ?? posix.relative(ROOT, f.fileName);
  const diagnostics: Diagnostic[] = [];
  for (const file of files.values()) diagnostics.push(...syntaxErrors(file, rel(file)));
  diagnostics.push(...augmentationProblems(files.values(), rel));
  const groupVersions = findGroupVersions(files, rel, diagnostics);
  const reader = new TypeReader(
    new Resolver(),
    rel,
    diagnostics,
    (file) => nearest(groupVersions, posix.dirname(file))?.fields === 'optional',
  );

  const kinds: KindDef[] = [];
  const controllers: ControllerDef[] = [];
  const webhooks: ControllerDef[] = [];
  for (const file of files.values()) {
    for (const cls of fileIndex(file).classes) {
      const names = decoratorsOf(cls).map((d) => decoratorName(d, file));
      const pos: SourcePos = { file: rel(file), line: lineOf(cls, file) };
      if (names.includes('Resource')) {
        const kind = readKind(cls, pos, groupVersions, reader, diagnostics);
        if (kind) kinds.push(kind);
      }
      if (names.includes('Rbac')) {
        controllers.push({
          name: cls.name?.text ?? 'default',
          markers: collectMarkers(cls, file, pos.file, diagnostics),
          pos,
        });
      }
      if (names.includes('Webhook') || names.includes('WebhookConfiguration'))
        webhooks.push({
          name: cls.name?.text ?? 'default',
          markers: collectMarkers(cls, file, pos.file, diagnostics),
          pos,
        });
    }
  }
  kinds.sort(
    (a, b) => compareNames(a.group, b.group) || compareNames(a.kind, b.kind) || compareNames(a.version, b.version),
  );
  const model: ApiModel = { kinds, types: reader.types, controllers, webhooks, diagnostics };
  if (reader.warnings.length > 0) model.warnings = reader.warnings;
  if (reader.foreign.length > 0) model.foreignDecorators = reader.foreign;
  const commentMarkers = goMarkersInComments(sources);
  if (commentMarkers.length > 0) model.commentMarkers = commentMarkers;
  return model;
}

/**
 * Go markers a kubebuilder veteran writes in comments (`// +kubebuilder:validation:Maximum=5`),
 * found by a scan of the text: a comment line (`//`, `/*` or ` *`) holding only the marker.
 */
function goMarkersInComments(sources: SourceSet): CommentMarker[] {
  const out: CommentMarker[] = [];
  for (const file of Object.keys(sources).sort()) {
    const text = sources[file] ?? '';
    if (!/\.m?ts$/.test(file)) continue;
    // Only the lines with a '+' (a marker starts with one), each once, counting lines on the way.
    let line = 1;
    let counted = 0;
    for (let plus = text.indexOf('+'); plus >= 0; ) {
      const start = text.lastIndexOf('\n', plus) + 1;
      let end = text.indexOf('\n', plus);
      if (end < 0) end = text.length;
      for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < start; nl = text.indexOf('\n', nl + 1)) line++;
      counted = start;
      const lineText = text.slice(start, end);
      if (/^\s*(?:\/\/|\/\*|\*)/.test(lineText)) {
        const marker = GO_MARKER_LINE.exec(lineText)?.[1];
        if (marker !== undefined) out.push({ text: marker, pos: { file, line } });
      }
      plus = text.indexOf('+', end);
    }
  }
  return out;
}

function readKind(
  cls: TS.ClassDeclaration,
  pos: SourcePos,
  gvs: Map<string, GV>,
  reader: TypeReader,
  diagnostics: Diagnostic[],
): KindDef | undefined {
  const name = exportedName(cls);
  if (name === undefined) {
    diagnostics.push({ pos, message: '@Resource on an anonymous class; a kind needs a class name' });
    return undefined;
  }
  const gv = nearest(gvs, posix.dirname(pos.file));
  if (!gv) {
    diagnostics.push({
      pos,
      message: `${name}: no group-version for ${posix.dirname(pos.file)}; add a groupversion.ts there with \`export const groupVersion = { group: 'example.com', version: 'v1' }\``,
    });
    return undefined;
  }
  if (gv.skip) return undefined; // the directory asked to be left out (kubebuilder:skip)
  const typeId = reader.typeDef(cls);
  const markers = reader.types[typeId]?.markers ?? [];
  return { group: gv.group, version: gv.version, kind: name, typeId, markers, pos };
}

/**
 * The kind's name: the class name, unless the class is not exported itself and its file exports
 * it under exactly one other name (`export { ObjectObject as Object }`).
 */
function exportedName(cls: TS.ClassDeclaration): string | undefined {
  const name = cls.name?.text;
  if (name === undefined || hasModifier(cls, ts.SyntaxKind.ExportKeyword)) return name;
  const file = fileOf(cls);
  const aliases = fileIndex(file)
    .exports.filter((d) => d.moduleSpecifier === undefined)
    .flatMap((d) => namedExports(d, file))
    .filter((e) => e.name === name)
    .map((e) => e.alias)
    .filter((alias) => alias !== 'default');
  return aliases.length === 1 ? aliases[0] : name;
}

/** Letters, digits, '.' and '-': what groups, versions and kinds are made of. */
const NAME_CHARS = /^[A-Za-z0-9.-]*$/;

/**
 * `a.localeCompare(b)` without starting ICU's collator (several milliseconds of a run) for the
 * names it sees: on letters, digits, '.' and '-' the collation orders case-insensitively first
 * ('-' < '.' < digits < letters, as in ASCII), then lowercase before uppercase at the first
 * difference. Other names are left to localeCompare.
 */
function compareNames(a: string, b: string): number {
  if (a === b) return 0; // kinds mostly share their group: no tests, no lowercase copies
  if (!NAME_CHARS.test(a) || !NAME_CHARS.test(b)) return a.localeCompare(b);
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] === la[i] ? -1 : 1;
  }
  return 0;
}

interface GV {
  group: string;
  version: string;
  fields?: 'optional' | 'required';
  skip?: boolean;
}

/** Directory → group-version, from every `export const groupVersion = {...}`. */
function findGroupVersions(
  files: ReadonlyMap<string, SourceFile>,
  rel: (f: SourceFile) => string,
  diagnostics: Diagnostic[],
): Map<string, GV> {
  const out = new Map<string, GV>();
  for (const file of files.values()) {
    const decl = fileIndex(file).variables.get('groupVersion');
    const init = decl?.initializer;
    if (!decl || !init) continue;
    const pos = { file: rel(file), line: lineOf(decl, file) };
    try {
      const v = literalValue(init, file);
      if (
        typeof v !== 'object' ||
        v === null ||
        Array.isArray(v) ||
        typeof v['group'] !== 'string' ||
        typeof v['version'] !== 'string'
      ) {
        throw new LiteralError(pos.line, 'groupVersion must be an object literal { group: string, version: string }');
      }
      const fields = v['fields'];
      if (fields !== undefined && fields !== 'optional' && fields !== 'required') {
        throw new LiteralError(pos.line, `fields must be 'optional' or 'required', got ${JSON.stringify(fields)}`);
      }
      const skip = v['skip'];
      if (skip !== undefined && typeof skip !== 'boolean')
        throw new LiteralError(pos.line, `skip must be true or false, got ${JSON.stringify(skip)}`);
      const dir = posix.dirname(pos.file);
      const prev = out.get(dir);
      if (prev && (prev.group !== v['group'] || prev.version !== v['version'])) {
        diagnostics.push({
          pos,
          message: `groupVersion: ${dir} already declares ${prev.group}/${prev.version}; keep one group-version per directory`,
        });
        continue;
      }
      const gv: GV = { group: v['group'], version: v['version'] };
      if (fields !== undefined) gv.fields = fields;
      if (skip === true) gv.skip = true;
      out.set(dir, gv);
    } catch (error) {
      if (!(error instanceof LiteralError)) throw error;
      diagnostics.push({ pos, message: `groupVersion: ${error.message}` });
    }
  }
  return out;
}

function nearest(gvs: Map<string, GV>, dir: string): GV | undefined {
  for (let d = dir; ; d = posix.dirname(d)) {
    const gv = gvs.get(d);
    if (gv) return gv;
    if (d === '.' || d === '/' || d === '') return undefined;
  }
}

/** The parser's first error: a file that does not parse would be read wrongly, so say so first. */
function syntaxErrors(file: SourceFile, path: string): Diagnostic[] {
  // parseDiagnostics is internal to TypeScript but has been stable for years; asking a Program
  // for syntactic diagnostics would give the same list at a higher cost.
  const parsed =
    (file as unknown as { parseDiagnostics?: Array<{ start?: number; messageText: unknown }> }).parseDiagnostics ?? [];
  // Only the first: the ones after it are usually the parser recovering from it.
  return parsed.slice(0, 1).map((d) => ({
    pos: { file: path, line: lineAt(file, d.start ?? 0) },
    message: `syntax error: ${typeof d.messageText === 'string' ? d.messageText : JSON.stringify(d.messageText)}`,
  }));
}
