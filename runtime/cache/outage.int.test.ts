import { CoreV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import type { GroupVersionKind, KubeObject } from '../apimachinery/index.js';
import { requestJSON } from '../rest/index.js';
import { FakeClock } from '../queue/index.js';
import { apiServerOutage, describeWithControlPlane } from '../testing/control-plane.js';
import { Informer, type WatchErrorInfo } from './index.js';

const configMaps: GroupVersionKind = { group: '', version: 'v1', kind: 'ConfigMap' };

async function until(what: string, cond: () => boolean, timeoutMs = 30_000, tick?: () => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    tick?.();
    await new Promise((r) => setTimeout(r, 50));
  }
}

function record(informer: Informer, seen: string[]): void {
  informer.addEventHandler({
    onAdd: (o: KubeObject) => seen.push(`add ${o.metadata!.name}`),
    onUpdate: (o: KubeObject, n: KubeObject) =>
      seen.push(`update ${n.metadata!.name} ${JSON.stringify(o['data'])}->${JSON.stringify(n['data'])}`),
    onDelete: (o: KubeObject) => seen.push(`delete ${o.metadata!.name}`),
  });
}

describeWithControlPlane('informer through API server outages and etcd compaction', {}, (env) => {
  const core = (): CoreV1Api => env.cp.kubeConfig.makeApiClient(CoreV1Api);
  const put = (ns: string, name: string, v: string): Promise<unknown> =>
    core().createNamespacedConfigMap({ namespace: ns, body: { metadata: { name }, data: { v } } });
  const patch = (ns: string, name: string, v: string): Promise<unknown> =>
    requestJSON(env.cp.kubeConfig, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/${name}`,
      body: { data: { v } },
      contentType: 'application/merge-patch+json',
    });

  it('after missing changes and a compaction, relists (410) and emits exactly the difference', async () => {
    await core().createNamespace({ body: { metadata: { name: 'compacted' } } });
    for (const name of ['keep', 'change', 'gone']) await put('compacted', name, '1');
    // A fake clock freezes the reconnect backoff, so the test decides when the watcher comes back.
    const clock = new FakeClock();
    const errors: WatchErrorInfo[] = [];
    const informer = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: configMaps,
      namespace: 'compacted',
      clock,
      resyncPeriodMs: 0,
      onWatchError: (e) => errors.push(e),
    });
    const seen: string[] = [];
    record(informer, seen);
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    await informer.waitForSync(ac.signal);
    const syncedRV = Number(informer.lastSyncResourceVersion);
    seen.length = 0;

    await env.cp.stopApiServer();
    // The watch is lost: the API server ends it as it shuts down (a quiet close, which is no
    // error) or the next watch is refused (an error). Either way the watcher then waits for its
    // backoff timer on the frozen clock. The server has exited, so no watch can be open once the
    // stream's end has reached the informer, which takes far less than this second.
    await new Promise((r) => setTimeout(r, 1_000));
    await until('the watcher to back off', () => clock.pending() > 0);
    await env.cp.startApiServer();
    await core().deleteNamespacedConfigMap({ namespace: 'compacted', name: 'gone' });
    await patch('compacted', 'change', '2');
    await put('compacted', 'new', '1');
    const revision = await env.cp.compactEtcd();
    expect(revision).toBeGreaterThan(syncedRV);

    // release the backoff (repeatedly, in case a reconnect attempt races the restart)
    await until(
      'the relist to deliver the difference',
      () => seen.length >= 3,
      30_000,
      () => clock.advance(60_000),
    );
    expect(errors.some((e) => e.code === 410 && e.relist)).toBe(true);
    expect(seen.sort()).toEqual(['add new', 'delete gone', 'update change {"v":"1"}->{"v":"2"}']);
    expect(informer.store.listKeys().sort()).toEqual(['compacted/change', 'compacted/keep', 'compacted/new']);

    // and the watch is live again after the relist
    await put('compacted', 'after', '1');
    await until('a live add after the relist', () => seen.includes('add after'));
    ac.abort();
    await running;
    expect(clock.pending()).toBe(0);
  });

  it('resumes after the API server is down for 5 s and sees changes made after the restart', async () => {
    await core().createNamespace({ body: { metadata: { name: 'outage' } } });
    await put('outage', 'before', '1');
    const errors: WatchErrorInfo[] = [];
    const informer = new Informer({
      kubeConfig: env.cp.kubeConfig,
      gvk: configMaps,
      namespace: 'outage',
      onWatchError: (e) => errors.push(e),
    });
    const seen: string[] = [];
    record(informer, seen);
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    await informer.waitForSync(ac.signal);
    seen.length = 0;

    // From the stop call to the first answer. Only the lower bound is the informer's business: how
    // long a stop and a restart take depends on the machine's load (the stop's speed with a watch
    // open is control-plane.int's test).
    const outageMs = await apiServerOutage(env.cp, 5_000);
    expect(outageMs).toBeGreaterThan(2_500);
    await put('outage', 'after', '1');
    await patch('outage', 'before', '2');
    // worst case the watcher is in a 6.4 s (+25 %) backoff when the server returns
    await until('changes made after the restart', () => seen.length >= 2, 40_000);
    expect(seen).toEqual(['add after', 'update before {"v":"1"}->{"v":"2"}']);
    expect(errors.length).toBeGreaterThan(0); // the outage was noticed, not slept through
    expect(informer.hasSynced()).toBe(true);
    ac.abort();
    await running;
  });
});
