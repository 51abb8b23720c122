/**
 * The generic collector: finds the decorators on a declaration and parses their arguments as
 * literals. It knows nothing about CRDs or which markers exist — the marker catalog decides what
 * a name means.
 */
import { Node } from './reader/tsmorph.js';
import type { Diagnostic, MarkerUse } from './model.js';
import { LiteralError, literalValue } from './literal.js';

export function collectMarkers(node: Node, file: string, diagnostics: Diagnostic[]): MarkerUse[] {
  if (!Node.isDecoratable(node)) return [];
  const out: MarkerUse[] = [];
  for (const dec of node.getDecorators()) {
    const expr = dec.getExpression();
    const line = dec.getStartLineNumber();
    // `@Name(...)`, `@Name` or `@ns.Name(...)`: the marker name is the last identifier.
    const callee = Node.isCallExpression(expr) ? expr.getExpression() : expr;
    const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
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
