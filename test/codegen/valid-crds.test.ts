/**
 * Issue 11, item 2: schemas the API server would refuse or misread. A nullable enum lists null;
 * an optional @Immutable field gets controller-gen's "immutable once set" rule on its parent.
 * (The RE2 check of @Pattern is in re2.test.ts; the plural in test/project/plural-table.test.ts;
 * valid-crds.int.test.ts shows the API server's side of each.)
 */
import { describe, expect, it } from 'vitest';
import { crds, field, run, spec, specFiles } from './harness.js';

describe('an enum that admits null', () => {
  it("'A' | 'B' | null lists null among the values", () => {
    expect(field("f?: 'A' | 'B' | null;")).toEqual({ type: 'string', enum: ['A', 'B', null], nullable: true });
  });
  it('so does a TS enum or @Enum with @Nullable, whatever the decorator order', () => {
    expect(field('f?: Mode | null;', "enum Mode { On = 'on', Off = 'off' }")).toEqual({ type: 'string', enum: ['on', 'off', null], nullable: true });
    expect(field("@Enum('x', 'y') @Nullable() f?: string;")).toEqual({ type: 'string', enum: ['x', 'y', null], nullable: true });
    expect(field("@Nullable() @Enum('x', 'y') f?: string;")).toEqual({ type: 'string', enum: ['x', 'y', null], nullable: true });
  });
  it('an enum without null stays as it is', () => {
    expect(field("f?: 'A' | 'B';")).toEqual({ type: 'string', enum: ['A', 'B'] });
    expect(field("f?: 'A' | 'B' | undefined;")).toEqual({ type: 'string', enum: ['A', 'B'] });
  });
});

describe('@Immutable', () => {
  it("on an optional field: 'self == oldSelf' on the field and controller-gen's 'immutable once set' rule on the parent", () => {
    const s = spec('@Immutable() storageClass?: string;\n@Immutable() size!: int32;\nother?: string;');
    expect(s.properties?.['storageClass']?.['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'field is immutable' }]);
    expect(s.properties?.['size']?.['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'field is immutable' }]);
    // Only the optional one: a required field cannot be removed anyway.
    expect(s['x-kubernetes-validations']).toEqual([{ rule: '!has(oldSelf.storageClass) || has(self.storageClass)', message: 'field storageClass is immutable once set' }]);
  });
  it("the parent rule comes before the class's own rules, as in controller-gen", () => {
    const files = specFiles('@Immutable() a?: string;');
    files['src/api/v1/t.ts'] = files['src/api/v1/t.ts']!.replace('export class TSpec {', "@XValidation({ rule: 'true' })\nexport class TSpec {");
    const result = run(files);
    expect(result.errors).toEqual([]);
    const specSchema = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec;
    expect(specSchema['x-kubernetes-validations']).toEqual([{ rule: '!has(oldSelf.a) || has(self.a)', message: 'field a is immutable once set' }, { rule: 'true' }]);
  });
});
