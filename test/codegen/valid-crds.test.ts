/**
 * Issue 11, item 2: schemas the API server would refuse or misread. A nullable enum accepts null
 * (as a CEL rule: the server's enum check never accepts null); an optional @Immutable field gets
 * controller-gen's "immutable once set" rule on its parent.
 * (The RE2 check of @Pattern is in re2.test.ts; the plural in test/project/plural-table.test.ts;
 * valid-crds.int.test.ts shows the API server's side of each.)
 */
import { describe, expect, it } from 'vitest';
import { crds, field, run, spec, specFiles } from './harness.js';

describe('an enum that admits null', () => {
  // The API server refuses null for any node with an `enum`, null listed or not (see
  // valid-crds.int.test.ts), and runs no CEL rule on null: so the values become a rule.
  const rule = (values: string, message: string) => ({
    'x-kubernetes-validations': [{ rule: `self in [${values}]`, message: `supported values: ${message}` }],
  });
  it("'A' | 'B' | null accepts null and only the listed values", () => {
    expect(field("f?: 'A' | 'B' | null;")).toEqual({ type: 'string', nullable: true, ...rule("'A', 'B'", '"A", "B"') });
  });
  it('so does a TS enum, or @Enum with @Nullable in either order; quotes are escaped', () => {
    expect(field('f?: Mode | null;', "enum Mode { On = 'on', Off = \"it's off\" }")).toEqual({
      type: 'string',
      nullable: true,
      ...rule("'on', 'it\\'s off'", '"on", "it\'s off"'),
    });
    expect(field("@Enum('x', 'y') @Nullable() f?: string;")).toEqual({
      type: 'string',
      nullable: true,
      ...rule("'x', 'y'", '"x", "y"'),
    });
    expect(field("@Nullable() @Enum('x', 'y') f?: string;")).toEqual({
      type: 'string',
      nullable: true,
      ...rule("'x', 'y'", '"x", "y"'),
    });
    expect(field('f?: 1 | 2 | null;')).toEqual({ type: 'integer', nullable: true, ...rule('1, 2', '1, 2') });
  });
  it('an enum without null stays an enum', () => {
    expect(field("f?: 'A' | 'B';")).toEqual({ type: 'string', enum: ['A', 'B'] });
    expect(field("f?: 'A' | 'B' | undefined;")).toEqual({ type: 'string', enum: ['A', 'B'] });
  });
});

describe('@Immutable', () => {
  it("on an optional field: 'self == oldSelf' on the field and controller-gen's 'immutable once set' rule on the parent", () => {
    const s = spec('@Immutable() storageClass?: string;\n@Immutable() size!: int32;\nother?: string;');
    expect(s.properties?.['storageClass']?.['x-kubernetes-validations']).toEqual([
      { rule: 'self == oldSelf', message: 'field is immutable' },
    ]);
    expect(s.properties?.['size']?.['x-kubernetes-validations']).toEqual([
      { rule: 'self == oldSelf', message: 'field is immutable' },
    ]);
    // Only the optional one: a required field cannot be removed anyway.
    expect(s['x-kubernetes-validations']).toEqual([
      {
        rule: '!has(oldSelf.storageClass) || has(self.storageClass)',
        message: 'field storageClass is immutable once set',
      },
    ]);
  });
  it("the parent rule comes before the class's own rules, as in controller-gen", () => {
    const files = specFiles('@Immutable() a?: string;');
    files['src/api/v1/t.ts'] = files['src/api/v1/t.ts']!.replace(
      'export class TSpec {',
      "@XValidation({ rule: 'true' })\nexport class TSpec {",
    );
    const result = run(files);
    expect(result.errors).toEqual([]);
    const specSchema = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec;
    expect(specSchema['x-kubernetes-validations']).toEqual([
      { rule: '!has(oldSelf.a) || has(self.a)', message: 'field a is immutable once set' },
      { rule: 'true' },
    ]);
  });
});
