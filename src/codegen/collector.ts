/**
 * The generic collector: finds the decorators on a declaration and parses their arguments as
 * literals. It knows nothing about CRDs or which markers exist — the marker catalog decides what
 * a name means. A decorator is known by where it comes from, through the file's imports:
 *
 * - tsop's markers module (directly, renamed, `import * as m` with `@m.Minimum`, or re-exported
 *   by a project file): a marker, under the name it is exported as;
 * - another package (`class-transformer`'s `@Type`): not a marker, whatever its name; a name
 *   close to a marker's is reported (a misspelling imported from the wrong place);
 * - a function of the project (`@PortNumber()` calling `Minimum(1)` and `Maximum(65535)`): read
 *   through to the markers it applies (composite.ts), or reported when it cannot be;
 * - nowhere (neither imported nor declared): taken by its name; the catalog reports one it does
 *   not know.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './reader/typescript.js';
import type { Diagnostic, MarkerUse, SourcePos } from './model.js';
import { LiteralError, literalValue } from './literal.js';
import { MARKERS_MODULE, moduleFile } from './reader/exports.js';
import { compositeMarkers, type DecoratorOrigin } from './reader/composite.js';
import { decoratorsOf, fileIndex, lineOf, namedExports, nameOf, specifierOf } from './reader/syntax.js';

/** A decorator imported from another package, kept to report names close to a marker's. */
export interface ForeignDecorator {
  name: string;
  specifier: string;
  pos: SourcePos;
}

/** The markers on `node`, a declaration in `sf` (`file` is its project-relative path). */
export function collectMarkers(
  node: TS.Node,
  sf: TS.SourceFile,
  file: string,
  diagnostics: Diagnostic[],
  foreign?: ForeignDecorator[],
): MarkerUse[] {
  const decorators = decoratorsOf(node);
  if (decorators.length === 0) return [];
  const out: MarkerUse[] = [];
  for (const dec of decorators) {
    const expr = dec.expression;
    const pos = { file, line: lineOf(dec, sf) };
    const origin = decoratorOrigin(dec, sf);
    const call = ts.isCallExpression(expr) ? expr : undefined;
    try {
      if (origin.kind === 'foreign') {
        foreign?.push({ name: origin.name, specifier: origin.specifier, pos });
      } else if (origin.kind === 'own') {
        const read = compositeMarkers(
          origin.name,
          origin.file,
          call ? call.arguments.map((a) => literalValue(a, sf)) : undefined,
          calleeOrigin,
        );
        if (read.kind === 'error')
          diagnostics.push({
            pos,
            message:
              `@${origin.name}: cannot read through this decorator of your own to the tsop markers it ` +
              `applies (${read.reason}); call the markers directly, or make it a function whose body ` +
              `only calls markers, e.g. (v, c) => { Minimum(1)(v, c); Maximum(9)(v, c); }`,
          });
        else for (const m of read.uses) out.push({ name: m.name, args: m.args, pos, fromMarkers: true });
      } else {
        const args = call ? call.arguments.map((a) => literalValue(a, sf)) : [];
        const use: MarkerUse = { name: origin.name, args, pos };
        if (origin.kind === 'marker') use.fromMarkers = true;
        else use.undeclared = true;
        out.push(use);
      }
    } catch (error) {
      if (!(error instanceof LiteralError)) throw error;
      diagnostics.push({ pos: { file, line: error.line }, message: `@${origin.name}: ${error.message}` });
    }
  }
  return out;
}

/** The marker name of `@Name(...)`, `@Name` or `@ns.Name(...)`; undefined for another package's decorator or one of the project's. */
export function decoratorName(dec: TS.Decorator, sf: TS.SourceFile): string | undefined {
  const origin = decoratorOrigin(dec, sf);
  return origin.kind === 'marker' || origin.kind === 'undeclared' ? origin.name : undefined;
}

/** Where the function `@…` calls comes from (see the module doc). */
function decoratorOrigin(dec: TS.Decorator, sf: TS.SourceFile): DecoratorOrigin {
  const expr = dec.expression;
  return calleeOrigin(ts.isCallExpression(expr) ? expr.expression : expr, sf);
}

/** The origin of a function named by `callee` (`Name` or `ns.Name`) in `sf`. */
function calleeOrigin(callee: TS.Expression, sf: TS.SourceFile): DecoratorOrigin {
  const access = ts.isPropertyAccessExpression(callee)
    ? { ns: nameOf(callee.expression, sf), name: nameOf(callee.name, sf) }
    : undefined;
  const key = access ? `${access.ns}.${access.name}` : nameOf(callee, sf);
  const imports = importsOf(sf);
  let found = imports.resolved.get(key);
  if (found === undefined) {
    // Resolved once per file and name, and only for names used as decorators: re-exports are
    // followed only here, so files with many plain type imports cost nothing extra.
    const from = access ? { specifier: imports.namespaces.get(access.ns), name: access.name } : imports.named.get(key);
    if (from?.specifier !== undefined) found = reexported(sf, from.specifier, from.name, 0);
    else if (!access && declares(sf, key)) found = { kind: 'own', name: key, file: sf };
    else found = { kind: 'undeclared', name: access ? access.name : key };
    imports.resolved.set(key, found);
  }
  return found;
}

/** Whether `file` declares a function or const `name` at its top level. */
function declares(file: TS.SourceFile, name: string): boolean {
  if (fileIndex(file).variables.has(name)) return true;
  return file.statements.some((st) => ts.isFunctionDeclaration(st) && st.name?.text === name);
}

interface Imports {
  /** Local name → its module and the name it is exported under. */
  named: Map<string, { specifier: string; name: string }>;
  /** Namespace (`import * as m`) → module specifier. */
  namespaces: Map<string, string>;
  /** Decorator text (`Min`, `m.Minimum`) → its origin, filled as decorators are met. */
  resolved: Map<string, DecoratorOrigin>;
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
    else
      for (const el of bindings.elements)
        found.named.set(el.name.text, { specifier, name: (el.propertyName ?? el.name).text });
  }
  cache.set(file, found);
  return found;
}

/**
 * What `name`, imported from `specifier`, is: followed through project files that re-export it
 * (`export { Minimum as Min } from '…'`) to tsop's markers module, another package, or the
 * project file that declares it.
 */
function reexported(from: TS.SourceFile, specifier: string, name: string, depth: number): DecoratorOrigin {
  const target = depth > 8 ? undefined : moduleFile(from, specifier);
  if (!target) return MARKERS_MODULE.test(specifier) ? { kind: 'marker', name } : { kind: 'foreign', name, specifier };
  for (const exp of fileIndex(target).exports) {
    const spec = specifierOf(exp.moduleSpecifier);
    if (spec === undefined) continue;
    const named = namedExports(exp, target);
    if (named.length === 0) {
      const through = reexported(target, spec, name, depth + 1); // `export * from`
      if (through.kind === 'marker' || through.kind === 'own') return through;
      continue;
    }
    for (const n of named) if (n.alias === name) return reexported(target, spec, n.name, depth + 1);
  }
  return declares(target, name) ? { kind: 'own', name, file: target } : { kind: 'undeclared', name };
}
