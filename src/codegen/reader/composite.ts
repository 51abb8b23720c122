/**
 * A decorator of the user's own that applies tsop's markers, read through to them without running
 * it. The forms read are those a TypeScript user writes to bundle markers:
 *
 *   export const PortNumber = (): FieldMarker => (v, c) => { Minimum(1)(v, c); Maximum(65535)(v, c); };
 *   export function Bounded(min: number, max: number): FieldMarker { return (v, c) => { Minimum(min)(v, c); Maximum(max)(v, c); }; }
 *   export const Named: FieldMarker = (v, c) => Pattern('^[a-z]+$')(v, c);   // used as @Named
 *   export const Positive = Minimum(1);                                      // used as @Positive
 *   export const Min = Minimum;                                              // a renamed marker
 *
 * The parameters of a factory take the literal arguments of the decorator call; composites may call
 * composites. A body that uses markers in any other way (a loop, a condition, a marker not applied)
 * cannot be read, and says so; a body that uses none is a decorator that does not touch the schema.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { JSONValue } from '../jsonschema.js';
import { LiteralError, literalValue } from '../literal.js';
import { fileIndex, nameOf } from './syntax.js';

export type CompositeRead =
  | { kind: 'uses'; uses: Array<{ name: string; args: JSONValue[] }> }
  | { kind: 'error'; reason: string };

/** Where the function a decorator calls comes from (collector.ts finds it; a composite's body is read through its calls). */
export type DecoratorOrigin =
  | { kind: 'marker'; name: string }
  | { kind: 'undeclared'; name: string }
  | { kind: 'foreign'; name: string; specifier: string }
  /** Declared in the project: `name` in `file`. */
  | { kind: 'own'; name: string; file: TS.SourceFile };

/** Where a called function comes from (collector.ts's calleeOrigin). */
export type OriginOf = (callee: TS.Expression, sf: TS.SourceFile) => DecoratorOrigin;

type FunctionLike = TS.ArrowFunction | TS.FunctionExpression | TS.FunctionDeclaration;
type Env = ReadonlyMap<string, JSONValue | undefined>;

class Unreadable extends Error {}

/**
 * The markers `name` (declared in `file`) applies; `args` are the decorator call's arguments
 * (undefined for `@Name` without a call).
 */
export function compositeMarkers(
  name: string,
  file: TS.SourceFile,
  args: JSONValue[] | undefined,
  originOf: OriginOf,
  depth = 0,
): CompositeRead {
  try {
    return { kind: 'uses', uses: readThrough(name, file, args, originOf, depth) };
  } catch (error) {
    if (error instanceof Unreadable) return { kind: 'error', reason: error.message };
    if (error instanceof LiteralError) return { kind: 'error', reason: error.message };
    throw error;
  }
}

function readThrough(
  name: string,
  file: TS.SourceFile,
  args: JSONValue[] | undefined,
  originOf: OriginOf,
  depth: number,
): Array<{ name: string; args: JSONValue[] }> {
  if (depth > 8) throw new Unreadable('it calls itself, or composites nest too deep');
  const decl = declarationOf(file, name);
  if (!decl) return [];
  const reader = new BodyReader(file, originOf, depth);
  if (ts.isFunctionDeclaration(decl)) return reader.decorator(decl, args);
  const init = unwrap(decl);
  if (init === undefined) return [];
  if (ts.isIdentifier(init) || ts.isPropertyAccessExpression(init)) return reader.applied(init, args ?? []); // a renamed marker or composite
  if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return reader.decorator(init, args);
  if (ts.isCallExpression(init) && args === undefined)
    return reader.applied(
      init.expression,
      init.arguments.map((a) => reader.value(a, new Map())),
    );
  if (reader.usesMarkers(init)) throw new Unreadable(`'${name}' is not a function whose body calls markers`);
  return [];
}

function declarationOf(file: TS.SourceFile, name: string): TS.VariableDeclaration | TS.FunctionDeclaration | undefined {
  return (
    fileIndex(file).variables.get(name) ??
    file.statements.find((st): st is TS.FunctionDeclaration => ts.isFunctionDeclaration(st) && st.name?.text === name)
  );
}

function unwrap(decl: TS.VariableDeclaration): TS.Expression | undefined {
  let e = decl.initializer;
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)))
    e = e.expression;
  return e;
}

class BodyReader {
  constructor(
    private readonly file: TS.SourceFile,
    private readonly originOf: OriginOf,
    private readonly depth: number,
  ) {}

