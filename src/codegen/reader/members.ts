/**
 * What a class or interface declares, read from its syntax: the types it extends, the members that
 * may be fields (parameter properties included) and its `toJSON()` method.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import { hasModifier, nameOf, rawTextOf } from './syntax.js';

type SourceFile = TS.SourceFile;
type TypeNode = TS.TypeNode;
type ClassOrInterface = TS.ClassDeclaration | TS.InterfaceDeclaration;

/** The types a class (one) or an interface (any number) extends, as written. */
export function heritage(
  decl: ClassOrInterface,
  sf: SourceFile,
): Array<{ name: string; qualifier?: string; text: string; args: readonly TypeNode[] }> {
  const clause = decl.heritageClauses?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword);
  const types = clause?.types ?? [];
  // A class extends one base; an interface any number.
  const exprs = ts.isClassDeclaration(decl) ? types.slice(0, 1) : types;
  return exprs.map((e) => {
    const expr = e.expression;
    const args = e.typeArguments ?? [];
    if (ts.isPropertyAccessExpression(expr))
      return { name: nameOf(expr.name, sf), qualifier: rawTextOf(expr.expression, sf), text: rawTextOf(e, sf), args };
    return { name: nameOf(expr, sf), text: rawTextOf(e, sf), args };
  });
}

/** The members that may declare fields, each with the constructor it is a parameter of (parameter properties). */
export function membersOf(decl: ClassOrInterface): Array<[TS.Node, TS.ConstructorDeclaration | undefined]> {
  const out: Array<[TS.Node, TS.ConstructorDeclaration | undefined]> = [];
  // `constructor(public replicas: int32)` declares a field too.
  if (ts.isClassDeclaration(decl) && hasParameterProperties(decl))
    for (const ctor of constructorsOf(decl))
      out.unshift(
        ...ctor.parameters.filter(isParameterProperty).map((p): [TS.Node, TS.ConstructorDeclaration] => [p, ctor]),
      );
  for (const m of decl.members) out.push([m, undefined]);
  return out;
}

/** An instance `toJSON()` method (or method signature). */
export function isToJson(m: TS.Node): m is TS.MethodDeclaration | TS.MethodSignature {
  return (
    (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) &&
    ts.isIdentifier(m.name) &&
    m.name.text === 'toJSON' &&
    !hasModifier(m, ts.SyntaxKind.StaticKeyword)
  );
}

/** A cheap look before collecting constructors: most API classes have none. */
function hasParameterProperties(decl: TS.ClassDeclaration): boolean {
  return decl.members.some(
    (m) => ts.isConstructorDeclaration(m) && m.parameters.some((p) => (p.modifiers?.length ?? 0) > 0),
  );
}

/** The constructors whose parameters declare fields: the implementation (every one in a `declare class`), as ts-morph listed them. */
function constructorsOf(decl: TS.ClassDeclaration): TS.ConstructorDeclaration[] {
  const ambient = hasModifier(decl, ts.SyntaxKind.DeclareKeyword);
  return decl.members.filter(
    (m): m is TS.ConstructorDeclaration => ts.isConstructorDeclaration(m) && (ambient || m.body !== undefined),
  );
}

/** `public x`, `private x`, `protected x`, `readonly x` or `override x` in a constructor's parameters. */
function isParameterProperty(p: TS.ParameterDeclaration): boolean {
  return [
    ts.SyntaxKind.PublicKeyword,
    ts.SyntaxKind.PrivateKeyword,
    ts.SyntaxKind.ProtectedKeyword,
    ts.SyntaxKind.ReadonlyKeyword,
    ts.SyntaxKind.OverrideKeyword,
  ].some((k) => hasModifier(p, k));
}
