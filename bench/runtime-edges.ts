/**
 * What two production safeguards of the runtime cost, against a real API server:
 *
 *   lease gate   every request of a leader-elected manager first checks, synchronously, that the
 *                last lease renewal is younger than the renew deadline. Timed alone (ns per
 *                check, the elector leading) and per request: GETs through one connection with
 *                and without the gate, alternating round by round, wall and CPU per request.
 *   event storm  a reconcile's client writes while 5,000 events are recorded at once through the
 *                manager's recorder (bounded queue, one sender, its own connection): median, 90th
 *                percentile and worst write latency, against the same writes with no events, and
 *                how many events had been written when the writes were done (all of them means
 *                the writes waited behind the events).
 *
 *   node --import ./runtime/testing/register.mjs bench/runtime-edges.ts
 *   ROUNDS=5 REQUESTS=2000 CONCURRENCY=8 WRITES=50 EVENTS=5000 (defaults)
 */
import { randomUUID } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../runtime/apimachinery/index.js';
import { ApiConnection } from '../runtime/rest/index.js';
import { createFakeClient } from '../runtime/client/fake/index.js';
import { createClient } from '../runtime/client/index.js';
import { startControlPlane } from '../runtime/envtest/index.js';
import { LeaderElector } from '../runtime/leaderelection/index.js';
import { createLogger } from '../runtime/log/index.js';
import { createManager } from '../runtime/manager/index.js';
import { ensureNamespace } from '../runtime/test-fixtures/helpers.js';
import { load, median } from './measure.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const REQUESTS = Number(process.env['REQUESTS'] ?? 2000);
const CONCURRENCY = Number(process.env['CONCURRENCY'] ?? 8);
const WRITES = Number(process.env['WRITES'] ?? 50);
const EVENTS = Number(process.env['EVENTS'] ?? 5000);
const quiet = createLogger({ level: 'silent' });

const percentile = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

/** A leading elector on the in-memory client: its leaseExpired() is the check the gate runs. */
async function leadingElector(): Promise<{ elector: LeaderElector; stop: () => Promise<void> }> {
  const ac = new AbortController();
  const elector = new LeaderElector({
    client: createFakeClient(),
    lease: { namespace: 'ns', name: 'bench' },
    logger: quiet,
    callbacks: { onStartedLeading: () => undefined },
  });
  const done = elector.run(ac.signal);
  while (!elector.isLeader()) await new Promise((r) => setTimeout(r, 5));
  return { elector, stop: async () => (ac.abort(), await done) };
}

function gateAlone(elector: LeaderElector): number {
  const n = 5_000_000;
  let expired = 0;
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (elector.leaseExpired()) expired++;
  const ns = Number(process.hrtime.bigint() - t) / n;
  if (expired > 0) throw new Error('the lease expired during the measurement');
  return ns;
}

async function gets(connection: ApiConnection, path: string): Promise<{ wallUs: number; cpuUs: number }> {
  let left = REQUESTS;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async (): Promise<void> => {
    while (left-- > 0) {
      const { status } = await connection.request({ path });
      if (status !== 200) throw new Error(`GET ${path}: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const cpu = process.cpuUsage(cpu0);
  return { wallUs: ((performance.now() - t0) * 1000) / REQUESTS, cpuUs: (cpu.user + cpu.system) / REQUESTS };
}

async function writeLatencies(write: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const t = performance.now();
    await write(i);
    out.push(performance.now() - t);
  }
  return out;
}

console.log(`node ${process.version}, load ${load()}`);
const cp = await startControlPlane();
const { elector, stop } = await leadingElector();
try {
  // (Skipped where the runtime has no gate, so the storm half also runs on older checkouts.)
  if (typeof elector.leaseExpired === 'function') await gateCost(cp.kubeConfig, elector);
  await eventStorm(cp.kubeConfig);
} finally {
  await stop();
  await cp.stop();
}

async function gateCost(kubeConfig: KubeConfig, elector: LeaderElector): Promise<void> {
  console.log(`lease gate alone: ${gateAlone(elector).toFixed(1)} ns per check (elector leading)`);
  const path = '/api/v1/namespaces/default';
  const plain = new ApiConnection(kubeConfig);
  const gated = new ApiConnection(kubeConfig);
  gated.addGate(() => (elector.leaseExpired() ? new Error('lease expired') : undefined));
  await gets(plain, path); // warm both: sockets, JIT
  await gets(gated, path);
  const rows: Record<'plain' | 'gated', Array<{ wallUs: number; cpuUs: number }>> = { plain: [], gated: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['plain', 'gated'] as const) : (['gated', 'plain'] as const);
    for (const which of order) rows[which].push(await gets(which === 'plain' ? plain : gated, path));
  }
  for (const which of ['plain', 'gated'] as const) {
    const r = rows[which];
    console.log(
      `${which.padEnd(6)} ${REQUESTS} GETs × ${ROUNDS} rounds, ${CONCURRENCY} at a time: median ${median(r.map((x) => x.wallUs)).toFixed(1)} µs wall, ` +
        `${median(r.map((x) => x.cpuUs)).toFixed(1)} µs CPU per request`,
    );
  }
  plain.close();
  gated.close();
}

async function eventStorm(kubeConfig: KubeConfig): Promise<void> {
  const client = createClient(kubeConfig);
  await ensureNamespace(client, 'storm');
  const mgr = createManager({ kubeConfig, namespace: 'storm', metricsBindAddress: '0', logger: quiet });
  const ac = new AbortController();
  const run = mgr.start(ac.signal);
  const cm = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'storm' },
  });
  const calm = await writeLatencies((i) => mgr.client.create(cm(`calm-${i}`)));
  const recorder = mgr.getEventRecorder('storm');
  for (let i = 0; i < EVENTS; i++) {
    recorder.event(
      { ...cm(`obj-${i}`), metadata: { name: `obj-${i}`, namespace: 'storm', uid: randomUUID() } },
      'Normal',
      'Storm',
      'Record',
      `event ${i}`,
    );
  }
  const storm = await writeLatencies((i) => mgr.client.create(cm(`storm-${i}`)));
  const written = (await client.list({ apiVersion: 'events.k8s.io/v1', kind: 'Event' }, { namespace: 'storm' })).items
    .length;
  const fmt = (xs: number[]): string =>
    `median ${median(xs).toFixed(1)} ms, p90 ${percentile(xs, 0.9).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(`client writes, no events:            ${fmt(calm)}`);
  console.log(
    `client writes, ${EVENTS} events at once: ${fmt(storm)} (${written} events written by the end of the writes)`,
  );
  ac.abort();
  await run;
}
