/** The reader's conventions: where kinds and group-versions are found, and how names resolve. */
import { describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { GROUP_VERSION, PRELUDE, run, crds } from './harness.js';

describe('finding kinds', () => {
  it('a @Resource class takes the group-version of its directory, or the nearest one above', () => {
    const model = readApiModel({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/a.ts': '@Resource() export class A {}',
      'src/api/v1/nested/b.ts': '@Resource() export class B {}',
      'src/api/v2/groupversion.ts':
        "export const groupVersion = { group: 'test.example.com', version: 'v2' } satisfies GroupVersion;",
      'src/api/v2/a.ts': '@Resource() export class A {}',
      'src/api/v1/plain.ts': 'export class NotAKind {}',
    });
    expect(model.kinds.map((k) => `${k.group}/${k.version}/${k.kind} ${k.pos.file}:${k.pos.line}`)).toEqual([
      'test.example.com/v1/A src/api/v1/a.ts:1',
      'test.example.com/v2/A src/api/v2/a.ts:1',
      'test.example.com/v1/B src/api/v1/nested/b.ts:1',
    ]);
    expect(model.diagnostics).toEqual([]);
  });
  it('a kind without a group-version, and a malformed group-version, are errors with a fix', () => {
    const model = readApiModel({
      'src/api/v1/a.ts': '@Resource() export class A {}',
      'src/api/v2/groupversion.ts': "export const groupVersion = { group: 'x' };",
    });
    expect(model.diagnostics.map((d) => `${d.pos.file}:${d.pos.line}: ${d.message}`)).toEqual([
      'src/api/v2/groupversion.ts:1: groupVersion: groupVersion must be an object literal { group: string, version: string }',
      "src/api/v1/a.ts:1: A: no group-version for src/api/v1; add a groupversion.ts there with `export const groupVersion = { group: 'example.com', version: 'v1' }`",
    ]);
  });
  it('controllers are classes with @Rbac, wherever they are', () => {
    const model = readApiModel({
      'src/controllers/x/c.ts': "@Rbac({ verbs: ['get'], resources: ['pods'] }) export class C {}",
    });
    expect(model.controllers).toEqual([
      {
        name: 'C',
        pos: { file: 'src/controllers/x/c.ts', line: 1 },
        markers: [
          {
            name: 'Rbac',
            args: [{ verbs: ['get'], resources: ['pods'] }],
            pos: { file: 'src/controllers/x/c.ts', line: 1 },
            undeclared: true,
          },
        ],
      },
    ]);
  });
  it('the model is plain data: it survives JSON', () => {
    const model = readApiModel({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/a.ts': `${PRELUDE}\n/** Doc. */ @Resource() export class A { spec?: { n: int32; m: Record<string, V1Container> } }`,
    });
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
  });
});

describe('resolving names through imports', () => {
  const files = {
    'src/api/v1/groupversion.ts': GROUP_VERSION,
    'src/api/shared/types.ts': "/** Shared. */ export interface Shared { s: string }\nexport type Mode = 'a' | 'b';",
    'src/api/shared/index.ts': "export * from './types.js';\nexport { Shared as Renamed } from './types.js';",
    'src/api/v1/k.ts': `${PRELUDE}
import { Shared, type Mode } from '../shared/index.js';
import type { Renamed as Again } from '../shared/index.js';
import { Other as Local } from './other.js';
@Resource() export class K { spec?: { a: Shared; b: Mode; c: Again; d: Local; e: k8s.V1Volume } }`,
    'src/api/v1/other.ts': 'export class Other { o?: boolean }',
  };
  it('follows relative imports, aliases, export * and export { a as b }', () => {
    const result = run(files);
    expect(result.errors.map((e) => e.message)).toEqual([]);
    const spec = (Object.values(crds(result))[0] as any).spec.versions[0].schema.openAPIV3Schema.properties.spec;
    expect(spec.properties.a).toEqual({
      type: 'object',
      description: 'Shared.',
      properties: { s: { type: 'string' } },
      required: ['s'],
    });
    expect(spec.properties.b).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(spec.properties.c).toEqual(spec.properties.a);
    expect(spec.properties.d).toEqual({ type: 'object', properties: { o: { type: 'boolean' } } });
    expect(spec.properties.e.required).toEqual(['name']);
  });
  it('names a name it cannot find, and where it looked', () => {
    const result = run({
      ...files,
      'src/api/v1/k.ts': `${PRELUDE}\nimport { Gone } from '../shared/index.js';\nimport { Ext } from 'some-package';\n@Resource() export class K { spec?: { a: Gone; b: Ext } }`,
    });
    expect(result.errors.map((e) => e.message)).toEqual([
      "src/api/v1/k.ts:8: K.spec.a: type 'Gone': 'Gone' from '../shared/index.js' is neither a type in the API files, a @kubernetes/client-node type, nor a known tsop type",
      "src/api/v1/k.ts:8: K.spec.b: type 'Ext': 'Ext' from 'some-package' is neither a type in the API files, a @kubernetes/client-node type, nor a known tsop type",
    ]);
  });
});

describe('loadSources', () => {
  it('reads src/api/**, controllers mentioning @Rbac(, and skips tests, declarations and src/runtime', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadSources } = await import('../../src/codegen/reader/sources.js');
    const dir = await mkdtemp(join(tmpdir(), 'tsop-sources-'));
    try {
      const files: Record<string, string> = {
        'src/api/v1/a.ts': 'a',
        'src/api/v1/a.test.ts': 'test',
        'src/api/v1/a.d.ts': 'decl',
        'src/api/runtime/v1/b.ts': 'an API group named runtime is still an API',
        'src/runtime/markers/index.ts': '@Rbac( in the runtime itself',
        'src/controllers/c.ts': "@Rbac({ verbs: ['get'] })",
        'src/controllers/plain.ts': 'no markers',
        'src/main.ts': 'main',
      };
      for (const [p, text] of Object.entries(files)) {
        await mkdir(join(dir, p, '..'), { recursive: true });
        await writeFile(join(dir, p), text);
      }
      expect(Object.keys(await loadSources(dir)).sort()).toEqual([
        'src/api/runtime/v1/b.ts',
        'src/api/v1/a.ts',
        'src/controllers/c.ts',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
