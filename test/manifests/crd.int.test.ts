/**
 * The generated CRDs against the real kube-apiserver: every fixture CRD is accepted; valid samples
 * are accepted; invalid ones are rejected naming the expected field; defaults are applied on read.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  RbacAuthorizationV1Api,
  type V1ClusterRole,
  type V1Role,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { writeBenchProject } from '../../bench/manifests-project.js';
import { readProjectApi } from '../../src/codegen/reader/sources.js';
import { generateManifests } from '../../src/manifests/generate.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/manifests');
let outDir = '';
const generated: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'tsop-crd-int-'));
  await writeBenchProject(join(outDir, 'bench'));
  for (const fixture of ['cronjob', 'widgets', 'bench']) {
    const dir = fixture === 'bench' ? join(outDir, 'bench') : join(FIXTURES, fixture);
    const result = generateManifests(await readProjectApi(dir), { tsopVersion: '0.0.0-test' });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    generated[fixture] = result.files;
    for (const [path, text] of Object.entries(result.files)) {
      if (!path.startsWith('crd/')) continue;
      await mkdir(join(outDir, 'crds'), { recursive: true });
      await writeFile(join(outDir, 'crds', `${fixture}-${path.split('/').pop()}`), text);
    }
  }
});
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

type Obj = Record<string, any>;
type Failure = { code: number; message: string };

/** The API error for a call that must fail (the test fails if it succeeds). */
async function rejection(call: Promise<unknown>): Promise<Failure> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const body = typeof error.body === 'string' ? (JSON.parse(error.body) as Obj) : (error.body as Obj);
    return { code: error.code, message: String(body['message']) };
  }
  throw new Error('the API server accepted an object it should have rejected');
}

