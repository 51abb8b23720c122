/** Issue 11, item 3 (part): controller-gen markers tsop lacked — externalDocs, skipversion, rbac roleName — and the one-of rules in controller-gen's order. */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { crds, errors, field, run, specFiles } from './harness.js';

describe('@ExternalDocs', () => {
  it('on a field: externalDocs with url and optional description', () => {
    expect(field("@ExternalDocs({ url: 'https://example.com/docs', description: 'Guide' }) f?: string;")).toEqual({
      type: 'string',
      externalDocs: { url: 'https://example.com/docs', description: 'Guide' },
    });
    expect(field("@ExternalDocs({ url: '/docs/f' }) f?: string;")).toEqual({
      type: 'string',
      externalDocs: { url: '/docs/f' },
    });
  });
  it('on a class used as a type', () => {
    const files = specFiles(
      'f?: Backup;',
      "@ExternalDocs({ url: 'https://example.com/backup' })\nclass Backup { path?: string }",
    );
    const result = run(files);
    expect(result.errors).toEqual([]);
    const f = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties.f;
    expect(f.externalDocs).toEqual({ url: 'https://example.com/backup' });
  });
  it('refuses a url that is not absolute, at its line', () => {
    expect(errors("@ExternalDocs({ url: 'docs/f' }) f?: string;")).toEqual([
      "src/api/v1/t.ts:8: TSpec.f: @ExternalDocs: url 'docs/f' is not an absolute URL; write it as 'https://…'",
    ]);
  });
});

describe('@SkipVersion', () => {
  const kindIn = (version: string, decorators: string): Record<string, string> => ({
    [`src/api/${version}/groupversion.ts`]: `export const groupVersion = { group: 'test.example.com', version: '${version}' };`,
    [`src/api/${version}/t.ts`]: `${decorators}\n@Resource()\nexport class T { spec?: { a?: string } }\n`,
  });
  it('leaves that version out of the CRD; the remaining single version is the storage version', () => {
    const result = run({ ...kindIn('v1', ''), ...kindIn('v2alpha1', '@SkipVersion()') });
    expect(result.errors).toEqual([]);
    const crd = Object.values(crds(result))[0];
    expect(crd?.['spec'].versions.map((v: { name: string; storage: boolean }) => `${v.name} ${v.storage}`)).toEqual([
      'v1 true',
    ]);
  });
  it('on the only version is an error at the kind', () => {
    expect(run(kindIn('v1', '@SkipVersion()')).errors.map((e) => e.message)).toEqual([
      'src/api/v1/t.ts:1: T: @SkipVersion() on its only version leaves the CRD with none; remove it, or add the version to serve',
    ]);
  });
});

