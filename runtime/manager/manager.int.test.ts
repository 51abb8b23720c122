import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, ensureNamespace, httpGet, isConverged, metricValue, waitFor } from '../test-fixtures/helpers.js';
import { createManager } from './index.js';

const silent = createLogger({ level: 'silent' });

describeWithControlPlane('manager: probes and metrics', {}, (env) => {
  it('fails /readyz until caches sync, then serves counters with controller-runtime labels', async () => {
    const kc = env.cp.kubeConfig;
    const mgr = createManager({
      kubeConfig: kc,
      metricsBindAddress: '127.0.0.1:0',
      healthProbeBindAddress: '127.0.0.1:0',
      registry: new Registry(),
      logger: silent,
    });
    controllerFor(mgr, GIZMO).owns(DEPLOYMENT).complete(gizmoReconciler(mgr.client));
    let failures = 0;
    controllerFor(mgr, { apiVersion: 'v1', kind: 'ConfigMap' })
      .named('flaky')
      .complete({
        async reconcile(req) {
          if (req.name === 'flaky' && failures++ < 2) throw new Error('not yet');
        },
      });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      await waitFor('probe server', () => mgr.healthProbePort !== undefined && mgr.metricsPort !== undefined, 10_000, 20);
      const probe = mgr.healthProbePort!;
      // The Gizmo CRD is not installed yet, so its informer cannot list: the cache cannot sync.
      const early = await httpGet(probe, '/readyz');
      expect(early.status).toBe(500);
      expect(early.body).toContain('[-]cache-sync failed');
      expect((await httpGet(probe, '/healthz')).status).toBe(200);
      expect((await httpGet(probe, '/readyz/ping')).status).toBe(200);

      await env.cp.installCRDs([CRD_DIR]);
      await waitFor('/readyz to pass', async () => (await httpGet(probe, '/readyz')).status === 200, 60_000, 200);

      const client = createClient(kc);
      await ensureNamespace(client, 'metrics');
      await client.create<Gizmo>({ ...GIZMO, metadata: { name: 'g1', namespace: 'metrics' }, spec: { replicas: 2 } });
      await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flaky', namespace: 'metrics' } });
      await waitFor('g1 to converge', async () => isConverged(await client.get<Gizmo>(GIZMO, { namespace: 'metrics', name: 'g1' })));
      await waitFor('flaky to succeed', () => failures >= 3);

      const scrape = async () => (await httpGet(mgr.metricsPort!, '/metrics')).body;
      await waitFor('success counted for flaky', async () =>
        (metricValue(await scrape(), 'controller_runtime_reconcile_total', { controller: 'flaky', result: 'success' }) ?? 0) >= 1,
      );
      const text = await scrape();
      const v = (name: string, labels: Record<string, string>) => metricValue(text, name, labels);
      expect(v('controller_runtime_reconcile_total', { controller: 'gizmo', result: 'success' })).toBeGreaterThanOrEqual(1);
      expect(v('controller_runtime_reconcile_total', { controller: 'flaky', result: 'error' })).toBe(2);
      expect(v('controller_runtime_reconcile_errors_total', { controller: 'flaky' })).toBe(2);
      expect(v('controller_runtime_reconcile_errors_total', { controller: 'gizmo' })).toBeDefined();
      expect(v('controller_runtime_max_concurrent_reconciles', { controller: 'gizmo' })).toBe(1);
      expect(v('controller_runtime_active_workers', { controller: 'gizmo' })).toBe(0);
      expect(v('controller_runtime_reconcile_time_seconds_count', { controller: 'gizmo' })).toBeGreaterThanOrEqual(1);
      expect(v('workqueue_adds_total', { controller: 'flaky', name: 'flaky' })).toBeGreaterThanOrEqual(3);
      expect(v('workqueue_retries_total', { controller: 'flaky', name: 'flaky' })).toBe(2);
      expect(v('workqueue_depth', { controller: 'gizmo', name: 'gizmo' })).toBe(0);
      expect(v('workqueue_work_duration_seconds_count', { controller: 'gizmo', name: 'gizmo' })).toBeGreaterThanOrEqual(1);
      const host = new URL(env.cp.server).host;
      // The Deployment create and the status update went through the manager's client.
      expect(v('rest_client_requests_total', { code: '201', method: 'POST', host })).toBeGreaterThanOrEqual(1);
      expect(v('rest_client_requests_total', { code: '200', method: 'PUT', host })).toBeGreaterThanOrEqual(1);
      expect((await httpGet(mgr.metricsPort!, '/nope')).status).toBe(404);
    } finally {
      ac.abort();
      await run;
    }
  });
});
