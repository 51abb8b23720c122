/**
 * Branded scalars (`string & { readonly __brand: 'URL' }`, Go's `type URL string`): the brand
 * exists for the type checker only and JSON holds the scalar, so the reader reads the scalar.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { TypeRef } from '../model.js';

type TypeNode = TS.TypeNode;

/**
 * `{ readonly __brand: 'URL' }`, `{ [brand]: unique symbol }`: an object type whose every member
 * is a tag (a literal, unique symbol or never type, or a computed name), not data.
 */
export function isBrand(node: TypeNode): boolean {
  return (
    ts.isTypeLiteralNode(node) &&
    node.members.length > 0 &&
    node.members.every(
      (m) =>
        ts.isPropertySignature(m) &&
        (ts.isComputedPropertyName(m.name) ||
          (m.type !== undefined &&
            (ts.isLiteralTypeNode(m.type) ||
              m.type.kind === ts.SyntaxKind.NeverKeyword ||
              (ts.isTypeOperatorNode(m.type) && m.type.operator === ts.SyntaxKind.UniqueKeyword)))),
    )
  );
}

/** A type JSON holds as one value (a string, number or boolean, a known scalar, an enum). */
export const isScalar = (r: TypeRef): boolean => r.kind === 'primitive' || r.kind === 'known' || r.kind === 'enum';
