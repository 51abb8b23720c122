/**
 * The corpus of test/fixtures/controller-gen on the real API server: every CRD tsop writes for the
 * TypeScript twins (byte for byte controller-gen's, see controller-gen-corpus.test.ts) is accepted,
 * a field that narrows its type's bound under allOf refuses what either bound refuses, and
 * controller-gen's `uniqueItems: true` (what --controller-gen-compat writes) is refused, and its
 * XIntOrString on a string field takes integers as tsop's integer-or-string pair does.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { apiCalls } from './api-calls.js';
import { loadSources } from '../../src/codegen/reader/sources.js';
import { readApiModel } from '../../src/codegen/reader/index.js';
import { generateManifests } from '../../src/manifests/generate.js';

type Obj = Record<string, any>;
const CASES = fileURLToPath(new URL('../fixtures/controller-gen', import.meta.url));

let dir = '';
const written: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsop-corpus-crds-'));
  const cases = JSON.parse(await readFile(join(CASES, 'cases.json'), 'utf8')) as Record<
    string,
    { maxDescLen?: number }
  >;
  for (const [name, options] of Object.entries(cases)) {
    // The API server's form: no --controller-gen-compat (its uniqueItems is refused, below).
    const result = generateManifests(readApiModel(await loadSources(join(CASES, name))), {
      tsopVersion: '0.0.0-test',
      ...(options.maxDescLen !== undefined ? { maxDescLen: options.maxDescLen } : {}),
    });
    expect(result.errors).toEqual([]);
    for (const [path, text] of Object.entries(result.files)) {
      if (!path.startsWith('crd/')) continue;
      const file = join(dir, `${name}-${path.split('/').pop() ?? ''}`);
      await writeFile(file, text);
      written.push(file);
    }
  }
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

// A plane of its own: sweeping its fifteen CRDs from a shared plane once took more than a minute for one.
describeWithControlPlane('the controller-gen corpus on the API server', {}, (env) => {
  const { request, refusal } = apiCalls(() => env.cp.kubeConfig);

  beforeAll(async () => {
    await env.cp.installCRDs([dir]);
  });

  it('accepts every CRD of the corpus', async () => {
    expect(written.length).toBeGreaterThanOrEqual(13);
    for (const file of written) {
      const crd = parse(await readFile(file, 'utf8')) as Obj;
      const served = await request(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd['metadata'].name}`,
      );
      const established = (served['status']?.conditions ?? []).find((c: Obj) => c['type'] === 'Established');
      expect(established?.status, file).toBe('True');
    }
  });

  it("a field narrowing its type's bound refuses what either bound refuses", async () => {
    const host = (name: string, spec: Obj): Obj => ({
      apiVersion: 'aliases.tsop.dev/v1',
      kind: 'Host',
      metadata: { name },
      spec: { name: 'h', port: 80, ...spec },
    });
    const hosts = `/apis/aliases.tsop.dev/v1/namespaces/${env.namespace}/hosts`;
    await request('POST', hosts, host('ok', { alias: 'a'.repeat(20), adminPort: 2000 }), true);
    expect(await refusal(request('POST', hosts, host('long', { alias: 'a'.repeat(21) }), true))).toMatch(
      /spec\.alias: Too long/,
    );
    expect(await refusal(request('POST', hosts, host('low', { adminPort: 80 }), true))).toMatch(
      /spec\.adminPort: Invalid value: 80/,
    );
    expect(await refusal(request('POST', hosts, host('high', { adminPort: 70000 }), true))).toMatch(
      /spec\.adminPort: Invalid value: 70000/,
    );
  });

  it("refuses controller-gen's uniqueItems: true, which tsop writes only with --controller-gen-compat", async () => {
    const crd = parse(await readFile(join(CASES, 'remaining/crd/remaining.tsop.dev_gauges.yaml'), 'utf8')) as Obj;
    crd['metadata'].name = 'gauges.compat.tsop.dev';
    crd['spec'].group = 'compat.tsop.dev';
    expect(
      await refusal(request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd, true)),
    ).toMatch(/^422 .*uniqueItems/);
  });

  it("controller-gen's XIntOrString on a string (type: string kept, what --controller-gen-compat writes) takes integers and strings, as tsop's pair does", async () => {
    const crd = parse(await readFile(join(CASES, 'items/crd/items.tsop.dev_trays.yaml'), 'utf8')) as Obj;
    crd['metadata'].name = 'trays.compat.tsop.dev';
    crd['spec'].group = 'compat.tsop.dev';
    // The remaining uniqueItems of the fixture is refused on its own (above).
    delete crd['spec'].versions[0].schema.openAPIV3Schema.properties.spec.properties.rows.items.uniqueItems;
    await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    await env.cp.waitForCRDs(['trays.compat.tsop.dev']);
    const tray = (group: string, name: string, ports: unknown[]): Obj => ({
      apiVersion: `${group}/v1`,
      kind: 'Tray',
      metadata: { name },
      spec: { ports },
    });
    await request(
      'POST',
      `/apis/compat.tsop.dev/v1/namespaces/${env.namespace}/trays`,
      tray('compat.tsop.dev', 'a', [80, 'http']),
      true,
    );
    expect(
      await refusal(
        request(
          'POST',
          `/apis/compat.tsop.dev/v1/namespaces/${env.namespace}/trays`,
          tray('compat.tsop.dev', 'b', ['HTTP']),
          true,
        ),
      ),
    ).toMatch(/spec\.ports\[0\]/);
    await request(
      'POST',
      `/apis/items.tsop.dev/v1/namespaces/${env.namespace}/trays`,
      tray('items.tsop.dev', 'a', [80, 'http']),
      true,
    );
  });
});
