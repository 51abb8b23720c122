/**
 * The constant value of each enum member, as TypeScript's checker computes it (what ts-morph's
 * EnumMember.getValue asked a type checker for): literals, `-`/`+`/`~`, arithmetic, bitwise and
 * string `+`, template strings, earlier members of the same enum, members of other enums
 * (`Other.A`, `Other['A']`) and consts declared with a literal — evaluated on the syntax, with no
 * checker. A member without an initializer is the previous one plus one (0 for the first); a
 * member whose value is not constant is undefined.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import { exportSite, importOf, moduleFile } from './exports.js';
import { declarationList, fileIndex, fileOf } from './syntax.js';

type Value = string | number | undefined;

const computed = new WeakMap<TS.EnumDeclaration, Value[]>();

/** Where an initializer is evaluated: the member or const it belongs to, its file, and a member's enum. */
interface Loc {
  node: TS.Node;
  sf: TS.SourceFile;
  owner?: TS.EnumDeclaration;
}

/** The values of `decl`'s members, in order (undefined where a member has no constant value). */
export function enumValues(decl: TS.EnumDeclaration): Value[] {
  let values = computed.get(decl);
  if (values) return values;
  values = [];
  computed.set(decl, values); // filled in order: a member sees the ones before it
  const sf = fileOf(decl);
  let auto: number | undefined = 0;
  for (const member of decl.members) {
    const v: Value = member.initializer ? evaluate(member.initializer, { node: member, sf, owner: decl }) : auto;
    values.push(v);
    auto = typeof v === 'number' ? v + 1 : undefined;
  }
  return values;
}

function memberName(m: TS.EnumMember, sf: TS.SourceFile): string {
  return ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isNumericLiteral(m.name)
    ? m.name.text
    : m.name.getText(sf);
}

/** How deep evaluation is: consts that refer to each other across files must not recurse forever. */
let depth = 0;

function evaluate(node: TS.Expression, location: Loc): Value {
  if (depth > 64) return undefined;
  depth++;
  try {
    let expr = node;
    while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
    return evaluateNode(expr, location);
  } finally {
    depth--;
  }
}

function evaluateNode(expr: TS.Expression, location: Loc): Value {
  if (ts.isPrefixUnaryExpression(expr)) {
    const v = evaluate(expr.operand, location);
    if (typeof v !== 'number') return undefined;
    if (expr.operator === ts.SyntaxKind.PlusToken) return v;
    if (expr.operator === ts.SyntaxKind.MinusToken) return -v;
    if (expr.operator === ts.SyntaxKind.TildeToken) return ~v;
    return undefined;
  }
  if (ts.isBinaryExpression(expr)) {
    const l = evaluate(expr.left, location);
    const r = evaluate(expr.right, location);
    const op = expr.operatorToken.kind;
    if (typeof l === 'number' && typeof r === 'number') return arithmetic(op, l, r);
    if (l !== undefined && r !== undefined && op === ts.SyntaxKind.PlusToken) return `${l}${r}`;
    return undefined;
  }
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (ts.isTemplateExpression(expr)) {
    let out = expr.head.text;
    for (const span of expr.templateSpans) {
      const v = evaluate(span.expression, location);
      if (v === undefined) return undefined;
      out += `${v}${span.literal.text}`;
    }
    return out;
  }
  if (ts.isNumericLiteral(expr)) return +expr.text;
  if (ts.isIdentifier(expr)) return identifierValue(expr, location);
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.name))
    return memberOf(expr.expression, expr.name.text, location);
  if (ts.isElementAccessExpression(expr) && ts.isStringLiteralLike(expr.argumentExpression))
    return memberOf(expr.expression, expr.argumentExpression.text, location, true);
  return undefined;
}

function arithmetic(op: TS.SyntaxKind, l: number, r: number): Value {
  switch (op) {
    case ts.SyntaxKind.BarToken:
      return l | r;
    case ts.SyntaxKind.AmpersandToken:
      return l & r;
    case ts.SyntaxKind.GreaterThanGreaterThanToken:
      return l >> r;
    case ts.SyntaxKind.GreaterThanGreaterThanGreaterThanToken:
      return l >>> r;
    case ts.SyntaxKind.LessThanLessThanToken:
      return l << r;
    case ts.SyntaxKind.CaretToken:
      return l ^ r;
    case ts.SyntaxKind.AsteriskToken:
      return l * r;
    case ts.SyntaxKind.SlashToken:
      return l / r;
    case ts.SyntaxKind.PlusToken:
      return l + r;
    case ts.SyntaxKind.MinusToken:
      return l - r;
    case ts.SyntaxKind.PercentToken:
      return l % r;
    case ts.SyntaxKind.AsteriskAsteriskToken:
      return l ** r;
    default:
      return undefined;
  }
}

