/**
 * Issue 11, item 1: inputs that used to lose a marker, a field or a controller without a word.
 * Each now works (the schema or role has what was written) or is reported at its file:line.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { loadSources } from '../../src/codegen/reader/sources.js';
import { GROUP_VERSION, PRELUDE, crds, run, spec, specFiles } from './harness.js';

const MARKERS = "'../../runtime/markers/index.js'";

describe('markers imported under another name', () => {
  it('a renamed import (`Minimum as Min`) is the marker it renames', () => {
    const s = spec('@Min(1) @Max(5) f!: int32;', `import { Minimum as Min, Maximum as Max } from ${MARKERS};`);
    expect(s.properties?.['f']).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 5 });
  });

  it('a namespace import (`import * as m`, `@m.Minimum`) is resolved the same way', () => {
    const s = spec('@m.Minimum(1) f!: int32;', `import * as m from ${MARKERS};`);
    expect(s.properties?.['f']?.minimum).toBe(1);
  });

  it('a name re-exported under another name by a project file is followed to the marker', () => {
    const files = specFiles(
      '@AtLeast(2) f!: int32;\n@v.AtMost(9) g!: int32;',
      "import { AtLeast } from './validators.js';\nimport * as v from './validators.js';",
    );
    files['src/api/v1/validators.ts'] = `export { Minimum as AtLeast, Maximum as AtMost } from ${MARKERS};`;
    const result = run(files);
    expect(result.errors).toEqual([]);
    const props = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec
      .properties;
    expect(props.f.minimum).toBe(2);
    expect(props.g.maximum).toBe(9);
  });

  it('a renamed @Resource and @Rbac still make a kind and a controller', () => {
    const model = readApiModel({
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/a.ts': `import { Resource as Kind } from ${MARKERS};\n@Kind() export class A {}`,
      'src/controllers/c.ts': `import { Rbac as Permission } from '../runtime/markers/index.js';\n@Permission({ groups: [''], resources: ['pods'], verbs: ['get'] }) export class C {}`,
      'src/controllers/d.ts': `import * as tsop from '../runtime/markers/index.js';\n@tsop.Rbac({ groups: [''], resources: ['secrets'], verbs: ['list'] }) export class D {}`,
    });
    expect(model.kinds.map((k) => k.kind)).toEqual(['A']);
    expect(model.controllers.map((c) => `${c.name} ${c.markers.map((m) => m.name).join(',')}`)).toEqual([
      'C Rbac',
      'D Rbac',
    ]);
  });
});

describe('which controller files are read', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const write = (files: Record<string, string>): string => {
    dir = mkdtempSync(join(tmpdir(), 'tsop-sources-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it('files are chosen by what they declare, not by the text `@Rbac(`: renamed and namespaced @Rbac reach role.yaml', async () => {
    const root = write({
      'src/controllers/renamed.ts':
        `import { Rbac as Permission } from '../runtime/markers/index.js';\n@Permission({ groups: ` +
        `['apps'], resources: ['deployments'], verbs: ['get'] })\nexport class R {}\n`,
      'src/controllers/namespaced.ts': `import * as m from '../runtime/markers/index.js';\n@m.Rbac({ groups: [''], resources: ['configmaps'], verbs: ['list'] })\nexport class N {}\n`,
      'src/util.ts':
        "import * as k8s from '@kubernetes/client-node';\n/** Helpers, no decorators. @see k8s */\nexport const x = 1;\n",
      'src/runtime/markers/index.ts': 'export function Rbac() {}\n',
    });
    const sources = await loadSources(root);
    expect(Object.keys(sources).sort()).toEqual(['src/controllers/namespaced.ts', 'src/controllers/renamed.ts']);
    const role = parse(run(sources).files['rbac/role.yaml'] ?? '') as {
      rules: Array<{ apiGroups: string[]; resources: string[] }>;
    };
    expect(role.rules.map((r) => `${r.apiGroups.join(',')}/${r.resources.join(',')}`)).toEqual([
      '/configmaps',
      'apps/deployments',
    ]);
  });
});

describe('constructor parameter properties', () => {
  it('are fields: public and readonly ones are read with their type, `?`, decorators and @param doc; private ones are not', () => {
    const body = `
  /**
   * @param replicas How many to run.
   * @param name - The name.
   */
  constructor(@Minimum(1) public replicas: int32, readonly name?: string, private secret?: string, plain?: string) {}
  size?: int32;`;
    const s = spec(body);
    expect(s.properties).toEqual({
      replicas: { type: 'integer', format: 'int32', minimum: 1, description: 'How many to run.' },
      name: { type: 'string', description: 'The name.' },
      size: { type: 'integer', format: 'int32' },
    });
    expect(s.required).toEqual(['replicas']);
  });
});

describe('class-level markers on a base class', () => {
  it('are kept through `extends`, as controller-gen keeps them for inline embedding', () => {
    const extra = `
@XValidation({ rule: 'self.a <= self.b', message: 'a must not exceed b' })
class Range { a?: int32; b?: int32 }
@ExactlyOneOf('x', 'y')
class Choice extends Range { x?: string; y?: string }`;
    const files = specFiles('', extra);
    files['src/api/v1/t.ts'] = files['src/api/v1/t.ts']!.replace(
      'export class TSpec {',
      '@XValidation({ rule: "self.c != \'\'" })\nexport class TSpec extends Choice { c?: string;',
    );
    const result = run(files);
    expect(result.errors).toEqual([]);
    const specSchema = Object.values(crds(result))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec;
    expect(specSchema['x-kubernetes-validations']).toEqual([
      { rule: 'self.a <= self.b', message: 'a must not exceed b' },
      { rule: "self.c != ''" },
      // one-of rules need the finished node, so they come last, whichever class declares them
      {
        rule: '[has(self.x),has(self.y)].filter(x,x==true).size() == 1',
        message: 'exactly one of the fields in [x y] must be set',
      },
    ]);
    expect(Object.keys(specSchema.properties).sort()).toEqual(['a', 'b', 'c', 'x', 'y']);
  });

  it('kind markers of a base are not inherited', () => {
    const files = {
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\n@Resource({ shortNames: ['b'] })\nexport class B { spec?: { n?: string } }\n@Resource()\nexport class C extends B {}\n`,
    };
    const result = run(files);
    expect(result.errors).toEqual([]);
    const byKind = Object.fromEntries(Object.values(crds(result)).map((c) => [c['spec'].names.kind, c['spec'].names]));
    expect(byKind['B'].shortNames).toEqual(['b']);
    expect(byKind['C'].shortNames).toBeUndefined();
  });
});

describe('markers on the root metadata, apiVersion and kind', () => {
  it('are warned about at their line as a hint (the API server ignores them); the CRD is still written', () => {
    const files = {
      'src/api/v1/groupversion.ts': GROUP_VERSION,
      'src/api/v1/t.ts': `${PRELUDE}\n@Resource()\nexport class T {\n  @MaxLength(63)\n  metadata?: ObjectMeta;\n  spec?: { n?: string };\n}\n`,
    };
    const result = run(files);
    expect(result.errors).toEqual([]);
    expect(Object.keys(result.files)).toHaveLength(1);
    expect(result.warnings).toEqual([
      'src/api/v1/t.ts:8: T.metadata: @MaxLength has no effect: the root metadata keeps its ' +
        'standard schema (the API server ignores validation under metadata except on name and ' +
        'generateName); remove it, or check metadata with @XValidation on the kind (e.g. ' +
        'self.metadata.name.size() <= 63)',
    ]);
  });
});
