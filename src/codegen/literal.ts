/**
 * Evaluates the literal expressions allowed as marker arguments (strings, numbers, booleans,
 * null, arrays, objects, `as const`, negative numbers; consts with such a value, their properties
 * and enum members, declared in the same file or imported from a project file, plain or through
 * a namespace import: `@Default(Policy.Allow)`, `@Maximum(limits.replicas)`) into JSON values. Anything else is a `LiteralError`: markers are read
 * without running the code, so their arguments must be visible in the source.
 */
import type { EnumDeclaration, SourceFile } from 'ts-morph';
import { Node, SyntaxKind } from './reader/tsmorph.js';
import type { JSONValue } from '../manifests/jsonschema.js';
import { exportSite, importOf, moduleFile } from './reader/exports.js';

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
  if (Node.isIdentifier(expr) || Node.isPropertyAccessExpression(expr)) {
    const entity = resolveEntity(expr, seen);
    if (entity?.kind === 'value') return entity.value;
    if (entity?.kind === 'enum') throw new LiteralError(expr.getStartLineNumber(), `'${expr.getText()}' is a whole enum; name one member (${expr.getText()}.Member)`);
  }
  throw new LiteralError(
    expr.getStartLineNumber(),
    `'${expr.getText()}' is not a literal; marker arguments must be literals, consts declared with a literal, or enum members, in the API files or imported from them`,
  );
}

type Entity = { kind: 'value'; value: JSONValue } | { kind: 'enum'; decl: EnumDeclaration } | { kind: 'namespace'; file: SourceFile; specifier: string };

/** What a name (`X`, `ns.X`, `Enum.Member`, `Consts.key`) stands for: a literal value, an enum, or an imported namespace. */
function resolveEntity(expr: Node, seen: ReadonlySet<string>): Entity | undefined {
  if (Node.isIdentifier(expr)) return named(expr.getSourceFile(), expr.getText(), seen);
  if (!Node.isPropertyAccessExpression(expr)) return undefined;
  const member = expr.getName();
  const left = resolveEntity(expr.getExpression(), seen);
  if (left?.kind === 'namespace') {
    const site = exportSite(left.file, left.specifier, member);
    return site ? named(site.file, site.name, seen) : undefined;
  }
  if (left?.kind === 'enum') {
    const m = left.decl.getMember(member);
    const v = m?.getValue(); // ts-morph computes auto-incremented numeric members
    if (v === undefined) throw new LiteralError(expr.getStartLineNumber(), `'${expr.getText()}' is not a member with a constant value of enum ${left.decl.getName()}`);
    return { kind: 'value', value: v };
  }
  if (left?.kind === 'value' && typeof left.value === 'object' && left.value !== null && !Array.isArray(left.value) && Object.hasOwn(left.value, member)) {
    return { kind: 'value', value: left.value[member] as JSONValue };
  }
  return undefined;
}

/** A name as declared in `file` (a top-level const or enum), else followed through its imports. */
function named(file: SourceFile, name: string, seen: ReadonlySet<string>): Entity | undefined {
  const key = `${file.getFilePath()}#${name}`;
  if (seen.has(key)) return undefined;
  const decl = file.getVariableDeclaration(name);
  const list = decl?.getVariableStatement();
  const init = decl?.getInitializer();
  if (decl && list?.getDeclarationKind() === 'const' && init) return { kind: 'value', value: literalValue(init, new Set([...seen, key])) };
  const e = file.getEnum(name);
  if (e) return { kind: 'enum', decl: e };
  const imp = importOf(file, name);
  if (!imp) return undefined;
  if (imp.name === undefined) return moduleFile(file, imp.specifier) ? { kind: 'namespace', file, specifier: imp.specifier } : undefined;
  const site = exportSite(file, imp.specifier, imp.name);
  return site ? named(site.file, site.name, new Set([...seen, key])) : undefined;
}
