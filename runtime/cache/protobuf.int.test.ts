/**
 * The cache's protobuf watches against a real API server: a cache that reads built-in kinds in
 * protobuf (the default) holds the same objects as one told `protobuf: false`, whole (managedFields
 * and all, with no transform) and metadata-only, after its watch-list stream and after a change
 * that comes through its watch, and listed page by page; a kind the table does not know (a custom
 * resource) is read as JSON.
 */
import { afterEach, expect, it } from 'vitest';
import { metadataOnly, type GroupVersionKind, type KubeObject } from '../apimachinery/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { CRD_DIR } from '../test-fixtures/helpers.js';
import { Cache } from './index.js';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const SECRET = { group: '', version: 'v1', kind: 'Secret' };
const POD = { group: '', version: 'v1', kind: 'Pod' };
const GIZMO = { group: 'fixtures.tsop.dev', version: 'v1', kind: 'Gizmo' };
const byKey = (a: KubeObject, b: KubeObject): number => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');

describeWithControlPlane('cache: protobuf watches', { shared: true, crdDirectoryPaths: [CRD_DIR] }, (env) => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  const started = async (protobuf: boolean, kinds: GroupVersionKind[], watchList = true): Promise<Cache> => {
    const cache = new Cache({
      kubeConfig: env.cp.kubeConfig,
      defaultScope: { namespace: env.namespace },
      transform: null,
      protobuf,
      watchList,
      pageSize: 2,
    });
    for (const kind of kinds) cache.informerFor(kind);
    const ac = new AbortController();
    const run = cache.start(ac.signal);
    stops.push(async () => {
      ac.abort();
      await run;
    });
    expect(await cache.waitForCacheSync()).toBe(true);
    return cache;
  };

  it('holds the same objects as a JSON cache, whole and metadata-only, listed and watched', async () => {
    const ns = env.namespace;
    const client = createClient(env.cp.kubeConfig);
    for (let i = 0; i < 5; i++) {
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: ns, labels: { app: 'pb', index: String(i) } },
        data: { payload: 'x'.repeat(100 * i), text: 'é ✓' },
        binaryData: { raw: Buffer.from([i, 0, 255]).toString('base64') },
      });
    }
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: ns },
      data: { key: Buffer.from([0xde, 0xad, 0xbe, 0xef]).toString('base64') },
    });
    await client.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: ns },
      spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '1', memory: '64Mi' } } }] },
    });
    const kinds = [CM, SECRET, POD, metadataOnly(CM), metadataOnly(SECRET)];
    const pb = await started(true, kinds);
    const json = await started(false, kinds);
    // Listed page by page (two objects a page) instead of with a watch-list stream.
    const paged = await started(true, kinds, false);
    const same = (): void => {
      for (const kind of kinds) {
        const a = pb.list<KubeObject>(kind).sort(byKey);
        const b = json.list<KubeObject>(kind).sort(byKey);
        expect(paged.list<KubeObject>(kind).sort(byKey), `${kind.kind} paged`).toStrictEqual(b);
        expect(a.length, kind.kind).toBeGreaterThan(0);
        expect(
          a,
          `${kind.kind}${kind === CM || kind === SECRET || kind === POD ? '' : ' metadata-only'}`,
        ).toStrictEqual(b);
      }
    };
    same();
    expect(pb.list<KubeObject>(CM)[0]?.metadata?.managedFields).toBeDefined();

    const cm = await client.get<KubeObject>(CM, { namespace: ns, name: 'cm-1' });
    const updated = await client.update<KubeObject>({ ...cm, data: { payload: 'changed' } });
    const rv = updated.metadata?.resourceVersion;
    const seen = (cache: Cache, kind: GroupVersionKind) =>
      cache.get<KubeObject>(kind, { namespace: ns, name: 'cm-1' })?.metadata?.resourceVersion === rv;
    await expect
      .poll(() => [pb, json, paged].every((c) => seen(c, CM) && seen(c, metadataOnly(CM))), { timeout: 15_000 })
      .toBe(true);
    same();
    expect(pb.get<KubeObject>(CM, { namespace: ns, name: 'cm-1' })?.['data']).toEqual({ payload: 'changed' });
  });

  it('reads a custom resource as JSON, whole, and its metadata only', async () => {
    const client = createClient(env.cp.kubeConfig);
    await client.create({
      apiVersion: 'fixtures.tsop.dev/v1',
      kind: 'Gizmo',
      metadata: { name: 'g', namespace: env.namespace },
      spec: { replicas: 3, image: 'x' },
    });
    const cache = await started(true, [GIZMO, metadataOnly(GIZMO)]);
    expect(cache.list<KubeObject>(GIZMO)).toMatchObject([
      { apiVersion: 'fixtures.tsop.dev/v1', kind: 'Gizmo', spec: { replicas: 3, image: 'x' } },
    ]);
    const meta = cache.list<KubeObject>(metadataOnly(GIZMO));
    expect(meta).toMatchObject([{ apiVersion: 'fixtures.tsop.dev/v1', kind: 'Gizmo', metadata: { name: 'g' } }]);
    expect(meta[0]?.['spec']).toBeUndefined();
  });
});