describe('@Rbac roleName', () => {
  it('puts rules in several roles of role.yaml, one document per (namespace, role name)', () => {
    const result = run({
      'src/controllers/c.ts': [
        "@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['get'] })",
        "@Rbac({ groups: ['batch'], resources: ['jobs'], verbs: ['create'], roleName: 'backup-role' })",
        "@Rbac({ resources: ['secrets'], verbs: ['get'], roleName: 'backup-role', namespace: 'ops' })",
        'export class C {}',
      ].join('\n'),
    });
    expect(result.errors).toEqual([]);
    const docs = (result.files['rbac/role.yaml'] ?? '')
      .split('---\n')
      .filter((d) => d.trim() !== '')
      .map((d) => parse(d) as { kind: string; metadata: { name: string; namespace?: string } });
    expect(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ''}/${d.metadata.name}`)).toEqual([
      'ClusterRole /backup-role',
      'ClusterRole /manager-role',
      'Role ops/backup-role',
    ]);
  });
  it('refuses a role name the API cannot have', () => {
    expect(
      run({
        'src/controllers/c.ts': "@Rbac({ resources: ['pods'], verbs: ['get'], roleName: 'a/b' }) export class C {}",
      }).errors.map((e) => e.message),
    ).toEqual(["src/controllers/c.ts:1: C: @Rbac: roleName 'a/b' is not a valid role name; use e.g. 'backup-role'"]);
  });
});

describe('one-of rules', () => {
  it("come after @XValidation, in controller-gen's order (AtMostOneOf, ExactlyOneOf, AtLeastOneOf) whatever the decorator order", () => {
    const files = specFiles('a?: string; b?: string; c?: string; d?: string; e?: string; f?: string;');
    files['src/api/v1/t.ts'] = files['src/api/v1/t.ts']!.replace(
      'export class TSpec {',
      "@AtLeastOneOf('a', 'b')\n@ExactlyOneOf('c', 'd')\n@XValidation({ rule: 'true' })\n@AtMostOneOf('e', 'f')\nexport class TSpec {",
    );
    const result = run(files);
    expect(result.errors).toEqual([]);
    const rules = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec[
      'x-kubernetes-validations'
    ];
    expect(rules.map((r: { message?: string; rule: string }) => r.message ?? r.rule)).toEqual([
      'true',
      'at most one of the fields in [e f] may be set',
      'exactly one of the fields in [c d] must be set',
      'at least one of the fields in [a b] must be set',
    ]);
  });
});

describe("groupVersion fields: 'optional' (package-level validation:Optional)", () => {
  const version = (v: string, gv: string): Record<string, string> => ({
    [`src/api/${v}/groupversion.ts`]: `export const groupVersion = { group: 'test.example.com', version: '${v}'${gv} };`,
    [`src/api/${v}/t.ts`]: `${v === 'v1' ? '@StorageVersion()\n' : ''}@Resource()\nexport class T { spec!: TSpec }\nexport class TSpec { a!: string; @Required() b!: string; c?: string }\n`,
  });
  it('makes the fields of that version optional unless @Required; other versions keep the default', () => {
    const result = run({ ...version('v1', ''), ...version('v2', ", fields: 'optional'") });
    expect(result.errors).toEqual([]);
    const versions = Object.values(crds(result))[0]?.['spec'].versions as Array<{
      name: string;
      schema: { openAPIV3Schema: { required?: string[]; properties: { spec: { required?: string[] } } } };
    }>;
    expect(
      versions.map(
        (v) =>
          `${v.name}: ${v.schema.openAPIV3Schema.required ?? []} / ${v.schema.openAPIV3Schema.properties.spec.required ?? []}`,
      ),
    ).toEqual(['v1: spec / a,b', 'v2:  / b']);
  });
  it('refuses another value at the group-version', () => {
    expect(run(version('v1', ", fields: 'maybe'")).errors.map((e) => e.message)[0]).toBe(
      `src/api/v1/groupversion.ts:1: groupVersion: fields must be 'optional' or 'required', got "maybe"`,
    );
  });
});

describe('groupVersion skip: true (package-level kubebuilder:skip)', () => {
  it('leaves the kinds under that directory out, and only those', () => {
    const result = run({
      'src/api/v1/groupversion.ts': "export const groupVersion = { group: 'test.example.com', version: 'v1' };",
      'src/api/v1/t.ts': '@Resource()\nexport class T { spec?: { a?: string } }\n',
      'src/api/internal/groupversion.ts':
        "export const groupVersion = { group: 'test.example.com', version: 'v1', skip: true };",
      'src/api/internal/u.ts': '@Resource()\nexport class U { spec?: { a?: string } }\n',
    });
    expect(result.errors).toEqual([]);
    expect(Object.keys(result.files)).toEqual(['crd/bases/test.example.com_ts.yaml']);
  });
});

describe('generateEmbeddedObjectMeta', () => {
  const files = specFiles('template?: V1PodTemplateSpec;\nmeta?: ObjectMeta;');
  const specOf = (opts: { generateEmbeddedObjectMeta?: boolean }) => {
    const result = run(files, opts);
    expect(result.errors).toEqual([]);
    return Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema as Record<string, any>;
  };
  const embedded = {
    type: 'object',
    properties: {
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: { type: 'array', items: { type: 'string' } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      name: { type: 'string' },
      namespace: { type: 'string' },
    },
  };
  it("off (controller-gen's default): a nested ObjectMeta is {type: object}", () => {
    const s = specOf({});
    expect(s['properties'].spec.properties.template.properties.metadata.properties).toBeUndefined();
    expect(s['properties'].spec.properties.meta).toEqual({ type: 'object' });
  });
  it('on: nested ObjectMeta (pod templates, ObjectMeta fields) gets the allow-listed fields; the root metadata stays {type: object}', () => {
    const s = specOf({ generateEmbeddedObjectMeta: true });
    const template = s['properties'].spec.properties.template.properties.metadata;
    expect(template).toEqual({ ...embedded, description: expect.stringContaining("Standard object's metadata") });
    expect(s['properties'].spec.properties.meta).toEqual(embedded);
    expect(s['properties'].metadata).toEqual({ type: 'object' });
  });
});
