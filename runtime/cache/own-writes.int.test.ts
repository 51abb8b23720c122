/**
 * Read your own writes, against a real API server: a cached read right after this process
 * wrote the object returns that write, not the version the informer held a moment before —
 * so a reconcile re-queued by its own change (at once, now that changes jump the initial list)
 * does not act on stale state and fail with a conflict.
 */
import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace } from '../test-fixtures/helpers.js';
import { Cache } from './index.js';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

describeWithControlPlane("cache: reads see this process's own writes", { shared: true }, (env) => {
  it('returns the written version on the read that follows each write', async () => {
    const admin = createClient(env.cp.kubeConfig);
    await ensureNamespace(admin, 'own-writes');
    const cache = new Cache({ kubeConfig: env.cp.kubeConfig, defaultScope: { namespace: 'own-writes' } });
    cache.informerFor({ group: '', version: 'v1', kind: 'ConfigMap' });
    const ac = new AbortController();
    const running = cache.start(ac.signal);
    try {
      expect(await cache.waitForCacheSync(ac.signal)).toBe(true);
      const client = createClient(env.cp.kubeConfig, { reader: cache });
      let cm = await client.create<KubeObject>({
        ...CM,
        metadata: { name: 'counter', namespace: 'own-writes' },
        data: { n: '0' },
      });
      const key = { namespace: 'own-writes', name: 'counter' };
      const stale: number[] = [];
      for (let i = 1; i <= 30; i++) {
        const read = await client.get<KubeObject>(CM, key);
        if (read.metadata?.resourceVersion !== cm.metadata?.resourceVersion) stale.push(i);
        cm = await client.update<KubeObject>({ ...read, data: { n: String(i) } });
      }
      expect(stale).toEqual([]);
      expect((await client.get<KubeObject>(CM, key))['data']).toEqual({ n: '30' });
    } finally {
      ac.abort();
      await running;
    }
  });
});
