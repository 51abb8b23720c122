/**
 * Issue 11, item 2 on the real API server: each CRD problem tsop now avoids or refuses is one the
 * server really has. A nullable enum without null refuses null (with null listed, null is stored);
 * a lookahead pattern and a plural that is not a DNS-1035 label make the CRD itself refused; an
 * optional @Immutable field can be set once, then neither changed nor removed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { apiCalls } from './api-calls.js';
import { pluralOfKind } from '../../src/project/plural.js';
import { checkDerivedPlural } from '../../src/project/naming.js';
import { errors, run, specFiles } from '../codegen/harness.js';

type Obj = Record<string, any>;

/** tsop's CRD for a spec with a nullable enum, an optional immutable field, an RE2 pattern and externalDocs. */
function generated(): Obj {
  const result = run(
    specFiles(
      "mode?: 'A' | 'B' | null;\n@Immutable() storageClass?: string;\n@Pattern('^[a-z]+(-[a-z]+)*$') @ExternalDocs({ url: 'https://example.com/naming' }) name?: string;",
    ),
  );
  expect(result.errors).toEqual([]);
  return parse(result.files['crd/bases/test.example.com_ts.yaml'] ?? '') as Obj;
}

/** The same CRD under another group (so both can be installed), with `edit` applied to its spec schema. */
function variant(crd: Obj, group: string, edit: (spec: Obj) => void): Obj {
  const copy = structuredClone(crd);
  copy['metadata'].name = `ts.${group}`;
  copy['spec'].group = group;
  edit(copy['spec'].versions[0].schema.openAPIV3Schema.properties.spec);
  return copy;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsop-valid-crds-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describeWithControlPlane('CRDs the API server would refuse or misread', { shared: true }, (env) => {
  const crd = generated();
  const { request, refusal } = apiCalls(() => env.cp.kubeConfig);
  const objects = (group: string): string => `/apis/${group}/v1/namespaces/default/ts`;
  const t = (name: string, spec: Obj): Obj => ({
    apiVersion: `${crd['spec'].group}/v1`,
    kind: 'T',
    metadata: { name },
    spec,
  });

  beforeAll(async () => {
    // What a nullable enum would be as a plain `enum`: without null (tsop before), and with null listed.
    const asEnum = (group: string, values: unknown[]): Obj =>
      variant(crd, group, (s) => {
        delete s.properties.mode['x-kubernetes-validations'];
        s.properties.mode.enum = values;
      });
    await writeFile(join(dir, 'generated.yaml'), stringify(crd));
    await writeFile(join(dir, 'enum-without-null.yaml'), stringify(asEnum('without.example.com', ['A', 'B'])));
    await writeFile(join(dir, 'enum-with-null.yaml'), stringify(asEnum('with.example.com', ['A', 'B', null])));
    await env.cp.installCRDs([dir]);
  });

  it('the CRD tsop writes is served (externalDocs included)', async () => {
    const served = await request(
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd['metadata'].name}`,
    );
    expect(served['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties.name.externalDocs).toEqual({
      url: 'https://example.com/naming',
    });
  });

  it("'A' | 'B' | null: tsop's CRD stores null and the listed values and refuses others; an `enum` refuses null, listed or not", async () => {
    const ok = await request('POST', objects('test.example.com'), t('null', { mode: null }));
    expect(ok['spec']).toEqual({ mode: null });
    expect((await request('POST', objects('test.example.com'), t('a', { mode: 'A' })))['spec']).toEqual({ mode: 'A' });
    expect(await refusal(request('POST', objects('test.example.com'), t('c', { mode: 'C' })))).toContain(
      'spec.mode: Invalid value: "C": supported values: "A", "B"',
    );
    for (const group of ['without.example.com', 'with.example.com']) {
      const asEnum = { ...t('null', { mode: null }), apiVersion: `${group}/v1` };
      expect(await refusal(request('POST', objects(group), asEnum))).toMatch(
        /^422 .*spec\.mode: Unsupported value: null/,
      );
    }
  });

  it('an optional @Immutable field: set once, then neither changed nor removed', async () => {
    const created = await request('POST', objects('test.example.com'), t('immutable', {}));
    const set = await request('PUT', `${objects('test.example.com')}/immutable`, {
      ...created,
      spec: { storageClass: 'fast' },
    });
    expect(set['spec']).toEqual({ storageClass: 'fast' });
    expect(
      await refusal(
        request('PUT', `${objects('test.example.com')}/immutable`, { ...set, spec: { storageClass: 'slow' } }),
      ),
    ).toContain('spec.storageClass: Invalid value: "slow": field is immutable');
    expect(await refusal(request('PUT', `${objects('test.example.com')}/immutable`, { ...set, spec: {} }))).toContain(
      'spec: Invalid value: field storageClass is immutable once set',
    );
  });

  it('a lookahead @Pattern: tsop refuses it at file:line, and the API server refuses the CRD', async () => {
    expect(errors("@Pattern('^(?!-)[a-z-]+$') name?: string;")).toEqual([
      `src/api/v1/t.ts:8: TSpec.name: @Pattern("^(?!-)[a-z-]+$"): lookahead '(?!' at offset 1 is ` +
        `not RE2; the API server matches patterns with RE2 (Go regexp), so rewrite it without that ` +
        `construct or check the value with @XValidation`,
    ]);
    const bad = variant(crd, 'pattern.example.com', (s) => {
      s.properties.name.pattern = '^(?!-)[a-z-]+$';
    });
    expect(
      await refusal(request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', bad, true)),
    ).toMatch(/^422 .*pattern/);
    const good = variant(crd, 'pattern.example.com', () => undefined);
    await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', good, true);
  });

  it('a derived plural that is not a DNS-1035 label: create api refuses the kind, and the API server refuses the CRD', async () => {
    const kind = `Frigate${'x'.repeat(56)}`;
    const plural = pluralOfKind(kind);
    expect(plural).toHaveLength(65);
    expect(() => checkDerivedPlural(kind, plural)).toThrow(/pass --plural/);
    const bad = structuredClone(crd);
    bad['metadata'].name = `${plural}.test.example.com`;
    bad['spec'].names = { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() };
    expect(
      await refusal(request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', bad, true)),
    ).toMatch(/^422 .*spec\.names\.plural/);
  });
});
