/**
 * The generic collector: finds the decorators on a declaration and parses their arguments as
 * literals. It knows nothing about CRDs or which markers exist — the marker catalog decides what
 * a name means. A decorator's name is the one it is exported under, found through the file's
 * imports (`import { Minimum as Min }` → `Minimum`, `import * as m` then `@m.Minimum` →
 * `Minimum`), so renaming an import never hides a marker. A decorator imported from tsop's
 * markers module is flagged as such, so one the catalog does not know can be reported.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './reader/typescript.js';
import type { Diagnostic, MarkerUse } from './model.js';
import { LiteralError, literalValue } from './literal.js';
import { moduleFile } from './reader/exports.js';
import { decoratorsOf, fileIndex, lineOf, namedExports, nameOf, specifierOf } from './reader/syntax.js';

/** The markers on `node`, a declaration in `sf` (`file` is its project-relative path). */
export function collectMarkers(node: TS.Node, sf: TS.SourceFile, file: string, diagnostics: Diagnostic[]): MarkerUse[] {
  const decorators = decoratorsOf(node);
  if (decorators.length === 0) return [];
  const out: MarkerUse[] = [];
  for (const dec of decorators) {
    const expr = dec.expression;
    const line = lineOf(dec, sf);
    const { name, fromMarkers } = resolveDecorator(dec, sf);
    try {
      const args = ts.isCallExpression(expr) ? expr.arguments.map((a) => literalValue(a, sf)) : [];
      out.push(fromMarkers ? { name, args, pos: { file, line }, fromMarkers } : { name, args, pos: { file, line } });
    } catch (error) {
      if (!(error instanceof LiteralError)) throw error;
      diagnostics.push({ pos: { file, line: error.line }, message: `@${name}: ${error.message}` });
    }
  }
  return out;
}

/** The marker name of `@Name(...)`, `@Name` or `@ns.Name(...)`, resolved through the file's imports. */
export function decoratorName(dec: TS.Decorator, sf: TS.SourceFile): string {
  return resolveDecorator(dec, sf).name;
}

/**
 * tsop's markers module as a project imports it: the embedded runtime's `…/runtime/markers`
 * (with or without `/index.js`). A user's own decorator module is never mistaken for it.
 */
const MARKERS_MODULE = /(?:^|\/)runtime\/markers(?:\/index(?:\.[mc]?[jt]s)?)?$/;

interface ResolvedDecorator {
  name: string;
  /** Imported (directly or through project re-exports) from tsop's markers module. */
  fromMarkers: boolean;
}

function resolveDecorator(dec: TS.Decorator, sf: TS.SourceFile): ResolvedDecorator {
  const expr = dec.expression;
  const callee = ts.isCallExpression(expr) ? expr.expression : expr;
  const access = ts.isPropertyAccessExpression(callee) ? { ns: nameOf(callee.expression, sf), name: nameOf(callee.name, sf) } : undefined;
  const key = access ? `${access.ns}.${access.name}` : nameOf(callee, sf);
  const imports = importsOf(sf);
  let found = imports.resolved.get(key);
  if (found === undefined) {
    // Resolved once per file and name, and only for names used as decorators: re-exports are
    // followed only here, so files with many plain type imports cost nothing extra.
    const from = access ? { specifier: imports.namespaces.get(access.ns), name: access.name } : imports.named.get(key);
    const fallback = access ? access.name : key;
    found = from?.specifier === undefined ? { name: fallback, fromMarkers: false } : reexported(sf, from.specifier, from.name, 0);
    imports.resolved.set(key, found);
  }
  return found;
}

interface Imports {
  /** Local name → its module and the name it is exported under. */
  named: Map<string, { specifier: string; name: string }>;
  /** Namespace (`import * as m`) → module specifier. */
  namespaces: Map<string, string>;
  /** Decorator text (`Min`, `m.Minimum`) → marker name and origin, filled as decorators are met. */
  resolved: Map<string, ResolvedDecorator>;
}

const cache = new WeakMap<TS.SourceFile, Imports>(); // computed once per file

function importsOf(file: TS.SourceFile): Imports {
  let found = cache.get(file);
  if (found) return found;
  found = { named: new Map(), namespaces: new Map(), resolved: new Map() };
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const specifier = st.moduleSpecifier.text;
    const bindings = st.importClause?.namedBindings;
    if (!bindings) continue;
    if (ts.isNamespaceImport(bindings)) found.namespaces.set(bindings.name.text, specifier);
    else for (const el of bindings.elements) found.named.set(el.name.text, { specifier, name: (el.propertyName ?? el.name).text });
  }
  cache.set(file, found);
  return found;
}

/**
 * The name `name` has before a project file renamed it on re-export (`export { Minimum as Min }
 * from '…'`); unchanged when the module is not a project file the reader loaded, where the module
 * it comes from says whether it is tsop's markers.
 */
function reexported(from: TS.SourceFile, specifier: string, name: string, depth: number): ResolvedDecorator {
  const target = depth > 8 ? undefined : moduleFile(from, specifier);
  if (!target) return { name, fromMarkers: MARKERS_MODULE.test(specifier) };
  for (const exp of fileIndex(target).exports) {
    const spec = specifierOf(exp.moduleSpecifier);
    if (spec === undefined) continue;
    for (const n of namedExports(exp, target)) if (n.alias === name) return reexported(target, spec, n.name, depth + 1);
  }
  return { name, fromMarkers: false };
}
