/**
 * Metadata-only reads and watches against a real API server (controller-runtime's OnlyMetadata):
 * a kind made with metadataOnly() is listed, watched and read as PartialObjectMetadata — labels,
 * annotations and owner references arrive, data does not — under its own kind's apiVersion and
 * kind, in an informer of its own beside the whole-object one; and a controller that owns a kind
 * metadata-only is woken by a change to an owned object's metadata.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { metadataOnly, type KubeObject } from '../apimachinery/index.js';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import type { Reconciler } from '../reconcile/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { testManager } from '../testing/manager.js';
import { ensureNamespace } from '../test-fixtures/helpers.js';
import { Cache } from './index.js';

const NS = 'metadata-only';
const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const SECRET = { group: '', version: 'v1', kind: 'Secret' };
const BIG = 'x'.repeat(64 * 1024);

describeWithControlPlane('cache: metadata-only watches and reads', { shared: true }, (env) => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  beforeAll(async () => {
    const client = createClient(env.cp.kubeConfig);
    await ensureNamespace(client, NS);
    for (const name of ['a', 'b']) {
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: NS, labels: { app: name } },
        data: { big: BIG },
      });
    }
  });

  it('lists and watches metadata only, in an informer apart from the whole objects', async () => {
    const cache = new Cache({ kubeConfig: env.cp.kubeConfig, defaultScope: { namespace: NS } });
    const meta = cache.informerFor(metadataOnly(CM));
    const whole = cache.informerFor(CM);
    expect(meta).not.toBe(whole);
    const updates: KubeObject[] = [];
    meta.addEventHandler({ onUpdate: (_, o) => updates.push(o) });
    const ac = new AbortController();
    const run = cache.start(ac.signal);
    stops.push(async () => {
      ac.abort();
      await run;
    });
    expect(await cache.waitForCacheSync()).toBe(true);

    const listed = cache.list<KubeObject>(metadataOnly(CM), { namespace: NS });
    expect(listed.map((o) => o.metadata?.name).sort()).toEqual(['a', 'b']);
    for (const o of listed) {
      expect(o).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
      expect(o['data']).toBeUndefined();
    }
    expect(cache.get<KubeObject>(CM, { namespace: NS, name: 'a' })?.['data']).toEqual({ big: BIG });

    // A change arrives through the watch, still as metadata.
    const client = createClient(env.cp.kubeConfig);
    const a = await client.get<KubeObject>(CM, { namespace: NS, name: 'a' });
    await client.update({ ...a, metadata: { ...a.metadata, labels: { app: 'a', seen: 'yes' } } });
    await expect
      .poll(() => updates.find((o) => o.metadata?.labels?.['seen'] === 'yes'), { timeout: 10_000 })
      .toBeTruthy();
    const updated = updates.find((o) => o.metadata?.labels?.['seen'] === 'yes')!;
    expect(updated).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(updated['data']).toBeUndefined();

    // Reads of the metadata-only kind are served by its informer.
    const reader = createClient(env.cp.kubeConfig, { reader: cache });
    const got = await reader.get(metadataOnly(CM), { namespace: NS, name: 'a' });
    expect(got.metadata?.labels).toEqual({ app: 'a', seen: 'yes' });
    expect((got as KubeObject)['data']).toBeUndefined();
  });

  it('reads metadata only from the API server when nothing caches the kind', async () => {
    const client = createClient(env.cp.kubeConfig);
    const got = await client.get(metadataOnly(CM), { namespace: NS, name: 'b' });
    expect(got).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', labels: { app: 'b' } } });
    expect((got as KubeObject)['data']).toBeUndefined();
    const list = await client.list(metadataOnly(CM), { namespace: NS });
    expect(list.items.map((o) => o.metadata?.name).sort()).toEqual(['a', 'b']);
    for (const o of list.items) {
      expect(o).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
      expect((o as KubeObject)['data']).toBeUndefined();
    }
  });

  it('wakes a controller that owns a kind metadata-only when an owned object changes', async () => {
    const client = createClient(env.cp.kubeConfig);
    const owner = await client.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner', namespace: NS },
    });
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'owned',
        namespace: NS,
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid!, controller: true },
        ],
      },
      stringData: { password: 'not in the cache' },
    });
    const mgr = testManager(env, { namespace: NS });
    const reconciled: string[] = [];
    const reconciler: Reconciler = {
      async reconcile(req) {
        reconciled.push(req.name);
        return {};
      },
    };
    controllerFor(mgr, CM).named('metadata-owner').owns(SECRET, { metadataOnly: true }).complete(reconciler);
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    stops.push(async () => {
      ac.abort();
      await run;
    });
    await expect.poll(() => reconciled.includes('owner'), { timeout: 30_000 }).toBe(true);
    // The Secret's informer holds metadata only; no whole-Secret informer was made.
    expect(mgr.cache.has(metadataOnly(SECRET))).toBe(true);
    expect(mgr.cache.has(SECRET)).toBe(false);
    const cached = mgr.cache.get<KubeObject>(metadataOnly(SECRET), { namespace: NS, name: 'owned' });
    expect(cached?.['data']).toBeUndefined();

    reconciled.length = 0;
    const secret = await client.get<KubeObject>(SECRET, { namespace: NS, name: 'owned' });
    await client.update({ ...secret, metadata: { ...secret.metadata, annotations: { touched: 'yes' } } });
    await expect.poll(() => reconciled.includes('owner'), { timeout: 30_000 }).toBe(true);
  });
});
