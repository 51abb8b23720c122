/**
 * Reads say what they cannot answer, against a real API server: a read outside the cache's
 * namespace or with a namespace on a cluster-scoped kind is a CacheScopeError, a read before
 * the first list waits for it (or fails with CacheNotStartedError) instead of answering
 * NotFound, and a byObject entry inherits the default namespace.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { createClient, NotFoundError } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace } from '../test-fixtures/helpers.js';
import { Cache, CacheNotStartedError, CacheScopeError } from './index.js';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const SECRET = { group: '', version: 'v1', kind: 'Secret' };
const NAMESPACE = { group: '', version: 'v1', kind: 'Namespace' };
const PHANTOM = { group: 'nowhere.tsop.dev', version: 'v1', kind: 'Phantom' };

describeWithControlPlane('cache: reads say what they cannot answer', { shared: true }, (env) => {
  const stops: Array<{ ac: AbortController; run: Promise<void> }> = [];

  function started(cache: Cache): Cache {
    const ac = new AbortController();
    stops.push({ ac, run: cache.start(ac.signal) });
    return cache;
  }

  beforeAll(async () => {
    const client = createClient(env.cp.kubeConfig);
    for (const ns of ['reads-a', 'reads-b']) {
      await ensureNamespace(client, ns);
      await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: ns } });
      await client.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: ns, labels: { app: 'x' } },
      });
    }
  });

  afterEach(async () => {
    for (const s of stops.splice(0)) {
      s.ac.abort();
      await s.run;
    }
  });

  it('refuses reads outside the namespace it watches and namespaces on cluster-scoped kinds', async () => {
    const cache = new Cache({
      kubeConfig: env.cp.kubeConfig,
      defaultScope: { namespace: 'reads-a' },
      // Only a label: the namespace is inherited from the default scope.
      byObject: [{ gvk: SECRET, labelSelector: 'app=x' }],
    });
    for (const gvk of [CM, SECRET, NAMESPACE]) cache.informerFor(gvk);
    started(cache);
    expect(await cache.waitForCacheSync()).toBe(true);
    const client = createClient(env.cp.kubeConfig, { reader: cache });

    expect((await client.get(CM, { namespace: 'reads-a', name: 'cm' })).metadata?.namespace).toBe('reads-a');
    const other = await client.get(CM, { namespace: 'reads-b', name: 'cm' }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(CacheScopeError);
    expect((other as Error).message).toBe(
      'the cache holds ConfigMap (v1) only from namespace "reads-a", so "reads-b/cm" is outside it: ' +
        'read it with client.apiReader(), or widen the cache (cache.byObject namespace, or no manager namespace)',
    );
    await expect(client.list(CM, { namespace: 'reads-b' })).rejects.toBeInstanceOf(CacheScopeError);
    // A miss inside the scope is still an honest NotFound.
    await expect(client.get(CM, { namespace: 'reads-a', name: 'absent' })).rejects.toBeInstanceOf(NotFoundError);

    const ns = await client.get(NAMESPACE, { namespace: 'reads-a', name: 'reads-a' }).catch((e: unknown) => e);
    expect(ns).toBeInstanceOf(CacheScopeError);
    expect((ns as Error).message).toContain(
      'Namespace (v1) is cluster-scoped but the key "reads-a/reads-a" names a namespace',
    );
    expect((await client.get(NAMESPACE, { name: 'reads-b' })).metadata?.name).toBe('reads-b');
    await expect(client.get(CM, { name: 'cm' })).rejects.toThrow(
      'ConfigMap (v1) "cm" is namespaced but no namespace was given',
    );

    // byObject inherited the default namespace: the Secret in reads-b was never listed or watched.
    expect((await client.list(SECRET)).items.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`)).toEqual([
      'reads-a/s',
    ]);
    await expect(client.get(SECRET, { namespace: 'reads-b', name: 's' })).rejects.toBeInstanceOf(CacheScopeError);
  });

  it('byObject namespace "" widens one kind to every namespace', async () => {
    const cache = new Cache({
      kubeConfig: env.cp.kubeConfig,
      defaultScope: { namespace: 'reads-a' },
      byObject: [{ gvk: SECRET, namespace: '', labelSelector: 'app=x' }],
    });
    cache.informerFor(SECRET);
    started(cache);
    expect(await cache.waitForCacheSync()).toBe(true);
    const names = cache.list(SECRET).map((s) => s.metadata?.namespace);
    expect(names.filter((n) => n?.startsWith('reads-')).sort()).toEqual(['reads-a', 'reads-b']);
    expect(cache.get(SECRET, { namespace: 'reads-b', name: 's' })?.metadata?.name).toBe('s');
  });

  it('answers NotFound for an object its label selector filters out (as controller-runtime), or says why with selectorMisses: error', async () => {
    const client0 = createClient(env.cp.kubeConfig);
    await client0.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unlabelled', namespace: 'reads-a' } });
    const scoped = (selectorMisses?: 'notFound' | 'error'): Cache => {
      const cache = new Cache({
        kubeConfig: env.cp.kubeConfig,
        byObject: [{ gvk: SECRET, labelSelector: 'app=x' }],
        selectorMisses,
      });
      cache.informerFor(SECRET);
      return started(cache);
    };
    const lenient = scoped();
    expect(await lenient.waitForCacheSync()).toBe(true);
    const key = { namespace: 'reads-a', name: 'unlabelled' };
    await expect(createClient(env.cp.kubeConfig, { reader: lenient }).get(SECRET, key)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const strict = scoped('error');
    expect(await strict.waitForCacheSync()).toBe(true);
    const client = createClient(env.cp.kubeConfig, { reader: strict });
    const err = await client.get(SECRET, key).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheScopeError);
    expect((err as Error).message).toBe(
      'Secret (v1) "reads-a/unlabelled" is not in the cache, which holds only objects matching labelSelector "app=x": ' +
        'it may exist outside it; read it with client.apiReader(), or widen cache.byObject',
    );
    // What the selector admits is read as ever, and the object does exist for a direct read.
    expect((await client.get(SECRET, { namespace: 'reads-a', name: 's' })).metadata?.name).toBe('s');
    expect((await client.apiReader().get(SECRET, key)).metadata?.name).toBe('unlabelled');
  });

  it('never answers NotFound before the first list: waits for it, or says the cache is not started', async () => {
    const cache = new Cache({ kubeConfig: env.cp.kubeConfig });
    cache.informerFor(CM);
    cache.informerFor(PHANTOM);
    const client = createClient(env.cp.kubeConfig, { reader: cache });
    const key = { namespace: 'reads-a', name: 'cm' };

    const early = await client.get(CM, key).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(CacheNotStartedError);
    expect((early as Error).message).toBe(
      'cannot read ConfigMap (v1) from the cache: the cache is not started (start the manager first)',
    );
    expect(() => cache.get(CM, key)).toThrow(CacheNotStartedError);

    started(cache);
    // Right after start nothing is listed yet; the read waits for the list and finds the object.
    expect((await client.get(CM, key)).metadata?.name).toBe('cm');
    expect((await client.list(CM, { namespace: 'reads-b' })).items).toHaveLength(1);

    // A kind that never syncs (no CRD): the caller's signal bounds the wait.
    const phantom = await client
      .get(PHANTOM, { namespace: 'reads-a', name: 'x' }, { signal: AbortSignal.timeout(300) })
      .catch((e: unknown) => e);
    expect(phantom).toBeInstanceOf(CacheNotStartedError);
    expect((phantom as Error).message).toBe(
      'cannot read Phantom (nowhere.tsop.dev/v1) from the cache: the read was cancelled before its first list was stored',
    );
    expect(() => cache.list(PHANTOM)).toThrow(/is its CRD installed\?/);
  });
});