/** What a name stands for where it is used: a member of the enclosing enum, or a top-level const or enum of the file (or imported into it). */
type Entity =
  | { kind: 'member'; decl: TS.EnumDeclaration; member: TS.EnumMember }
  | { kind: 'enum'; decl: TS.EnumDeclaration }
  | { kind: 'const'; decl: TS.VariableDeclaration }
  | { kind: 'namespace'; file: TS.SourceFile; specifier: string };

function lookup(name: string, location: Loc): Entity | undefined {
  const own = location.owner;
  const member = own?.members.find((m) => memberName(m, location.sf) === name);
  if (own && member) return { kind: 'member', decl: own, member };
  return topLevel(location.sf, name, 0);
}

function topLevel(file: TS.SourceFile, name: string, depth: number): Entity | undefined {
  const index = fileIndex(file);
  const e = index.enums.get(name);
  if (e) return { kind: 'enum', decl: e };
  const v = index.variables.get(name);
  if (v) return { kind: 'const', decl: v };
  const imp = depth > 8 ? undefined : importOf(file, name);
  if (!imp) return undefined;
  if (imp.name === undefined)
    return moduleFile(file, imp.specifier) ? { kind: 'namespace', file, specifier: imp.specifier } : undefined;
  const site = exportSite(file, imp.specifier, imp.name);
  return site ? topLevel(site.file, site.name, depth + 1) : undefined;
}

function identifierValue(id: TS.Identifier, location: Loc): Value {
  const entity = lookup(id.text, location);
  if (entity?.kind === 'member') return memberValue(entity.decl, entity.member, location);
  if (entity?.kind === 'const') return constValue(entity.decl, location);
  return undefined;
}

function memberOf(left: TS.Expression, name: string, location: Loc, elementAccess = false): Value {
  if (!ts.isIdentifier(left)) {
    // `ns.Enum.A`: a namespace import's enum.
    if (elementAccess || !ts.isPropertyAccessExpression(left) || !ts.isIdentifier(left.expression)) return undefined;
    const ns = lookup(left.expression.text, location);
    if (ns?.kind !== 'namespace') return undefined;
    const site = exportSite(ns.file, ns.specifier, left.name.text);
    const entity = site ? topLevel(site.file, site.name, 1) : undefined;
    return entity?.kind === 'enum' ? enumMember(entity.decl, name, location) : undefined;
  }
  const entity = lookup(left.text, location);
  if (entity?.kind === 'enum') return enumMember(entity.decl, name, location);
  if (entity?.kind === 'namespace' && !elementAccess) {
    const site = exportSite(entity.file, entity.specifier, name);
    const target = site ? topLevel(site.file, site.name, 1) : undefined;
    return target?.kind === 'const' ? constValue(target.decl, location) : undefined;
  }
  return undefined;
}

function enumMember(decl: TS.EnumDeclaration, name: string, location: Loc): Value {
  const file = fileOf(decl);
  const member = decl.members.find((m) => memberName(m, file) === name);
  return member ? memberValue(decl, member, location) : undefined;
}

/** A member used in an initializer: itself has no value yet, and one declared after the use in the same file counts as 0 (the checker reports it). */
function memberValue(decl: TS.EnumDeclaration, member: TS.EnumMember, location: Loc): Value {
  if (member === location.node) return undefined;
  if (fileOf(decl) === location.sf && member.pos > location.node.pos) return 0;
  return enumValues(decl)[decl.members.indexOf(member)];
}

/** A `const` with a literal initializer and no type annotation, declared before its use in the same file or in another file. */
function constValue(decl: TS.VariableDeclaration, location: Loc): Value {
  const list = declarationList(decl);
  if (!list || (list.flags & ts.NodeFlags.Const) === 0 || decl.type || !decl.initializer || decl === location.node)
    return undefined;
  const sf = fileOf(decl);
  if (sf === location.sf && decl.pos > location.node.pos) return undefined;
  return evaluate(decl.initializer, { node: decl, sf });
}
