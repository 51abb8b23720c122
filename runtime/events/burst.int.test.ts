/**
 * An event storm against a real API server: 5,000 events recorded at once through a manager's
 * recorder. The queue holds at most 1,000 (client-go's broadcaster size), the rest are dropped
 * and counted in tsop_events_dropped_total with one log line, and the writes go out one at a
 * time on a connection of their own — so the reconciles' client writes made meanwhile do not
 * wait behind them.
 */
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { createClient } from '../client/index.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { testManager } from '../testing/manager.js';

const NS = 'event-burst';
const BURST = 5_000;
const QUEUE = 1_000;
const WRITES = 20;
const EVENT = { apiVersion: 'events.k8s.io/v1', kind: 'Event' } as const;
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

describeWithControlPlane('events: a burst of 5,000', { shared: true }, (env) => {
  it('keeps at most 1,000 queued, drops and counts the rest, and does not hold up client writes', {
    timeout: 180_000,
  }, async () => {
    const direct = createClient(env.cp.kubeConfig);
    await ensureNamespace(direct, NS);
    const logs = memoryDestination();
    const registry = new Registry();
    const mgr = testManager(env, {
      namespace: NS,
      registry,
      logger: createLogger({ level: 'info', destination: logs }),
    });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    try {
      const recorder = mgr.getEventRecorder('burst');
      for (let i = 0; i < BURST; i++) {
        const regarding: KubeObject = { ...CM, metadata: { name: `obj-${i}`, namespace: NS, uid: randomUUID() } };
        recorder.event(regarding, 'Normal', 'Burst', 'Record', `event ${i}`);
      }
      const dropped = async (): Promise<number> =>
        (await registry.getSingleMetric('tsop_events_dropped_total')?.get())?.values.find(
          (v) => v.labels['reason'] === 'queue_full',
        )?.value ?? 0;
      expect(await dropped()).toBe(BURST - QUEUE);
      const dropLines = logs.records().filter((r) => String(r['msg']).startsWith('dropping events'));
      expect(dropLines).toHaveLength(1);
      expect(dropLines[0]).toMatchObject({ level: 'warn', queueSize: QUEUE });

      // A reconcile's writes while the queue drains: each one waits for no event write.
      const latencies: number[] = [];
      for (let i = 0; i < WRITES; i++) {
        const t = performance.now();
        await mgr.client.create({ ...CM, metadata: { name: `write-${i}`, namespace: NS } });
        latencies.push(performance.now() - t);
      }
      const writtenMeanwhile = (await direct.list(EVENT, { namespace: NS })).items.length;
      latencies.sort((x, y) => x - y);
      console.info(
        `${WRITES} client writes during the drain: median ${latencies[WRITES / 2]!.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; ` +
          `${writtenMeanwhile} events written by then`,
      );
      // The writes did not queue behind the events: most of the queue was still waiting when they were done.
      expect(writtenMeanwhile).toBeLessThan(QUEUE / 2);

      const written = async (): Promise<number> => (await direct.list(EVENT, { namespace: NS })).items.length;
      await waitFor('the queue to drain', async () => (await written()) >= QUEUE, 120_000, 500);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await written()).toBe(QUEUE);
    } finally {
      ac.abort();
      await run;
    }
  });
});