describeWithControlPlane('generated CRDs on the real API server', { shared: true }, (env) => {
  let api: CustomObjectsApi;
  const ns = 'default';
  let n = 0;
  const widget = (spec: Obj): Obj => ({
    apiVersion: 'widgets.example.com/v1',
    kind: 'Widget',
    metadata: { name: `w${n++}` },
    spec,
  });
  const createWidget = (spec: Obj): Promise<Obj> =>
    api.createNamespacedCustomObject({
      group: 'widgets.example.com',
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      body: widget(spec),
    }) as Promise<Obj>;
  const valid: Obj = {
    replicas: 3,
    displayName: 'web',
    ports: [
      { name: 'http', port: 80 },
      { name: 'https', port: 443, protocol: 'TCP' },
    ],
    size: '1Gi',
    maxUnavailable: '25%',
    range: { min: 1, max: 2 },
    source: { url: 'https://example.com' },
    labels: { a: '1' },
    tags: ['a', 'b'],
  };

  beforeAll(async () => {
    await env.cp.installCRDs([join(outDir, 'crds')]);
    api = env.cp.kubeConfig.makeApiClient(CustomObjectsApi);
  });

  it('accepts a valid Widget and applies defaults, nested ones included, on read', async () => {
    const created = await createWidget(valid);
    const read = (await api.getNamespacedCustomObject({
      group: 'widgets.example.com',
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      name: created['metadata'].name,
    })) as Obj;
    expect(read['spec'].mode).toBe('Rolling');
    expect(read['spec'].tuning).toEqual({ level: 5, profile: 'balanced' });
    expect(read['spec'].maxUnavailable).toBe('25%');
    expect((await createWidget({ ...valid, maxUnavailable: 1, size: 2 }))['spec'].maxUnavailable).toBe(1);
  });

  it.each([
    [
      'bounds: minimum',
      { replicas: 0 },
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    ],
    [
      'bounds: maximum',
      { replicas: 11 },
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    ],
    [
      'pattern',
      { displayName: 'Bad_Name' },
      'spec.displayName: Invalid value: "Bad_Name": spec.displayName in body should match',
    ],
    ['enum', { mode: 'Blue' }, 'spec.mode: Unsupported value: "Blue": supported values: "Rolling", "Recreate"'],
    ['required', { replicas: undefined }, 'spec.replicas: Required value'],
    ['list-map key required in items', { ports: [{ port: 80 }] }, 'spec.ports[0].name: Required value'],
    [
      'list-map keys unique',
      {
        ports: [
          { name: 'a', port: 1 },
          { name: 'a', port: 2 },
        ],
      },
      'spec.ports[1]: Duplicate value: {"name":"a"}',
    ],
    ['Quantity pattern', { size: 'lots' }, 'spec.size: Invalid value: "lots": spec.size in body should match'],
    [
      'int-or-string',
      { maxUnavailable: true },
      'spec.maxUnavailable: Invalid value: "boolean": spec.maxUnavailable in body must be of type integer,string',
    ],
    ['CEL rule on a class', { range: { min: 5, max: 1 } }, 'spec.range: Invalid value: min must not exceed max'],
    [
      'exactly one of',
      { source: { url: 'https://x', configMap: 'c' } },
      'spec.source: Invalid value: exactly one of the fields in [configMap url] must be set',
    ],
    [
      'exactly one of (none)',
      { source: {} },
      'spec.source: Invalid value: exactly one of the fields in [configMap url] must be set',
    ],
    [
      'max properties',
      { labels: { a: '1', b: '2', c: '3', d: '4' } },
      'spec.labels: Too many: 4: must have at most 3 items',
    ],
    ['unique items (listType set)', { tags: ['a', 'a'] }, 'spec.tags[1]: Duplicate value: "a"'],
    [
      'nested default validations',
      { tuning: { level: -1 } },
      'spec.tuning.level: Invalid value: -1: spec.tuning.level in body should be greater than or equal to 0',
    ],
  ])('rejects %s', async (_name, change, expected) => {
    const f = await rejection(createWidget({ ...valid, ...change }));
    expect(f.code).toBe(422);
    expect(f.message).toContain(expected);
  });

  it('rejects changing an @Immutable field (CEL transition rule)', async () => {
    const created = await createWidget({ ...valid, storageClass: 'fast' });
    const name = created['metadata'].name as string;
    created['spec'].storageClass = 'slow';
    const f = await rejection(
      api.replaceNamespacedCustomObject({
        group: 'widgets.example.com',
        version: 'v1',
        namespace: ns,
        plural: 'widgets',
        name,
        body: created,
      }),
    );
    expect(f.message).toContain('spec.storageClass: Invalid value: "slow": field is immutable');
  });

  it('serves status and scale subresources; validates conditions through /status', async () => {
    const created = await createWidget(valid);
    const name = created['metadata'].name as string;
    const scale = (await api.getNamespacedCustomObjectScale({
      group: 'widgets.example.com',
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      name,
    })) as Obj;
    expect(scale['spec'].replicas).toBe(3);
    const condition = {
      type: 'Ready',
      status: 'Maybe',
      reason: 'Testing',
      message: '',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    };
    const f = await rejection(
      api.replaceNamespacedCustomObjectStatus({
        group: 'widgets.example.com',
        version: 'v1',
        namespace: ns,
        plural: 'widgets',
        name,
        body: { ...created, status: { conditions: [condition] } },
      }),
    );
    expect(f.message).toContain(
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    );
    const ok = (await api.replaceNamespacedCustomObjectStatus({
      group: 'widgets.example.com',
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      name,
      body: { ...created, status: { replicas: 3, conditions: [{ ...condition, status: 'True' }] } },
    })) as Obj;
    expect(ok['status'].conditions[0].status).toBe('True');
  });

  it('a cluster-scoped kind in a second group, with a custom plural, bounds at the root and a selectable field', async () => {
    const create = (name: string, body: Obj): Promise<unknown> =>
      api.createClusterCustomObject({
        group: 'other.example.com',
        version: 'v1',
        plural: 'gadgetry',
        body: { apiVersion: 'other.example.com/v1', kind: 'Gadget', metadata: { name }, ...body },
      });
    await create('g-eu', { spec: { region: 'eu' }, rank: 3 });
    await create('g-us', { spec: { region: 'us', weight: 9007199254740991 } });
    const f = await rejection(create('g-bad', { spec: { region: 'eu' }, rank: 4 }));
    expect(f.message).toContain('rank: Invalid value: 4: rank in body should be less than or equal to 3');
    expect((await rejection(create('g-none', { spec: {} }))).message).toContain('spec.region: Required value');
    const list = (await api.listClusterCustomObject({
      group: 'other.example.com',
      version: 'v1',
      plural: 'gadgetry',
      fieldSelector: 'spec.region=eu',
    })) as Obj;
    expect(list['items'].map((i: Obj) => i['metadata'].name)).toEqual(['g-eu']);
  });

  it('a kind with two served versions, each validated by its own schema', async () => {
    const create = (version: string, spec: Obj): Promise<unknown> =>
      api.createNamespacedCustomObject({
        group: 'widgets.example.com',
        version,
        namespace: ns,
        plural: 'gizmoes',
        body: { apiVersion: `widgets.example.com/${version}`, kind: 'Gizmo', metadata: { name: `gz${n++}` }, spec },
      });
    await create('v1alpha1', { size: 'three' });
    await create('v1', { size: 3, color: 'red' });
    expect((await rejection(create('v1', { size: 'three' }))).message).toContain(
      'spec.size: Invalid value: "string": spec.size in body must be of type integer',
    );
  });

  it('the CronJob tutorial kind: accepts a full job template and rejects a container without a name', async () => {
    const cronjob = (containers: Obj[]): Obj => ({
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name: `cj${n++}` },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: { spec: { template: { spec: { containers, restartPolicy: 'OnFailure' } } } },
      },
    });
    const create = (body: Obj): Promise<Obj> =>
      api.createNamespacedCustomObject({
        group: 'batch.tutorial.kubebuilder.io',
        version: 'v1',
        namespace: ns,
        plural: 'cronjobs',
        body,
      }) as Promise<Obj>;
    const ok = await create(
      cronjob([
        {
          name: 'hello',
          image: 'busybox',
          args: ['date'],
          resources: { limits: { cpu: '100m', memory: 64 } },
          ports: [{ containerPort: 80 }],
        },
      ]),
    );
    expect(ok['spec'].concurrencyPolicy).toBe('Allow');
    const f = await rejection(create(cronjob([{ image: 'busybox' }])));
    expect(f.message).toContain('spec.jobTemplate.spec.template.spec.containers[0].name: Required value');
    const g = await rejection(
      create(cronjob([{ name: 'a', image: 'busybox', resources: { limits: { cpu: 'lots' } } }])),
    );
    expect(g.message).toContain('spec.jobTemplate.spec.template.spec.containers[0].resources.limits.cpu');
  });

  it('all ten kinds of the benchmark project are served', async () => {
    const crds = await env.cp.kubeConfig.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
    const bench = crds.items.filter((c) => c.spec.group === 'bench.example.com').map((c) => c.metadata?.name);
    expect(bench.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `kind${i}s.bench.example.com`).sort());
    const created = (await api.createNamespacedCustomObject({
      group: 'bench.example.com',
      version: 'v1',
      namespace: ns,
      plural: 'kind0s',
      body: {
        apiVersion: 'bench.example.com/v1',
        kind: 'Kind0',
        metadata: { name: 'k0' },
        spec: {
          replicas: 1,
          template: { spec: { containers: [{ name: 'c', image: 'x' }] } },
          entries: [{ name: 'a' }],
        },
      },
    })) as Obj;
    expect(created['spec'].mode).toBe('A');
  });

  it('role.yaml is accepted: a ClusterRole and a namespaced Role', async () => {
    const rbac = env.cp.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await env.cp.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'widget-system' } } });
    const docs = parseAllDocuments(generated['widgets']?.['rbac/role.yaml'] ?? '').map((d) => d.toJS() as Obj);
    expect(docs.map((d) => d['kind'])).toEqual(['ClusterRole', 'Role']);
    for (const doc of docs) {
      if (doc['kind'] === 'ClusterRole') await rbac.createClusterRole({ body: doc as V1ClusterRole });
      else await rbac.createNamespacedRole({ namespace: 'widget-system', body: doc as V1Role });
    }
    const role = await rbac.readClusterRole({ name: 'manager-role' });
    expect(role.rules?.some((r) => r.nonResourceURLs?.includes('/metrics'))).toBe(true);
  });
});
