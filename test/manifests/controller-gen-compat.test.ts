/**
 * Issue 30, item 4: where tsop deliberately writes something else than controller-gen, the user can
 * switch to controller-gen's text (`--controller-gen-compat`, or `controllerGenCompat: true` in the
 * PROJECT file's manifests options): @UniqueItems as `uniqueItems: true` instead of
 * `x-kubernetes-list-type: set`, a nullable enum as `enum` + `nullable` instead of a CEL rule,
 * @XIntOrString on a string field as `type: string` beside `x-kubernetes-int-or-string` instead of
 * the integer-or-string pair.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runManifests } from '../../src/cli/manifests.js';
import { markerHelp } from '../../src/codegen/markers/index.js';
import { run, specFiles, crds } from '../codegen/harness.js';

const BODY =
  "@UniqueItems() ids?: string[];\n@Nullable() mode?: 'fast' | 'slow';\n@XIntOrString() port?: string;\n@ItemsXIntOrString() ports?: string[];";

const specOf = (options: Record<string, unknown>): Record<string, any> => {
  const r = run(specFiles(BODY), options);
  expect(r.errors).toEqual([]);
  return Object.values(crds(r))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties;
};

describe('controller-gen compatibility switch', () => {
  it('by default tsop writes what the API server accepts and enforces', () => {
    const p = specOf({});
    expect(p['ids']).toEqual({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' });
    expect(p['mode']).toEqual({
      type: 'string',
      nullable: true,
      'x-kubernetes-validations': [{ rule: "self in ['fast', 'slow']", message: 'supported values: "fast", "slow"' }],
    });
    const intOrString = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
    expect(p['port']).toEqual(intOrString);
    expect(p['ports']).toEqual({ type: 'array', items: intOrString });
  });

  it("with controllerGenCompat it writes controller-gen's text, with a warning for what the API server refuses", () => {
    const r = run(specFiles(BODY), { controllerGenCompat: true } as never);
    const p = Object.values(crds(r))[0]?.['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties;
    expect(p['ids']).toEqual({ type: 'array', items: { type: 'string' }, uniqueItems: true });
    expect(p['mode']).toEqual({ type: 'string', nullable: true, enum: ['fast', 'slow'] });
    expect(p['port']).toEqual({ type: 'string', 'x-kubernetes-int-or-string': true });
    expect(p['ports']).toEqual({ type: 'array', items: { type: 'string', 'x-kubernetes-int-or-string': true } });
    expect(r.warnings.join('\n')).toMatch(/uniqueItems/);
  });

  const temps: string[] = [];
  afterEach(async () => {
    for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('is a PROJECT setting and a flag, the flag winning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tsop-compat-'));
    temps.push(dir);
    const markers = '../../../runtime/markers/index.js';
    const files: Record<string, string> = {
      PROJECT:
        'domain: example.com\nlayout:\n- typescript.tsop.dev/v1\nplugins:\n  manifests.typescript.tsop.dev/v1:\n    controllerGenCompat: true\nprojectName: p\nrepo: p\nversion: "3"\n',
      'src/api/v1/groupversion.ts': "export const groupVersion = { group: 'test.example.com', version: 'v1' };",
      'src/api/v1/t.ts': `import { Resource, UniqueItems } from '${markers}';\nexport class TSpec { @UniqueItems() ids?: string[]; }\n@Resource()\nexport class T { spec?: TSpec; }\n`,
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const io = { out: () => undefined, err: () => undefined };
    const ids = async (): Promise<unknown> =>
      (parse(await readFile(join(dir, 'config/crd/bases/test.example.com_ts.yaml'), 'utf8')) as any).spec.versions[0]
        .schema.openAPIV3Schema.properties.spec.properties.ids;
    await runManifests({ dir }, io);
    expect(await ids()).toMatchObject({ uniqueItems: true });
    await runManifests({ dir, controllerGenCompat: false } as never, io);
    expect(await ids()).toMatchObject({ 'x-kubernetes-list-type': 'set' });
  });

  it('is documented in manifests --help', () => {
    expect(markerHelp()).toMatch(/controller-gen-compat/);
  });
});
