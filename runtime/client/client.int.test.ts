import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gvkString, type GroupVersionKind, type KubeObject, type ObjectKey } from '../apimachinery/index.js';
import { Cache } from '../cache/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { clientContract, CM, GADGET, NS, type ConfigMap, type Gadget } from './client.contract.js';
import {
  AlreadyExistsError,
  applyPatch,
  CacheMissError,
  ClientUsageError,
  ConflictError,
  createClient,
  ignoreNotFound,
  InvalidError,
  isConflict,
  jsonPatch,
  mergeFrom,
  mergePatch,
  NoKindMatchError,
  NotFoundError,
  strategicMergePatch,
  TransportError,
  type CacheReader,
  type Client,
} from './index.js';

const crds = fileURLToPath(new URL('./testdata/', import.meta.url));

const configMap = (name: string, data: Record<string, string> = {}): ConfigMap => ({
  ...CM,
  metadata: { name, namespace: NS },
  data,
});
const gadget = (name: string, size: number): Gadget => ({
  ...GADGET,
  metadata: { name, namespace: NS },
  spec: { size },
});

/** A CacheReader over a plain map: stands in for the informer store, filled from real API objects. */
class MapReader implements CacheReader {
  readonly objects = new Map<string, KubeObject>();
  constructor(private readonly kinds: GroupVersionKind[]) {}
  has(gvk: GroupVersionKind): boolean {
    return this.kinds.some((k) => gvkString(k) === gvkString(gvk));
  }
  put(gvk: GroupVersionKind, obj: KubeObject): void {
    this.objects.set(`${gvkString(gvk)}|${obj.metadata?.namespace}/${obj.metadata?.name}`, obj);
  }
  get<T extends KubeObject>(gvk: GroupVersionKind, key: ObjectKey): T | undefined {
    const found = this.objects.get(`${gvkString(gvk)}|${key.namespace}/${key.name}`);
    return found && (structuredClone(found) as T);
  }
  list<T extends KubeObject>(gvk: GroupVersionKind, opts: { namespace?: string } = {}): T[] {
    return [...this.objects.entries()]
      .filter(
        ([k, o]) => k.startsWith(`${gvkString(gvk)}|`) && (!opts.namespace || o.metadata?.namespace === opts.namespace),
      )
      .map(([, o]) => structuredClone(o) as T);
  }
}

