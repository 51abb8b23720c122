/**
 * Evaluates the literal expressions allowed as marker arguments (strings, numbers, booleans,
 * null, arrays, objects, `as const`, negative numbers; consts with such a value, their properties
 * and enum members, declared in the same file or imported from a project file, plain or through
 * a namespace import: `@Default(Policy.Allow)`, `@Maximum(limits.replicas)`) into JSON values. Anything else is a `LiteralError`: markers are read
 * without running the code, so their arguments must be visible in the source.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './reader/typescript.js';
import type { JSONValue } from './jsonschema.js';
import { exportSite, importOf, moduleFile } from './reader/exports.js';
import { enumValues } from './reader/enums.js';
import { declarationList, fileIndex, fileOf, lineOf, nameOf, numericValue } from './reader/syntax.js';

export class LiteralError extends Error {
  override readonly name = 'LiteralError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The value of `expr`, an expression in `sf`. `scope` is the file whose names it may use, when
 * that is not `sf` (an argument written in a JSDoc tag, parsed on its own).
 */
export function literalValue(
  expr: TS.Node,
  sf: TS.SourceFile,
  seen: ReadonlySet<string> = new Set(),
  scope: TS.SourceFile = sf,
): JSONValue {
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (ts.isNumericLiteral(expr)) return numericValue(expr);
  if (expr.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expr.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (expr.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) {
    return literalValue(expr.expression, sf, seen, scope);
  }
  if (ts.isPrefixUnaryExpression(expr) && expr.operator === ts.SyntaxKind.MinusToken) {
    const v = literalValue(expr.operand, sf, seen, scope);
    if (typeof v === 'number') return -v;
  }
  if (ts.isArrayLiteralExpression(expr)) return expr.elements.map((e) => literalValue(e, sf, seen, scope));
  if (ts.isObjectLiteralExpression(expr)) {
    const out: { [key: string]: JSONValue } = {};
    for (const prop of expr.properties) {
      if (ts.isPropertyAssignment(prop)) {
        const nameNode = prop.name;
        const key = ts.isStringLiteral(nameNode)
          ? nameNode.text
          : ts.isNumericLiteral(nameNode)
            ? String(numericValue(nameNode))
            : nameOf(nameNode, sf);
        out[key] = literalValue(prop.initializer, sf, seen, scope);
      } else if (ts.isShorthandPropertyAssignment(prop)) {
        out[nameOf(prop.name, sf)] = literalValue(prop.name, sf, seen, scope);
      } else {
        throw new LiteralError(lineOf(prop, sf), `'${prop.getText(sf)}' is not a literal property`);
      }
    }
    return out;
  }
  if (ts.isIdentifier(expr) || ts.isPropertyAccessExpression(expr)) {
    const entity = resolveEntity(expr, sf, seen, scope);
    if (entity?.kind === 'value') return entity.value;
    if (entity?.kind === 'enum')
      throw new LiteralError(
        lineOf(expr, sf),
        `'${expr.getText(sf)}' is a whole enum; name one member (${expr.getText(sf)}.Member)`,
      );
  }
  throw new LiteralError(
    lineOf(expr, sf),
    `'${expr.getText(sf)}' is not a literal; marker arguments must be literals, consts declared with a literal, or enum members, in the API files or imported from them`,
  );
}

type Entity =
  | { kind: 'value'; value: JSONValue }
  | { kind: 'enum'; decl: TS.EnumDeclaration }
  | { kind: 'namespace'; file: TS.SourceFile; specifier: string };

/** What a name (`X`, `ns.X`, `Enum.Member`, `Consts.key`) stands for: a literal value, an enum, or an imported namespace. */
function resolveEntity(
  expr: TS.Node,
  sf: TS.SourceFile,
  seen: ReadonlySet<string>,
  scope: TS.SourceFile,
): Entity | undefined {
  if (ts.isIdentifier(expr)) return named(scope, expr.text, seen);
  if (!ts.isPropertyAccessExpression(expr)) return undefined;
  const member = nameOf(expr.name, sf);
  const left = resolveEntity(expr.expression, sf, seen, scope);
  if (left?.kind === 'namespace') {
    const site = exportSite(left.file, left.specifier, member);
    return site ? named(site.file, site.name, seen) : undefined;
  }
  if (left?.kind === 'enum') {
    const enumFile = fileOf(left.decl);
    const i = left.decl.members.findIndex((m) => nameOf(m.name, enumFile) === member);
    const v = i < 0 ? undefined : enumValues(left.decl)[i]; // auto-incremented numeric members too
    if (v === undefined)
      throw new LiteralError(
        lineOf(expr, sf),
        `'${expr.getText(sf)}' is not a member with a constant value of enum ${left.decl.name.text}`,
      );
    return { kind: 'value', value: v };
  }
  if (
    left?.kind === 'value' &&
    typeof left.value === 'object' &&
    left.value !== null &&
    !Array.isArray(left.value) &&
    Object.hasOwn(left.value, member)
  ) {
    return { kind: 'value', value: left.value[member] as JSONValue };
  }
  return undefined;
}

/** A name as declared in `file` (a top-level const or enum), else followed through its imports. */
function named(file: TS.SourceFile, name: string, seen: ReadonlySet<string>): Entity | undefined {
  const key = `${file.fileName}#${name}`;
  if (seen.has(key)) return undefined;
  const index = fileIndex(file);
  const decl = index.variables.get(name);
  const init = decl?.initializer;
  const list = decl && declarationList(decl);
  if (decl && list && isConst(list) && init)
    return { kind: 'value', value: literalValue(init, file, new Set([...seen, key])) };
  const e = index.enums.get(name);
  if (e) return { kind: 'enum', decl: e };
  const imp = importOf(file, name);
  if (!imp) return undefined;
  if (imp.name === undefined)
    return moduleFile(file, imp.specifier) ? { kind: 'namespace', file, specifier: imp.specifier } : undefined;
  const site = exportSite(file, imp.specifier, imp.name);
  return site ? named(site.file, site.name, new Set([...seen, key])) : undefined;
}

/** ts-morph's getDeclarationKind() === 'const': `const`, not `let`, `var`, `using`. */
function isConst(list: TS.VariableDeclarationList): boolean {
  const flags = list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing);
  return flags === ts.NodeFlags.Const;
}
