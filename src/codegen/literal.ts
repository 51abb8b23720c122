/**
 * Evaluates the literal expressions allowed as marker arguments (strings, numbers, booleans,
 * null, arrays, objects, `as const`, negative numbers, and identifiers naming a `const` with such
 * a value in the same file) into JSON values. Anything else is a `LiteralError`: markers are read
 * without running the code, so their arguments must be visible in the source.
 */
import type { Expression } from 'ts-morph';
import { Node, SyntaxKind } from './reader/tsmorph.js';
import type { JSONValue } from '../manifests/jsonschema.js';

export class LiteralError extends Error {
  override readonly name = 'LiteralError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export function literalValue(expr: Node, seen: ReadonlySet<string> = new Set()): JSONValue {
  if (Node.isStringLiteral(expr) || Node.isNoSubstitutionTemplateLiteral(expr)) return expr.getLiteralValue();
  if (Node.isNumericLiteral(expr)) return expr.getLiteralValue();
  if (expr.getKind() === SyntaxKind.TrueKeyword) return true;
  if (expr.getKind() === SyntaxKind.FalseKeyword) return false;
  if (expr.getKind() === SyntaxKind.NullKeyword) return null;
  if (Node.isParenthesizedExpression(expr) || Node.isAsExpression(expr) || Node.isSatisfiesExpression(expr)) {
    return literalValue(expr.getExpression(), seen);
  }
  if (Node.isPrefixUnaryExpression(expr) && expr.getOperatorToken() === SyntaxKind.MinusToken) {
    const v = literalValue(expr.getOperand(), seen);
    if (typeof v === 'number') return -v;
  }
  if (Node.isArrayLiteralExpression(expr)) return expr.getElements().map((e) => literalValue(e, seen));
  if (Node.isObjectLiteralExpression(expr)) {
    const out: { [key: string]: JSONValue } = {};
    for (const prop of expr.getProperties()) {
      if (Node.isPropertyAssignment(prop)) {
        const nameNode = prop.getNameNode();
        const key = Node.isStringLiteral(nameNode) || Node.isNumericLiteral(nameNode) ? String(nameNode.getLiteralValue()) : nameNode.getText();
        out[key] = literalValue(prop.getInitializerOrThrow(), seen);
      } else if (Node.isShorthandPropertyAssignment(prop)) {
        out[prop.getName()] = literalValue(prop.getNameNode(), seen);
      } else {
        throw new LiteralError(prop.getStartLineNumber(), `'${prop.getText()}' is not a literal property`);
      }
    }
    return out;
  }
  if (Node.isIdentifier(expr) && !seen.has(expr.getText())) {
    const init = constInitializer(expr);
    if (init) return literalValue(init, new Set([...seen, expr.getText()]));
  }
  throw new LiteralError(
    expr.getStartLineNumber(),
    `'${expr.getText()}' is not a literal; marker arguments must be literals or consts declared with a literal in the same file`,
  );
}

/** The initializer of `const name = ...` declared at the top level of the identifier's file. */
function constInitializer(id: Node): Expression | undefined {
  const decl = id.getSourceFile().getVariableDeclaration(id.getText());
  if (!decl) return undefined;
  const list = decl.getVariableStatement();
  if (!list || list.getDeclarationKind() !== 'const') return undefined;
  return decl.getInitializer();
}
