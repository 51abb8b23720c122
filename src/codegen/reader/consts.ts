/**
 * Enums from literal types (`'A' | 'B'`, `enumOf`) and from constants, the way Go declares an
 * enum (`const PhasePending Phase = "Pending"`): `typeof PhasePending | typeof PhaseRunning` is
 * the union of those consts' literal values, and `(typeof Phase)[keyof typeof Phase]` the union of
 * the values of a const object. Read from the consts' initializers (literal.ts), never by
 * type-checking.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { TypeRef } from '../model.js';
import type { JSONValue } from '../jsonschema.js';
import { LiteralError, literalValue } from '../literal.js';
import { rawTextOf } from './syntax.js';

type SourceFile = TS.SourceFile;

/** `typeof X` (one value) or `(typeof O)[keyof typeof O]` (the values of O) as an enum. */
export function constValues(node: TS.TypeQueryNode | TS.IndexedAccessTypeNode, file: SourceFile): TypeRef {
  const text = rawTextOf(node, file);
  const unsupported = (reason: string): TypeRef => ({ kind: 'unsupported', text, reason });
  if (ts.isTypeQueryNode(node)) {
    const v = typeofScalar(node, file);
    return v === undefined
      ? unsupported(
          'typeof names a const with a string, number or boolean literal value here; use a literal type or a union of them',
        )
      : enumOf([v]);
  }
  const object = unparenthesized(node.objectType);
  const index = unparenthesized(node.indexType);
  const keyOf =
    ts.isTypeOperatorNode(index) && index.operator === ts.SyntaxKind.KeyOfKeyword
      ? unparenthesized(index.type)
      : undefined;
  if (
    !ts.isTypeQueryNode(object) ||
    !keyOf ||
    !ts.isTypeQueryNode(keyOf) ||
    rawTextOf(object.exprName, file) !== rawTextOf(keyOf.exprName, file)
  ) {
    return unsupported(
      'indexed access types are supported only as (typeof O)[keyof typeof O], the values of a const object O',
    );
  }
  const value = typeofValue(object.exprName, file);
  const values =
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : undefined;
  if (
    !values ||
    values.length === 0 ||
    !values.every(
      (v): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
    )
  ) {
    return unsupported(
      `${rawTextOf(object.exprName, file)} must be a const object whose values are string, number or boolean literals`,
    );
  }
  return enumOf(values);
}

/** The literal value of the const `typeof X` names, when it is a string, number or boolean. */
export function typeofScalar(node: TS.TypeQueryNode, file: SourceFile): string | number | boolean | undefined {
  const v = typeofValue(node.exprName, file);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/** The value of the const `typeof` names (`X` or `X.key`), if it has a literal one. */
function typeofValue(name: TS.EntityName, file: SourceFile): JSONValue | undefined {
  if (ts.isIdentifier(name)) {
    try {
      return literalValue(name, file);
    } catch (error) {
      if (error instanceof LiteralError) return undefined;
      throw error;
    }
  }
  const left = typeofValue(name.left, file);
  return left !== null && typeof left === 'object' && !Array.isArray(left) && Object.hasOwn(left, name.right.text)
    ? left[name.right.text]
    : undefined;
}

function unparenthesized(node: TS.TypeNode): TS.TypeNode {
  return ts.isParenthesizedTypeNode(node) ? unparenthesized(node.type) : node;
}

/** The enum of literal values: all strings, all numbers or all booleans, each once. */
export function enumOf(values: Array<string | number | boolean>): TypeRef {
  const kinds = new Set(values.map((v) => typeof v));
  if (kinds.size !== 1)
    return { kind: 'unsupported', text: values.join(' | '), reason: 'enum values must all be strings or all numbers' };
  const type = typeof values[0] === 'string' ? 'string' : typeof values[0] === 'number' ? 'number' : 'boolean';
  return { kind: 'enum', type, values: [...new Set(values)] };
}
