import { Registry } from 'prom-client';
import type { KubeObject } from '../apimachinery/index.js';
import { expect, it } from 'vitest';
import { controllerFor } from '../builder/index.js';
import { createClient } from '../client/index.js';
import { createLogger } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { DEPLOYMENT, GIZMO, gizmoReconciler, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, httpGet, isConverged, metricValue, waitFor } from '../test-fixtures/helpers.js';
import { createManager, LeaderElectionLostError, ShutdownTimeoutError } from './index.js';
import { testManager } from '../testing/manager.js';

const silent = createLogger({ level: 'silent' });

describeWithControlPlane('manager: probes and metrics', { shared: true }, (env) => {
  it('fails /readyz until caches sync, then serves counters with controller-runtime labels', async () => {
    const kc = env.cp.kubeConfig;
    const mgr = createManager({
      kubeConfig: kc,
      // The test's namespace: other suites' ConfigMaps on a shared plane are not this test's to reconcile.
      namespace: env.namespace,
      metricsBindAddress: '127.0.0.1:0',
      healthProbeBindAddress: '127.0.0.1:0',
      registry: new Registry(),
      logger: silent,
    });
    const recorder = mgr.getEventRecorderFor('gizmo-controller');
    controllerFor(mgr, GIZMO).owns(DEPLOYMENT).complete(gizmoReconciler(mgr.client, { recorder }));
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
      await waitFor(
        'probe server',
        () => mgr.healthProbePort !== undefined && mgr.metricsPort !== undefined,
        10_000,
        20,
      );
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
      await client.create<Gizmo>({
        ...GIZMO,
        metadata: { name: 'g1', namespace: env.namespace },
        spec: { replicas: 2 },
      });
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'flaky', namespace: env.namespace },
      });
      await waitFor('g1 to converge', async () =>
        isConverged(await client.get<Gizmo>(GIZMO, { namespace: env.namespace, name: 'g1' })),
      );
      await waitFor('flaky to succeed', () => failures >= 3);

      const scrape = async () => (await httpGet(mgr.metricsPort!, '/metrics')).body;
      await waitFor(
        'success counted for flaky',
        async () =>
          (metricValue(await scrape(), 'controller_runtime_reconcile_total', {
            controller: 'flaky',
            result: 'success',
          }) ?? 0) >= 1,
      );
      const text = await scrape();
      const v = (name: string, labels: Record<string, string>) => metricValue(text, name, labels);
      expect(
        v('controller_runtime_reconcile_total', { controller: 'gizmo', result: 'success' }),
      ).toBeGreaterThanOrEqual(1);
      expect(v('controller_runtime_reconcile_total', { controller: 'flaky', result: 'error' })).toBe(2);
      expect(v('controller_runtime_reconcile_errors_total', { controller: 'flaky' })).toBe(2);
      expect(v('controller_runtime_reconcile_errors_total', { controller: 'gizmo' })).toBeDefined();
      expect(v('controller_runtime_max_concurrent_reconciles', { controller: 'gizmo' })).toBe(1);
      expect(v('controller_runtime_active_workers', { controller: 'gizmo' })).toBe(0);
      expect(v('controller_runtime_reconcile_time_seconds_count', { controller: 'gizmo' })).toBeGreaterThanOrEqual(1);
      expect(v('workqueue_adds_total', { controller: 'flaky', name: 'flaky' })).toBeGreaterThanOrEqual(3);
      expect(v('workqueue_retries_total', { controller: 'flaky', name: 'flaky' })).toBe(2);
      expect(v('workqueue_depth', { controller: 'gizmo', name: 'gizmo' })).toBe(0);
      expect(v('workqueue_work_duration_seconds_count', { controller: 'gizmo', name: 'gizmo' })).toBeGreaterThanOrEqual(
        1,
      );
      const host = new URL(env.cp.server).host;
      // The Deployment create and the status update went through the manager's client.
      expect(v('rest_client_requests_total', { code: '201', method: 'POST', host })).toBeGreaterThanOrEqual(1);
      expect(v('rest_client_requests_total', { code: '200', method: 'PUT', host })).toBeGreaterThanOrEqual(1);
      expect((await httpGet(mgr.metricsPort!, '/nope')).status).toBe(404);
    } finally {
      ac.abort();
      await run;
    }
    // The recorder from the manager wrote an events.k8s.io/v1 Event about g1 (flushed on stop).
    const events = await createClient(kc).list<KubeObject>(
      { apiVersion: 'events.k8s.io/v1', kind: 'Event' },
      { namespace: env.namespace },
    );
    const created = events.items.find((e) => e['reason'] === 'DeploymentCreated');
    expect(created).toMatchObject({
      reportingController: 'gizmo-controller',
      regarding: { kind: 'Gizmo', name: 'g1' },
    });
  });

  it('rejects start() with LeaderElectionLostError when another holder takes the lease', async () => {
    const registry = new Registry();
    const mgr = testManager(env, {
      registry,
      logger: silent,
      leaderElection: {
        id: 'lost-lease',
        namespace: env.namespace,
        leaseDurationMs: 4000,
        renewDeadlineMs: 3000,
        retryPeriodMs: 500,
      },
    });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    const outcome = run.then(
      () => 'resolved',
      (err: unknown) => err,
    );
    try {
      await mgr.elected();
      const status = async () =>
        metricValue(await registry.metrics(), 'leader_election_master_status', { name: 'lost-lease' });
      expect(await status()).toBe(1);
      const client = createClient(env.cp.kubeConfig);
      const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
      // Another candidate writes itself in (as after a partition); the next renewal sees it.
      await waitFor('lease overwritten', async () => {
        const lease = await client.get<KubeObject>(LEASE, { namespace: env.namespace, name: 'lost-lease' });
        const spec = lease['spec'] as Record<string, unknown>;
        const renewTime = new Date().toISOString().replace('Z', '000Z');
        await client.update({ ...lease, spec: { ...spec, holderIdentity: 'intruder', renewTime } });
        return true;
      });
      expect(await outcome).toBeInstanceOf(LeaderElectionLostError);
      expect(await status()).toBe(0);
    } finally {
      ac.abort();
      await outcome;
    }
  });

  it('rejects start() with ShutdownTimeoutError when a reconcile outlives the graceful shutdown timeout', async () => {
    const mgr = testManager(env, {
      namespace: env.namespace,
      logger: silent,
      gracefulShutdownTimeoutMs: 300,
    });
    let started = false;
    let finished = false;
    controllerFor(mgr, { apiVersion: 'v1', kind: 'ConfigMap' })
      .named('slow')
      .complete({
        async reconcile(req) {
          if (req.name !== 'slow') return;
          started = true;
          await new Promise((r) => setTimeout(r, 2000));
          finished = true;
        },
      });
    const ac = new AbortController();
    const run = mgr.start(ac.signal).then(
      () => 'resolved',
      (err: unknown) => err,
    );
    const client = createClient(env.cp.kubeConfig);
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'slow', namespace: env.namespace } });
    await waitFor('slow reconcile to start', () => started, 30_000, 20);
    const abortedAt = Date.now();
    ac.abort();
    expect(await run).toBeInstanceOf(ShutdownTimeoutError);
    expect(Date.now() - abortedAt).toBeLessThan(1500);
    expect(finished).toBe(false);
    await waitFor('slow reconcile to end', () => finished, 5000, 20);
  });
});
