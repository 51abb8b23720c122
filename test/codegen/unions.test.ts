/**
 * Discriminated unions (issue 11 item 4): a union of object types with a tag field becomes one
 * object with a discriminator enum, optional members and CEL rules tying each member to its tag.
 * The round trip through the API server is in test/manifests/unions.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { errors, spec } from './harness.js';

const SOURCE = `
export interface SecretRef { name: string }
/** Where the data comes from. */
export type Source =
  | { type: 'ConfigMap'; configMap: { name: string } }
  | { type: 'Secret'; secret: SecretRef; key?: string }
  | { type: 'None' };
`;

describe('discriminated unions', () => {
  it('discriminator enum (required), optional members, one rule per member field', () => {
    const s = spec('source!: Source;', SOURCE).properties?.['source'];
    expect(s?.description).toBe('Where the data comes from.');
    expect(s?.required).toEqual(['type']);
    expect(s?.properties?.['type']).toEqual({ type: 'string', enum: ['ConfigMap', 'Secret', 'None'] });
    expect(Object.keys(s?.properties ?? {}).sort()).toEqual(['configMap', 'key', 'secret', 'type']);
    expect(s?.properties?.['secret']).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    expect(s?.['x-kubernetes-validations']).toEqual([
      {
        rule: "self.type == 'ConfigMap' ? has(self.configMap) : !has(self.configMap)",
        message: "configMap is required when type is 'ConfigMap', and forbidden otherwise",
      },
      {
        rule: "self.type == 'Secret' ? has(self.secret) : !has(self.secret)",
        message: "secret is required when type is 'Secret', and forbidden otherwise",
      },
      { rule: "has(self.key) ? self.type == 'Secret' : true", message: "key is allowed only when type is 'Secret'" },
    ]);
  });

  it('members as interfaces and classes, a field shared by two members, any tag name, a CEL keyword escaped', () => {
    const extra = `
export interface Http { mode: 'http'; url: string; timeout?: int32 }
export class Grpc { mode!: 'grpc'; url!: string; namespace!: string }
export type Probe = Http | Grpc;`;
    const s = spec('probe?: Probe | null;', extra).properties?.['probe'];
    expect(s?.nullable).toBe(true);
    expect(s?.properties?.['mode']).toEqual({ type: 'string', enum: ['http', 'grpc'] });
    expect(s?.['x-kubernetes-validations']).toEqual([
      {
        rule: "self.mode in ['http', 'grpc'] ? has(self.url) : !has(self.url)",
        message: "url is required when mode is 'http' or 'grpc', and forbidden otherwise",
      },
      {
        rule: "has(self.timeout) ? self.mode == 'http' : true",
        message: "timeout is allowed only when mode is 'http'",
      },
      {
        rule: "self.mode == 'grpc' ? has(self.__namespace__) : !has(self.__namespace__)",
        message: "namespace is required when mode is 'grpc', and forbidden otherwise",
      },
    ]);
  });

  it('without a discriminator, or with a member field of two types: one error at the field', () => {
    expect(errors('s?: { a: string } | { b: string };')).toEqual([
      "src/api/v1/t.ts:8: TSpec.s: type '{ a: string } | { b: string }': a union of object types " +
        'needs a discriminator: a required field every member has, with a different string literal ' +
        "in each (e.g. type: 'ConfigMap' | … )",
    ]);
    expect(errors("s?: { kind: 'A'; v: string } | { kind: 'B'; v: int32 };")).toEqual([
      "src/api/v1/t.ts:8: TSpec.s: type '{ kind: 'A'; v: string } | { kind: 'B'; v: int32 }': 'v' has a different type in the members for 'A' and 'B'; give it one type or another name",
    ]);
    expect(errors("s?: { kind: 'A'; v: string } | { kind: 'A'; w: string };")[0]).toContain('needs a discriminator');
  });
});
