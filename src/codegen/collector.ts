/**
 * The generic collector: finds the decorators on a declaration and parses their arguments as
 * literals. It knows nothing about CRDs or which markers exist — the marker catalog decides what
 * a name means. A decorator's name is the one it is exported under, found through the file's
 * imports (`import { Minimum as Min }` → `Minimum`, `import * as m` then `@m.Minimum` →
 * `Minimum`), so renaming an import never hides a marker. A decorator imported from tsop's
 * markers module is flagged as such, so one the catalog does not know can be reported.
 */
import type { Decorator, SourceFile } from 'ts-morph';
import { Node, ts } from './reader/tsmorph.js';
import type { Diagnostic, MarkerUse } from './model.js';
import { LiteralError, literalValue } from './literal.js';
import { moduleFile } from './reader/exports.js';

export function collectMarkers(node: Node, file: string, diagnostics: Diagnostic[]): MarkerUse[] {
  if (!Node.isDecoratable(node)) return [];
  const out: MarkerUse[] = [];
  for (const dec of node.getDecorators()) {
    const expr = dec.getExpression();
    const line = dec.getStartLineNumber();
    const { name, fromMarkers } = resolveDecorator(dec);
    try {
      const args = Node.isCallExpression(expr) ? expr.getArguments().map((a) => literalValue(a)) : [];
      out.push(fromMarkers ? { name, args, pos: { file, line }, fromMarkers } : { name, args, pos: { file, line } });
    } catch (error) {
      if (!(error instanceof LiteralError)) throw error;
      diagnostics.push({ pos: { file, line: error.line }, message: `@${name}: ${error.message}` });
    }
  }
  return out;
}

/** The marker name of `@Name(...)`, `@Name` or `@ns.Name(...)`, resolved through the file's imports. */
export function decoratorName(dec: Decorator): string {
  return resolveDecorator(dec).name;
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

function resolveDecorator(dec: Decorator): ResolvedDecorator {
  const expr = dec.getExpression();
  const callee = Node.isCallExpression(expr) ? expr.getExpression() : expr;
  const isAccess = Node.isPropertyAccessExpression(callee);
  const key = isAccess ? `${callee.getExpression().getText()}.${callee.getName()}` : callee.getText();
  const imports = importsOf(dec.getSourceFile());
  let found = imports.resolved.get(key);
  if (found === undefined) {
    // Resolved once per file and name, and only for names used as decorators: re-exports are
    // followed only here, so files with many plain type imports cost nothing extra.
    const from = isAccess ? { specifier: imports.namespaces.get(callee.getExpression().getText()), name: callee.getName() } : imports.named.get(key);
    const fallback = isAccess ? callee.getName() : key;
    found = from?.specifier === undefined ? { name: fallback, fromMarkers: false } : reexported(dec.getSourceFile(), from.specifier, from.name, 0);
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

const cache = new WeakMap<SourceFile, Imports>(); // computed once per file

function importsOf(file: SourceFile): Imports {
  let found = cache.get(file);
  if (found) return found;
  found = { named: new Map(), namespaces: new Map(), resolved: new Map() };
  // Raw compiler nodes: this runs for every file with a decorator, and wrapping each import
  // specifier in a ts-morph node would cost more than the rest of the lookup.
  for (const st of file.compilerNode.statements) {
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
function reexported(from: SourceFile, specifier: string, name: string, depth: number): ResolvedDecorator {
  const target = depth > 8 ? undefined : moduleFile(from, specifier);
  if (!target) return { name, fromMarkers: MARKERS_MODULE.test(specifier) };
  for (const exp of target.getExportDeclarations()) {
    const spec = exp.getModuleSpecifierValue();
    if (spec === undefined) continue;
    for (const n of exp.getNamedExports()) {
      if ((n.getAliasNode()?.getText() ?? n.getName()) === name) return reexported(target, spec, n.getName(), depth + 1);
    }
  }
  return { name, fromMarkers: false };
}
