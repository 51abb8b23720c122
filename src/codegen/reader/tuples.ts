/**
 * Tuples (`[int32, int32, int32]`, Go's `[3]int32`): a CRD array has one item schema, so a tuple
 * whose elements all have one type is an array of it, and one that mixes types has no schema.
 * controller-gen writes a Go array without bounds because Go's decoder pads or cuts a fixed array
 * to its length; JavaScript keeps what the JSON holds, so the tuple's length becomes
 * minItems/maxItems and the code reading it gets the shape its type promises.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { TypeRef } from '../model.js';

export function tupleRef(node: TS.TupleTypeNode, text: string, read: (n: TS.TypeNode) => TypeRef): TypeRef {
  let required = 0;
  let open = false;
  const items: Array<{ ref: TypeRef; text: string }> = [];
  for (const raw of node.elements) {
    let el: TS.TypeNode = raw;
    let optional = false;
    let rest = false;
    if (ts.isNamedTupleMember(el)) {
      optional = el.questionToken !== undefined;
      rest = el.dotDotDotToken !== undefined;
      el = el.type;
    }
    if (ts.isOptionalTypeNode(el)) {
      optional = true;
      el = el.type;
    }
    if (ts.isRestTypeNode(el)) {
      rest = true;
      el = el.type;
    }
    if (rest) {
      // `...int32[]`: any number more of the element type.
      const spread = read(el);
      if (spread.kind !== 'array')
        return { kind: 'unsupported', text, reason: 'a rest element of a tuple must be an array type (...T[])' };
      open = true;
      items.push({ ref: spread.items, text: `...${text}` });
      continue;
    }
    if (!optional) required++;
    items.push({ ref: read(el), text: '' });
  }
  const first = items[0];
  if (!first) return { kind: 'unsupported', text, reason: 'an empty tuple has no schema' };
  const failed = items.find((i) => i.ref.kind === 'unsupported');
  if (failed) return failed.ref;
  const key = sameness(first.ref);
  if (items.some((i) => sameness(i.ref) !== key))
    return {
      kind: 'unsupported',
      text,
      reason:
        'a tuple whose elements have different types has no schema (a CRD array has one item type); use a class with a named field for each element, or give every element one type',
    };
  const ref: TypeRef = { kind: 'array', items: first.ref, minItems: required };
  if (!open) ref.maxItems = items.length;
  return ref;
}

/** Two element types are the same when their schemas would be: same shape, same alias markers and doc. */
function sameness(ref: TypeRef): string {
  return JSON.stringify(ref, (k, v: unknown) => (k === 'pos' ? undefined : v));
}
