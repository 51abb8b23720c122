/**
 * Cache sync has a deadline: a watched kind whose CRD is missing, or whose list RBAC denies,
 * fails start() after cacheSyncTimeoutMs with one line naming the kind and the cause, and
 * /readyz fails until then — against a real API server with RBAC on.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { beforeAll, expect, it } from 'vitest';
import { requestJSON } from '../rest/index.js';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, httpGet, waitFor } from '../test-fixtures/helpers.js';
import { CacheSyncTimeoutError, createManager } from './index.js';
import { testManager } from '../testing/manager.js';

const NS = 'cache-sync';
const silent = createLogger({ level: 'silent' });

/** The admin kubeconfig's cluster with a service account's bearer token as the only credential. */
function kubeConfigWithToken(admin: KubeConfig, token: string): KubeConfig {
  const cluster = admin.getCurrentCluster()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'envtest', server: cluster.server, caData: cluster.caData, skipTLSVerify: false }],
    users: [{ name: 'sa', token }],
    contexts: [{ name: 'sa', cluster: 'envtest', user: 'sa' }],
    currentContext: 'sa',
  });
  return kc;
}

describeWithControlPlane('manager: cache sync deadline', { shared: true }, (env) => {
  let unprivileged: KubeConfig;

  beforeAll(async () => {
    const kc = env.cp.kubeConfig;
    const client = createClient(kc);
    await ensureNamespace(client, NS);
    await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'no-rbac', namespace: NS } });
    const tr = await requestJSON<{ status: { token: string } }>(kc, {
      method: 'POST',
      path: `/api/v1/namespaces/${NS}/serviceaccounts/no-rbac/token`,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    });
    unprivileged = kubeConfigWithToken(kc, tr.status.token);
  });

  it('fails start() naming the kind whose CRD is missing, with /readyz failing until then', async () => {
    const mgr = testManager(env, {
      healthProbeBindAddress: '127.0.0.1:0',
      logger: silent,
      cacheSyncTimeoutMs: 2_000,
    });
    let reconciles = 0;
    controllerFor(mgr, { apiVersion: 'nowhere.tsop.dev/v1', kind: 'Phantom' }).complete({
      reconcile: async () => void reconciles++,
    });
    const started = performance.now();
    const run = mgr.start(new AbortController().signal);
    const outcome = run.then(
      () => undefined,
      (err: unknown) => err,
    );
    await waitFor('probe server', () => mgr.healthProbePort !== undefined, 10_000, 10);
    const ready = await httpGet(mgr.healthProbePort!, '/readyz');
    expect(ready.status).toBe(500);
    expect(ready.body).toContain('[-]cache-sync failed');

    const err = await outcome;
    expect(err).toBeInstanceOf(CacheSyncTimeoutError);
    const message = (err as Error).message;
    expect(message).toContain('Phantom (nowhere.tsop.dev/v1)');
    expect(message).toContain('no matches for kind "Phantom"');
    expect(message).toContain('is its CRD installed?');
    expect(message).not.toContain('\n');
    expect((err as CacheSyncTimeoutError).unsynced.map((u) => u.gvk.kind)).toEqual(['Phantom']);
    // Not before the deadline.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(reconciles).toBe(0);
  });

  it('fails start() naming the kind a ServiceAccount may not list, and says to grant list and watch', async () => {
    const mgr = createManager({
      kubeConfig: unprivileged,
      metricsBindAddress: '0',
      registry: new Registry(),
      logger: silent,
      cacheSyncTimeoutMs: 2_000,
    });
    controllerFor(mgr, { apiVersion: 'v1', kind: 'ConfigMap' }).complete({ reconcile: async () => {} });
    const err = await mgr.start(new AbortController().signal).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CacheSyncTimeoutError);
    const message = (err as Error).message;
    expect(message).toMatch(/^manager: caches not synced after 2000 ms/);
    expect(message).toContain('ConfigMap (v1): list failed (403 Forbidden)');
    expect(message).toContain('system:serviceaccount:cache-sync:no-rbac');
    expect(message).toContain('grant list and watch');
  });

  it('starts as usual when every kind syncs in time', async () => {
    const mgr = testManager(env, {
      logger: silent,
      cacheSyncTimeoutMs: 60_000,
    });
    controllerFor(mgr, { apiVersion: 'v1', kind: 'Secret' }).complete({ reconcile: async () => {} });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      await mgr.elected();
      expect(mgr.cache.unsynced()).toEqual([]);
    } finally {
      ac.abort();
      await run;
    }
  });
});
