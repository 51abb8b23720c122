/**
 * The generic collector: finds the decorators on a declaration and parses their arguments as
 * literals. It knows nothing about CRDs or which markers exist — the marker catalog decides what
 * a name means. A decorator's name is the one it is exported under, found through the file's
 * imports (`import { Minimum as Min }` → `Minimum`, `import * as m` then `@m.Minimum` →
 * `Minimum`), so renaming an import never hides a marker.
 */
import type { Decorator, SourceFile } from 'ts-morph';
import { Node } from './reader/tsmorph.js';
import type { Diagnostic, MarkerUse } from './model.js';
import { LiteralError, literalValue } from './literal.js';
import { moduleFile } from './reader/exports.js';

export function collectMarkers(node: Node, file: string, diagnostics: Diagnostic[]): MarkerUse[] {
  if (!Node.isDecoratable(node)) return [];
  const out: MarkerUse[] = [];
  for (const dec of node.getDecorators()) {
    const expr = dec.getExpression();
    const line = dec.getStartLineNumber();
    const name = decoratorName(dec);
    try {
      const args = Node.isCallExpression(expr) ? expr.getArguments().map((a) => literalValue(a)) : [];
      out.push({ name, args, pos: { file, line } });
    } catch (error) {
      if (!(error instanceof LiteralError)) throw error;
      diagnostics.push({ pos: { file, line: error.line }, message: `@${name}: ${error.message}` });
    }
  }
  return out;
}

/** The marker name of `@Name(...)`, `@Name` or `@ns.Name(...)`, resolved through the file's imports. */
export function decoratorName(dec: Decorator): string {
  const expr = dec.getExpression();
  const callee = Node.isCallExpression(expr) ? expr.getExpression() : expr;
  const file = dec.getSourceFile();
  const imports = importsOf(file);
  if (Node.isPropertyAccessExpression(callee)) {
    const specifier = imports.namespaces.get(callee.getExpression().getText());
    return specifier === undefined ? callee.getName() : reexported(file, specifier, callee.getName(), 0);
  }
  const text = callee.getText();
  return imports.names.get(text) ?? text;
}

interface Imports {
  /** Local name → original exported name, for every renamed import. */
  names: Map<string, string>;
  /** Namespace (`import * as m`) → module specifier. */
  namespaces: Map<string, string>;
}

const cache = new WeakMap<SourceFile, Imports>(); // computed once per file

function importsOf(file: SourceFile): Imports {
  let found = cache.get(file);
  if (found) return found;
  found = { names: new Map(), namespaces: new Map() };
  for (const imp of file.getImportDeclarations()) {
    const specifier = imp.getModuleSpecifierValue();
    const ns = imp.getNamespaceImport();
    if (ns) found.namespaces.set(ns.getText(), specifier);
    for (const spec of imp.getNamedImports()) {
      const local = spec.getAliasNode()?.getText() ?? spec.getName();
      const original = reexported(file, specifier, spec.getName(), 0);
      if (original !== local) found.names.set(local, original);
    }
  }
  cache.set(file, found);
  return found;
}

/**
 * The name `name` has before a project file renamed it on re-export (`export { Minimum as Min }
 * from '…'`); unchanged when the module is not a project file the reader loaded.
 */
function reexported(from: SourceFile, specifier: string, name: string, depth: number): string {
  const target = depth > 8 ? undefined : moduleFile(from, specifier);
  if (!target) return name;
  for (const exp of target.getExportDeclarations()) {
    const spec = exp.getModuleSpecifierValue();
    if (spec === undefined) continue;
    for (const n of exp.getNamedExports()) {
      if ((n.getAliasNode()?.getText() ?? n.getName()) === name) return reexported(target, spec, n.getName(), depth + 1);
    }
  }
  return name;
}
