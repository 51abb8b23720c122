/**
 * A kind's name is its class name, or the one name its file exports it under when the class is
 * not exported itself (`class ObjectObject {…} export { ObjectObject as Object }`): a class named
 * like a global its decorator code reads (Object, Symbol, TypeError) cannot be declared, so
 * tsop's templates declare it so, and the CRD must still be for the kind Object.
 */
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { crds, GROUP_VERSION, run } from './harness.js';

const kinds = (file: string): string[] =>
  readApiModel({ 'src/api/v1/groupversion.ts': GROUP_VERSION, 'src/api/v1/a.ts': file }).kinds.map((k) => k.kind);

describe('the kind name of a class exported under another name', () => {
  it('is the name it is exported as', () => {
    expect(kinds('@Resource() class ObjectObject {}\nexport { ObjectObject as Object };')).toEqual(['Object']);
    const result = run({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/a.ts': '@Resource() class SymbolObject { spec?: { a?: string } }\nexport { SymbolObject as Symbol };',
    });
    expect(result.errors).toEqual([]);
    expect(Object.values(crds(result)).map((c) => c['spec']['names'])).toEqual([
      { kind: 'Symbol', listKind: 'SymbolList', plural: 'symbols', singular: 'symbol' },
    ]);
  });

  it('stays the class name when the class is exported itself, exported twice, only as default, or not at all', () => {
    expect(kinds('@Resource() export class A {}\nexport { A as B };')).toEqual(['A']);
    expect(kinds('@Resource() class A {}\nexport { A as B, A as C };')).toEqual(['A']);
    expect(kinds('@Resource() class A {}\nexport { A as default };')).toEqual(['A']);
    expect(kinds('@Resource() class A {}')).toEqual(['A']);
    // A re-export from another module is not this class.
    expect(kinds("@Resource() class A {}\nexport { A as B } from './other.js';")).toEqual(['A']);
  });
});
