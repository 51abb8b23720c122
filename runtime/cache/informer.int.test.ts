import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import type { GroupVersionKind, KubeObject } from '../apimachinery/index.js';
import { openRequestCount, requestJSON } from '../rest/index.js';
import { FakeClock, RealClock } from '../queue/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { Cache, Informer, type EventHandler } from './index.js';

const configMaps: GroupVersionKind = { group: '', version: 'v1', kind: 'ConfigMap' };

type Seen = Array<[string, string, string?]>;

/** Records handler calls as [kind, name, detail]. */
function recorder(seen: Seen): EventHandler<KubeObject> {
  const data = (o: KubeObject): string => JSON.stringify(o['data'] ?? {});
  return {
    onAdd: (o) => seen.push(['add', o.metadata!.name!]),
    onUpdate: (o, n) => seen.push(['update', n.metadata!.name!, `${data(o)}->${data(n)}`]),
    onDelete: (o) => seen.push(['delete', o.metadata!.name!]),
  };
}

async function until(what: string, cond: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function netResources(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TLSWrap' || r === 'TCPSocketWrap' || r === 'TCPWRAP')
    .length;
}

describeWithControlPlane('informer against a real API server', { shared: true }, (env) => {
  const core = (): CoreV1Api => env.cp.kubeConfig.makeApiClient(CoreV1Api);
  const makeConfigMap = (
    namespace: string,
    name: string,
    data: Record<string, string>,
    labels?: Record<string, string>,
  ): Promise<V1ConfigMap> =>
    core().createNamespacedConfigMap({ namespace, body: { metadata: { name, labels }, data } });

  it('lists, then watches adds, updates and deletes; late handlers get synthetic adds', async () => {
    const ns = env.namespace;
    await makeConfigMap(ns, 'pre-1', { v: '1' });
    await makeConfigMap(ns, 'pre-2', { v: '1' });
    const informer = new Informer({ kubeConfig: env.cp.kubeConfig, gvk: configMaps, namespace: ns });
    const seen: Seen = [];
    informer.addEventHandler(recorder(seen));
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    expect(await informer.waitForSync(ac.signal)).toBe(true);
    expect(informer.hasSynced()).toBe(true);
    expect(seen.map((s) => s.join(' ')).sort()).toEqual(['add pre-1', 'add pre-2']);
    // the default transform strips managedFields, which the server does send
    expect(informer.store.get(`${ns}/pre-1`)?.metadata?.managedFields).toBeUndefined();
    expect(informer.store.get(`${ns}/pre-1`)?.kind).toBe('ConfigMap');

    seen.length = 0;
    await makeConfigMap(ns, 'live', { v: '1' });
    await requestJSON(env.cp.kubeConfig, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/live`,
      body: { data: { v: '2' } },
      contentType: 'application/merge-patch+json',
    });
    await core().deleteNamespacedConfigMap({ namespace: ns, name: 'pre-2' });
    await until('three events', () => seen.length >= 3);
    expect(seen).toEqual([
      ['add', 'live'],
      ['update', 'live', '{"v":"1"}->{"v":"2"}'],
      ['delete', 'pre-2'],
    ]);
    expect(informer.store.listKeys().sort()).toEqual([`${ns}/live`, `${ns}/pre-1`]);
    expect(Number(informer.lastSyncResourceVersion)).toBeGreaterThan(0);

    const late: Seen = [];
    informer.addEventHandler(recorder(late));
    expect(late.map((s) => s.join(' ')).sort()).toEqual(['add live', 'add pre-1']);

    ac.abort();
    await running;
  });

  it('pages through a list longer than the page size (watch-list off)', async () => {
    const ns = env.namespace;
    const count = 120;
    for (let i = 0; i < count; i++) await makeConfigMap(ns, `cm-${String(i).padStart(3, '0')}`, { i: String(i) });
    const requests: string[] = [];
    const informer = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: configMaps,
      namespace: ns,
      pageSize: 25,
      watchList: false,
      requestMetrics: { observe: (code, method, host) => requests.push(`${code} ${method} ${host}`) },
    });
    let adds = 0;
    informer.addEventHandler({ onAdd: () => adds++ });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    await informer.waitForSync(ac.signal);
    // one page is 25 objects: all 120 means the continue tokens were followed to the end
    expect(informer.store.size).toBe(count);
    expect(adds).toBe(count);
    // Discovery, every page and the watch are counted for rest_client_requests_total.
    const host = new URL(env.cp.server).host;
    await until('the watch request to be counted', () => requests.length >= 7);
    expect(requests.slice(0, 7)).toEqual(Array(7).fill(`200 GET ${host}`));
    ac.abort();
    await running;
  });

  it('scopes by label and field selector on the server', async () => {
    const ns = env.namespace;
    // The field selector is cluster-wide: a name no other test on the plane uses.
    const db1 = `db-1-${ns}`;
    await makeConfigMap(ns, 'web-1', {}, { app: 'web' });
    await makeConfigMap(ns, db1, {}, { app: 'db' });
    const ac = new AbortController();
    const byLabel = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: configMaps,
      namespace: ns,
      labelSelector: 'app=web',
    });
    const byField = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: configMaps,
      fieldSelector: `metadata.name=${db1}`,
    });
    const runs = [byLabel.run(ac.signal), byField.run(ac.signal)];
    await Promise.all([byLabel.waitForSync(ac.signal), byField.waitForSync(ac.signal)]);
    expect(byLabel.store.listKeys()).toEqual([`${ns}/web-1`]);
    expect(byField.store.listKeys()).toEqual([`${ns}/${db1}`]);
    // a watched change that enters the selector arrives; one outside it does not
    const seen: Seen = [];
    byLabel.addEventHandler(recorder(seen));
    seen.length = 0;
    await makeConfigMap(ns, 'db-2', {}, { app: 'db' });
    await makeConfigMap(ns, 'web-2', {}, { app: 'web' });
    await until('web-2 add', () => seen.length >= 1);
    expect(seen).toEqual([['add', 'web-2']]);
    ac.abort();
    await Promise.all(runs);
  });

  it('shares one informer per kind in the cache and reads through namespace, labels and field indexes', async () => {
    const [nsA, nsB] = [env.namespace, await env.newNamespace()];
    // Cluster-wide reads below select by label and owner: values no other test on the plane uses.
    const [front, back, alice, bob] = ['front', 'back', 'alice', 'bob'].map((v) => `${v}-${nsA}`) as [
      string,
      string,
      string,
      string,
    ];
    await makeConfigMap(nsA, 'x', { owner: alice }, { tier: front });
    await makeConfigMap(nsA, 'y', { owner: bob }, { tier: back });
    await makeConfigMap(nsB, 'z', { owner: alice }, { tier: front });
    const cache = new Cache({ kubeConfig: env.cp.kubeConfig });
    const first = cache.informerFor(configMaps);
    expect(cache.informerFor({ ...configMaps })).toBe(first);
    cache.indexField(configMaps, 'owner', (o) => {
      const owner = (o['data'] as Record<string, string> | undefined)?.['owner'];
      return owner ? [owner] : [];
    });
    expect(cache.has(configMaps)).toBe(true);
    expect(cache.has({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(false);
    const ac = new AbortController();
    const started = cache.start(ac.signal);
    expect(await cache.waitForCacheSync(ac.signal)).toBe(true);

    const names = (objs: KubeObject[]): string[] =>
      objs.map((o) => `${o.metadata!.namespace}/${o.metadata!.name}`).sort();
    expect(names(cache.list(configMaps, { namespace: nsA }))).toEqual([`${nsA}/x`, `${nsA}/y`]);
    expect(names(cache.list(configMaps, { labelSelector: `tier=${front}` }))).toEqual([`${nsA}/x`, `${nsB}/z`]);
    expect(names(cache.list(configMaps, { field: { index: 'owner', value: alice } }))).toEqual([
      `${nsA}/x`,
      `${nsB}/z`,
    ]);
    expect(names(cache.list(configMaps, { namespace: nsB, field: { index: 'owner', value: alice } }))).toEqual([
      `${nsB}/z`,
    ]);

    // reads are copies: mutating one does not change what the next read sees
    const x = cache.get<KubeObject>(configMaps, { namespace: nsA, name: 'x' })!;
    (x['data'] as Record<string, string>)['owner'] = 'mallory';
    expect(cache.get<KubeObject>(configMaps, { namespace: nsA, name: 'x' })!['data']).toEqual({ owner: alice });
    expect(cache.get(configMaps, { namespace: nsA, name: 'nope' })).toBeUndefined();

    // an informer asked for after start runs at once
    const secrets = cache.informerFor({ group: '', version: 'v1', kind: 'Secret' });
    expect(await secrets.waitForSync(ac.signal)).toBe(true);
    // cluster-scoped kinds are keyed by name alone
    const namespaces = { group: '', version: 'v1', kind: 'Namespace' };
    expect(await cache.informerFor(namespaces).waitForSync(ac.signal)).toBe(true);
    expect(cache.get(namespaces, { name: nsA })?.metadata?.name).toBe(nsA);
    ac.abort();
    await started;
  });

  it('resyncs every object as update(old = new) after 10 h ± 10 %, and isolates a throwing handler', async () => {
    const ns = env.namespace;
    await makeConfigMap(ns, 'a', {});
    await makeConfigMap(ns, 'b', {});
    const clock = new FakeClock();
    const handlerErrors: unknown[] = [];
    const informer = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: configMaps,
      namespace: ns,
      clock,
      random: () => 1, // the top of the jitter range: 11 h
      onHandlerError: (e) => handlerErrors.push(e),
    });
    informer.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    const resynced: string[] = [];
    informer.addEventHandler({ onUpdate: (o, n) => resynced.push(`${n.metadata!.name}:${o === n}`) });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    await informer.waitForSync(ac.signal);
    expect(handlerErrors).toHaveLength(2); // both adds reached the throwing handler, the informer went on
    clock.advance(11 * 3600_000 - 1);
    expect(resynced).toEqual([]);
    clock.advance(1);
    expect(resynced.sort()).toEqual(['a:true', 'b:true']);
    clock.advance(11 * 3600_000); // and again, periodically
    expect(resynced).toHaveLength(4);
    ac.abort();
    await running;
    expect(clock.pending()).toBe(0);
  });

  it('leaves no request, socket or timer behind once stopped', async () => {
    const clock = new RealClock();
    const ac = new AbortController();
    const informer = new Informer({ kubeConfig: env.cp.kubeConfig, gvk: configMaps, clock, resyncPeriodMs: 60_000 });
    const running = informer.run(ac.signal);
    await informer.waitForSync(ac.signal);
    await until('the watch to be open', () => openRequestCount() === 1);
    const during = netResources();
    // The resync timer and the open watch's silence clock; over HTTP/2 its connection's PINGs stand in for the probe's timer.
    expect(clock.pending()).toBe(2);
    ac.abort();
    await running;
    expect(clock.pending()).toBe(0);
    await until('the watch connection to close', () => openRequestCount() === 0, 2_000);
    await until('its socket to go', () => netResources() < during, 2_000);
  });
});