describeWithControlPlane('client against the API server', { crdDirectoryPaths: [crds] }, (env) => {
  let seq = 0;
  const uniq = (p: string): string => `${p}-${++seq}`;
  const client = (): Client => createClient(env.cp.kubeConfig, { fieldOwner: 'tsop-test' });

  describe('shared client contract', () => {
    clientContract(client);
  });

  it('create, get, list (with apiVersion/kind on items), update, delete a core object', async () => {
    const c = client();
    const name = uniq('cm');
    const created = await c.create(configMap(name, { a: '1' }));
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const got = await c.get<ConfigMap>(CM, { namespace: NS, name });
    expect(got.data).toEqual({ a: '1' });
    got.data = { a: '2' };
    const updated = await c.update(got);
    expect(updated.data).toEqual({ a: '2' });
    expect(updated.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
    const list = await c.list<ConfigMap>(CM, { namespace: NS, labelSelector: '' });
    const item = list.items.find((i) => i.metadata?.name === name);
    expect(item).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '2' } });
    expect(list.metadata.resourceVersion).toMatch(/^\d+$/);
    await c.delete(updated);
    await expect(c.get(CM, { namespace: NS, name })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('update with a stale resourceVersion fails with ConflictError (409)', async () => {
    const c = client();
    const first = await c.create(configMap(uniq('cm'), { v: '0' }));
    await c.update({ ...first, data: { v: '1' } });
    const err = await c.update({ ...first, data: { v: 'stale' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(isConflict(err)).toBe(true);
    expect((err as ConflictError).statusCode).toBe(409);
    expect((err as ConflictError).reason).toBe('Conflict');
  });

  it('create of an existing name fails with AlreadyExistsError; NotFound can be ignored', async () => {
    const c = client();
    const cm = configMap(uniq('cm'));
    await c.create(cm);
    await expect(c.create(cm)).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(c.get(CM, { namespace: NS, name: 'does-not-exist' }).catch(ignoreNotFound)).resolves.toBeUndefined();
    await expect(c.delete(configMap('does-not-exist')).catch(ignoreNotFound)).resolves.toBeUndefined();
  });

  it('a schema violation fails with InvalidError (422) listing the field causes', async () => {
    const err = await client()
      .create({ ...gadget(uniq('g'), 0), spec: { size: 0, color: 'purple' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidError);
    const invalid = err as InvalidError;
    expect(invalid.statusCode).toBe(422);
    expect(invalid.details?.kind).toBe('Gadget');
    expect(invalid.causes.map((c) => c.field).sort()).toEqual(['spec.color', 'spec.size']);
  });

  it('merge patch, mergeFrom with optimistic lock, JSON patch and strategic merge patch', async () => {
    const c = client();
    const g = await c.create({ ...gadget(uniq('g'), 1), spec: { size: 1, color: 'red', tags: ['a'] } });
    const merged = await c.patch(g, mergePatch({ spec: { color: null, size: 2 } }));
    expect(merged.spec).toEqual({ size: 2, tags: ['a'] });

    const before = structuredClone(merged);
    const edited = structuredClone(merged);
    edited.spec.tags = ['a', 'b'];
    const fromDiff = await c.patch(edited, mergeFrom(before, { optimisticLock: true }));
    expect(fromDiff.spec).toEqual({ size: 2, tags: ['a', 'b'] });
    // The same optimistic patch again carries the now stale resourceVersion.
    await expect(c.patch(edited, mergeFrom(before, { optimisticLock: true }))).rejects.toBeInstanceOf(ConflictError);

    const jp = await c.patch(
      fromDiff,
      jsonPatch([
        { op: 'add', path: '/spec/tags/-', value: 'c' },
        { op: 'replace', path: '/spec/size', value: 5 },
      ]),
    );
    expect(jp.spec).toEqual({ size: 5, tags: ['a', 'b', 'c'] });

    const cm = await c.create(configMap(uniq('cm'), { x: '1' }));
    const smp = await c.patch(cm, strategicMergePatch({ data: { y: '2' } }));
    expect(smp.data).toEqual({ x: '1', y: '2' });
  });

  it('server-side apply: conflicts between managers without force, ownership taken with force', async () => {
    const c = client();
    const name = uniq('g');
    const applied = await c.apply({ ...gadget(name, 2), spec: { size: 2 } }, { fieldManager: 'alpha' });
    expect(applied.spec.size).toBe(2);
    const err = await c.apply(gadget(name, 3), { fieldManager: 'beta' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).details?.causes?.[0]?.field).toBe('.spec.size');
    const forced = await c.apply(gadget(name, 3), { fieldManager: 'beta', force: true });
    expect(forced.spec.size).toBe(3);
    const managers = (forced.metadata?.managedFields ?? []).map((m) => m.manager);
    expect(managers).toContain('beta');
    // alpha owned only spec.size and lost it, so its entry is gone
    expect(managers).not.toContain('alpha');
    // apply without any field manager is refused before a request is made
    await expect(createClient(env.cp.kubeConfig).apply(gadget(name, 4))).rejects.toBeInstanceOf(ClientUsageError);
  });

  it('status subresource: status().update/patch write only status; update ignores status', async () => {
    const c = client();
    const g = await c.create(gadget(uniq('g'), 1));
    const withStatus = await c
      .status()
      .update({ ...g, spec: { size: 9 }, status: { phase: 'Ready', observedSize: 1 } });
    expect(withStatus.status).toEqual({ phase: 'Ready', observedSize: 1 });
    expect(withStatus.spec.size).toBe(1); // spec change through /status is dropped
    const specOnly = await c.update({ ...withStatus, spec: { size: 4 }, status: { phase: 'Ignored' } });
    expect(specOnly.spec.size).toBe(4);
    expect(specOnly.status?.phase).toBe('Ready'); // status change through the main resource is dropped
    const patched = await c.status().patch(specOnly, mergePatch({ status: { observedSize: 4 } }));
    expect(patched.status).toEqual({ phase: 'Ready', observedSize: 4 });
    expect(patched.metadata?.generation).toBe(specOnly.metadata?.generation);
  });

  it('server-side apply through the status subresource sets only status', async () => {
    const c = client();
    const g = await c.create(gadget(uniq('g'), 1));
    const applied = await c.status().patch<Gadget>(
      {
        ...GADGET,
        metadata: { name: g.metadata!.name!, namespace: NS },
        spec: { size: 7 },
        status: { phase: 'Applied' },
      },
      applyPatch,
      { fieldManager: 'status-owner', force: true },
    );
    expect(applied.status).toEqual({ phase: 'Applied' });
    expect(applied.spec.size).toBe(1);
    expect(
      applied.metadata?.managedFields?.some((m) => m.manager === 'status-owner' && m.subresource === 'status'),
    ).toBe(true);
  });

  it('delete honours preconditions and dryRun', async () => {
    const c = client();
    const cm = await c.create(configMap(uniq('cm')));
    const wrongUid = await c
      .delete(cm, { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } })
      .catch((e: unknown) => e);
    expect(wrongUid).toBeInstanceOf(ConflictError);
    await c.delete(cm, { dryRun: true, propagationPolicy: 'Foreground' });
    const still = await c.get(CM, { namespace: NS, name: cm.metadata!.name! });
    expect(still.metadata?.deletionTimestamp).toBeUndefined();
    expect(still.metadata?.resourceVersion).toBe(cm.metadata?.resourceVersion);
    await c.delete(cm, {
      propagationPolicy: 'Background',
      preconditions: { uid: cm.metadata!.uid!, resourceVersion: cm.metadata!.resourceVersion! },
    });
    await expect(c.get(CM, { namespace: NS, name: cm.metadata!.name! })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reads watched kinds through the CacheReader and other kinds directly', async () => {
    const gvk = { group: '', version: 'v1', kind: 'ConfigMap' };
    const reader = new MapReader([gvk]);
    const direct = client();
    const live = await direct.create(configMap(uniq('cm'), { source: 'server' }));
    const { apiVersion: _a, kind: _k, ...untyped } = live;
    reader.put(gvk, { ...untyped, data: { source: 'cache' } });
    const c = createClient(env.cp.kubeConfig, { reader });
    const key = { namespace: NS, name: live.metadata!.name! };

    const fromCache = await c.get<ConfigMap>(CM, key);
    expect(fromCache.data).toEqual({ source: 'cache' });
    expect(fromCache).toMatchObject(CM); // type meta restored
    expect(reader.objects.values().next().value).not.toHaveProperty('kind'); // without touching the store
    expect((await c.list<ConfigMap>(CM, { namespace: NS })).items.map((i) => i.data?.['source'])).toEqual(['cache']);
    await expect(c.get(CM, { namespace: NS, name: 'not-in-cache' })).rejects.toBeInstanceOf(NotFoundError);

    // server-only queries and the API reader bypass the cache
    const byField = await c.list<ConfigMap>(CM, { namespace: NS, fieldSelector: `metadata.name=${key.name}` });
    expect(byField.items.map((i) => i.data?.['source'])).toEqual(['server']);
    expect((await c.apiReader().get<ConfigMap>(CM, key)).data).toEqual({ source: 'server' });

    // kinds the cache does not watch: direct by default, an error by policy
    const g = await direct.create(gadget(uniq('g'), 1));
    expect((await c.get<Gadget>(GADGET, { namespace: NS, name: g.metadata!.name! })).spec.size).toBe(1);
    const strict = createClient(env.cp.kubeConfig, { reader, cacheMissPolicy: 'error' });
    await expect(strict.get(GADGET, { namespace: NS, name: g.metadata!.name! })).rejects.toBeInstanceOf(CacheMissError);
  });

  it('reads through the real informer cache: writes show up once the watch delivers them', async () => {
    const gvk = { group: '', version: 'v1', kind: 'ConfigMap' };
    const cache = new Cache({ kubeConfig: env.cp.kubeConfig, defaultScope: { namespace: NS } });
    cache.informerFor(gvk);
    const stop = new AbortController();
    const running = cache.start(stop.signal);
    try {
      expect(await cache.waitForCacheSync(stop.signal)).toBe(true);
      const requests: string[] = [];
      const c = createClient(env.cp.kubeConfig, {
        reader: cache,
        metrics: { observe: (code, method) => requests.push(`${code} ${method}`) },
      });
      const name = uniq('cm');
      await c.create({ ...configMap(name, { v: '1' }), metadata: { name, namespace: NS, labels: { app: 'cached' } } });
      const deadline = Date.now() + 5_000;
      let got: ConfigMap | undefined;
      while (!got && Date.now() < deadline) {
        got = await c.get<ConfigMap>(CM, { namespace: NS, name }).catch(ignoreNotFound);
        if (!got) await new Promise((r) => setTimeout(r, 20));
      }
      expect(got).toMatchObject({ ...CM, data: { v: '1' } });
      const listed = await c.list<ConfigMap>(CM, { namespace: NS, labelSelector: 'app=cached' });
      expect(listed.items.map((i) => i.metadata?.name)).toEqual([name]);
      // Only discovery (the client's own RESTMapper) and the write reached the API server.
      expect(requests).toEqual(['200 GET', '201 POST']);
    } finally {
      stop.abort();
      await running;
    }
  });

  it('counts every request by code, method and host', async () => {
    const seen: string[] = [];
    const c = createClient(env.cp.kubeConfig, {
      metrics: { observe: (code, method, host) => seen.push(`${code} ${method} ${host}`) },
    });
    const host = new URL(env.cp.server).host;
    const cm = configMap(uniq('cm'));
    await c.create(cm);
    await c.get(CM, { namespace: NS, name: 'missing' }).catch(ignoreNotFound);
    await c.create(cm).catch(() => undefined);
    // The first is discovery of ConfigMap's resource, counted as client-go counts it.
    expect(seen).toEqual([`200 GET ${host}`, `201 POST ${host}`, `404 GET ${host}`, `409 POST ${host}`]);
  });

  it('fails with TransportError while the API server is down and works again after it restarts', async () => {
    const c = client();
    const cm = await c.create(configMap(uniq('cm'), { v: '1' }));
    const key = { namespace: NS, name: cm.metadata!.name! };
    await c.get(CM, key); // leaves a kept-alive connection in the pool
    await env.cp.stopApiServer();
    try {
      await expect(c.get(CM, key)).rejects.toBeInstanceOf(TransportError);
    } finally {
      await env.cp.startApiServer();
    }
    expect((await c.get<ConfigMap>(CM, key)).data).toEqual({ v: '1' });
  });

  it('logs API server warnings once each, e.g. an unknown field the server dropped', async () => {
    const dest = memoryDestination();
    const c = createClient(env.cp.kubeConfig, { logger: createLogger({ level: 'info', destination: dest }) });
    const bogus = (name: string): Gadget => ({ ...gadget(name, 1), spec: { size: 1, bogus: true } as Gadget['spec'] });
    const created = await c.create(bogus(uniq('g')));
    expect(created.spec).toEqual({ size: 1 });
    await c.create(bogus(uniq('g')));
    const warnings = dest.records().filter((r) => r['msg'] === 'API server warning');
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.['warning'])).toContain('unknown field "spec.bogus"');
  });

  it('refuses objects that do not name themselves', async () => {
    const c = client();
    await expect(c.create({ ...CM, metadata: { name: 'x' } })).rejects.toThrow(/namespaced but no namespace/);
    await expect(c.create({ metadata: { name: 'x', namespace: NS } })).rejects.toBeInstanceOf(ClientUsageError);
    await expect(
      c.get({ apiVersion: 'nope.tsop.dev/v1', kind: 'Missing' }, { namespace: NS, name: 'x' }),
    ).rejects.toBeInstanceOf(NoKindMatchError);
  });
});

describe('client without a server', () => {
  it('surfaces connection failures as TransportError', async () => {
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const c = createClient(kc, { restMapper: undefined });
    await expect(c.apiReader().get(CM, { namespace: NS, name: 'a' })).rejects.toBeInstanceOf(TransportError);
  });
});
