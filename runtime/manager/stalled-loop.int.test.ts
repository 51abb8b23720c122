/**
 * A leader whose event loop is blocked (a CPU-bound reconcile, a long GC pause) for longer than
 * the lease duration, against a real API server. Timers cannot fire while the loop is blocked,
 * so the renew-deadline timer cannot stop the writes queued behind the block: only a check made
 * synchronously as each request leaves the process can. Replica A is a child process reaching
 * the API server through a loopback proxy that records when A sends bytes; replica B, in this
 * process, takes the lease while A is blocked. Nothing from A may reach the API server after B's
 * election: not the reconcile's write, not a lease renewal; and the reconcile's ctx.signal is
 * aborted on the line after the block. A then exits 1, logging the cancelled reconcile as one
 * info line without a stack.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createClient, isNotFound } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { spawnManager, type ManagerChild } from '../test-fixtures/child.js';
import { DEPLOYMENT, GIZMO, type Gizmo } from '../test-fixtures/gizmo-reconciler.js';
import { CRD_DIR, ensureNamespace } from '../test-fixtures/helpers.js';
import { StallingProxy, viaPort } from '../test-fixtures/stalling-proxy.js';
import { testManager } from '../testing/manager.js';

const NS = 'stalled-loop';
const LEASE = 'stalled-loop';
const TIMING = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
/** Longer than the lease duration plus the follower's retry period, with room to spare. */
const SPIN_MS = 9_000;

describeWithControlPlane(
  'manager: a leader whose event loop stalls past its lease',
  { shared: true, crdDirectoryPaths: [CRD_DIR] },
  (env) => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    it('sends nothing once another replica is elected, and logs the cancelled reconcile without a stack', async () => {
      const client = createClient(env.cp.kubeConfig);
      await ensureNamespace(client, NS);
      const proxy = new StallingProxy(Number(new URL(env.cp.server).port));
      const port = await proxy.listen();
      cleanups.push(() => proxy.close());
      const dir = mkdtempSync(join(tmpdir(), 'tsop-stalled-loop-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const kubeconfigPath = join(dir, 'kubeconfig');
      writeFileSync(kubeconfigPath, viaPort(env.cp.kubeConfig, port).exportConfig());

      const a: ManagerChild = spawnManager('a', {
        KUBECONFIG_PATH: kubeconfigPath,
        LEASE_ID: LEASE,
        LEASE_NAMESPACE: NS,
        LEASE_DURATION_MS: String(TIMING.leaseDurationMs),
        RENEW_DEADLINE_MS: String(TIMING.renewDeadlineMs),
        RETRY_PERIOD_MS: String(TIMING.retryPeriodMs),
        SPIN_KEY: `${NS}/spin`,
        SPIN_MS: String(SPIN_MS),
        LOG_LEVEL: 'info',
      });
      cleanups.push(async () => {
        if (a.proc.exitCode === null && a.proc.signalCode === null) {
          a.kill('SIGKILL');
          await a.exited;
        }
      });
      await a.waitFor((e) => e.event === 'elected', 60_000);

      const b = testManager(env, {
        namespace: NS,
        leaderElection: { id: LEASE, namespace: NS, identity: 'b', ...TIMING },
      });
      const bStop = new AbortController();
      const bRun = b.start(bStop.signal).catch((err: unknown) => err);
      cleanups.push(async () => {
        bStop.abort();
        await bRun;
      });
      // B campaigns and sees A's lease renewed: it stays a follower.
      await new Promise((r) => setTimeout(r, 4 * TIMING.retryPeriodMs));

      await client.create<Gizmo>({ ...GIZMO, metadata: { name: 'spin', namespace: NS }, spec: { replicas: 1 } });
      await a.waitFor((e) => e.event === 'start' && e.key === `${NS}/spin`, 30_000);
      await b.elected();
      const electedAt = performance.now();
      const electedWall = Date.now();
      const exit = await a.exited;
      // Let any byte still on its way through the proxy arrive.
      await new Promise((r) => setTimeout(r, 500));

      // B was elected while A was still blocked (A reports `spun` when the block ends).
      const spun = a.events.find((e) => e.event === 'spun');
      expect(spun?.t).toBeGreaterThan(electedWall);
      // The reconcile's next line after the block found its signal aborted: a side effect
      // outside Kubernetes guarded by it is not made after the takeover.
      expect(spun?.aborted).toBe(true);
      expect(exit.code).toBe(1);
      expect(proxy.fromClientAt.filter((t) => t > electedAt)).toEqual([]);
      // The reconcile's write never reached the API server.
      const dep = await client.get(DEPLOYMENT, { namespace: NS, name: 'spin' }).catch((err: unknown) => err);
      expect(isNotFound(dep)).toBe(true);

      const lines = a.stderr.flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [{ msg: l }];
        }
      });
      const cancelled = lines.filter((l) => l['msg'] === 'reconcile cancelled: lost leadership');
      expect(cancelled).toHaveLength(1);
      expect(cancelled[0]).toMatchObject({ level: 'info', controller: 'gizmo', name: 'spin' });
      expect(lines.filter((l) => l['msg'] === 'Reconciler error')).toEqual([]);
      expect(a.stderr.filter((l) => l.includes('"stack"'))).toEqual([]);
    });
  },
);