  /** A decorator function: a factory when called with arguments (its parameters bound to them), else the decorator itself. */
  decorator(fn: FunctionLike, args: JSONValue[] | undefined): Array<{ name: string; args: JSONValue[] }> {
    if (args === undefined) return this.body(fn, new Map());
    const env = new Map<string, JSONValue | undefined>();
    fn.parameters.forEach((p, i) => {
      if (!ts.isIdentifier(p.name)) return;
      const given = args[i];
      env.set(
        p.name.text,
        given !== undefined ? given : p.initializer ? literalValue(p.initializer, this.file) : undefined,
      );
    });
    const inner = returnedFunction(fn);
    if (!inner) {
      if (this.usesMarkers(fn))
        throw new Unreadable('it is called with arguments but does not return a decorator function');
      return [];
    }
    return this.body(inner, env);
  }

  /** The markers a decorator function's body applies, statement by statement. */
  private body(fn: FunctionLike, env: Env): Array<{ name: string; args: JSONValue[] }> {
    const body = fn.body;
    if (!body) return [];
    const statements: readonly TS.Node[] = ts.isBlock(body) ? body.statements : [body];
    const out: Array<{ name: string; args: JSONValue[] }> = [];
    for (const st of statements) {
      const expr = ts.isExpressionStatement(st)
        ? st.expression
        : ts.isReturnStatement(st)
          ? st.expression
          : st === body
            ? (body as TS.Expression)
            : undefined;
      // `Marker(args)(value, context)`: the marker, applied.
      if (expr && ts.isCallExpression(expr) && ts.isCallExpression(expr.expression)) {
        const call = expr.expression;
        const origin = this.originOf(call.expression, this.file);
        if (origin.kind === 'marker' || origin.kind === 'own') {
          out.push(
            ...this.applied(
              call.expression,
              call.arguments.map((a) => this.value(a, env)),
            ),
          );
          continue;
        }
      }
      if (this.usesMarkers(st))
        throw new Unreadable(
          'it uses markers other than by calling each one and applying it, as in Minimum(1)(value, context)',
        );
    }
    return out;
  }

  /** `callee(args)` where callee is a marker or another composite. */
  applied(callee: TS.Expression, args: JSONValue[]): Array<{ name: string; args: JSONValue[] }> {
    const origin = this.originOf(callee, this.file);
    if (origin.kind === 'marker') return [{ name: origin.name, args }];
    if (origin.kind === 'own') return readThrough(origin.name, origin.file, args, this.originOf, this.depth + 1);
    throw new Unreadable(`'${nameOf(callee, this.file)}' is not a tsop marker`);
  }

  /** An argument: a parameter of the factory, or a literal (arrays and objects may hold parameters). */
  value(expr: TS.Expression, env: Env): JSONValue {
    if (ts.isIdentifier(expr) && env.has(expr.text)) {
      const v = env.get(expr.text);
      if (v === undefined) throw new Unreadable(`parameter '${expr.text}' has no value where the decorator is used`);
      return v;
    }
    if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return this.value(expr.expression, env);
    if (ts.isArrayLiteralExpression(expr)) return expr.elements.map((e) => this.value(e, env));
    if (
      ts.isObjectLiteralExpression(expr) &&
      expr.properties.every((p) => ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p))
    ) {
      const out: { [key: string]: JSONValue } = {};
      for (const p of expr.properties) {
        const key = ts.isStringLiteral(p.name) ? p.name.text : nameOf(p.name, this.file);
        out[key] = ts.isPropertyAssignment(p) ? this.value(p.initializer, env) : this.value(p.name, env);
      }
      return out;
    }
    return literalValue(expr, this.file);
  }

  /** Whether `node` calls a marker or a composite anywhere in it. */
  usesMarkers(node: TS.Node): boolean {
    let found = false;
    const visit = (n: TS.Node): void => {
      if (found || ts.isTypeNode(n)) return; // types (FieldMarker, …) use nothing
      if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) {
        const o = this.originOf(n, this.file);
        if (o.kind === 'marker') found = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return found;
  }
}

/** The decorator function a factory returns: its concise body, or its one `return`. */
function returnedFunction(fn: FunctionLike): FunctionLike | undefined {
  const body = fn.body;
  const fnOf = (e: TS.Expression | undefined): FunctionLike | undefined => {
    while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)))
      e = e.expression;
    return e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) ? e : undefined;
  };
  if (!body) return undefined;
  if (!ts.isBlock(body)) return fnOf(body);
  const returns = body.statements.filter(ts.isReturnStatement);
  return returns.length === 1 ? fnOf(returns[0]?.expression) : undefined;
}
