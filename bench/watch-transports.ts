/**
 * What carrying watches over HTTP/2 costs an informer's initial sync, the largest stream a watch
 * carries (a watch-list of every object): the same COUNT ConfigMaps synced by a fresh informer
 * over HTTP/2 (the default) and over HTTP/1.1 (DISABLE_HTTP2=1), alternating round by round on
 * one control plane. Prints wall time to synced and this process's CPU for each. Run on demand:
 *   node --import ./runtime/testing/register.mjs bench/watch-transports.ts
 *   ROUNDS=5 COUNT=10000 (defaults)
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Informer } from '../runtime/cache/index.js';
import { createClient } from '../runtime/client/index.js';
import { startControlPlane } from '../runtime/envtest/index.js';
import { connectionFor } from '../runtime/rest/index.js';
import { median } from './measure.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const COUNT = Number(process.env['COUNT'] ?? 10_000);
const NS = 'watch-transports';
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

const plane = await startControlPlane({ startTimeoutMs: 120_000 });
try {
  const client = createClient(plane.kubeConfig);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const data = { payload: 'x'.repeat(512) };
  for (let i = 0; i < COUNT; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, COUNT - i) }, (_, j) =>
        client.create({ ...CM, metadata: { name: `cm-${i + j}`, namespace: NS }, data }),
      ),
    );
  }
  const results: Record<string, { ms: number[]; cpu: number[] }> = {
    h2: { ms: [], cpu: [] },
    'http/1.1': { ms: [], cpu: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const protocol of round % 2 === 0 ? (['h2', 'http/1.1'] as const) : (['http/1.1', 'h2'] as const)) {
      const kc = new KubeConfig();
      kc.loadFromString(plane.kubeConfig.exportConfig());
      if (protocol === 'http/1.1') process.env['DISABLE_HTTP2'] = '1';
      const connection = connectionFor(kc);
      delete process.env['DISABLE_HTTP2'];
      const informer = new Informer({
        kubeConfig: kc,
        gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
        namespace: NS,
      });
      const ac = new AbortController();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const running = informer.run(ac.signal);
      await informer.waitForSync(ac.signal);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      ac.abort();
      await running;
      connection.close();
      if (connection.streamProtocol !== undefined && connection.streamProtocol !== protocol)
        throw new Error(`wanted ${protocol}, got ${connection.streamProtocol}`);
      results[protocol]!.ms.push(ms);
      results[protocol]!.cpu.push((used.user + used.system) / 1000);
      console.log(
        `round ${round + 1} ${protocol}: synced ${COUNT} in ${Math.round(ms)} ms, CPU ${Math.round((used.user + used.system) / 1000)} ms`,
      );
    }
  }
  for (const [protocol, r] of Object.entries(results))
    console.log(
      `${protocol}: median sync ${Math.round(median(r.ms))} ms, median CPU ${Math.round(median(r.cpu))} ms (${ROUNDS} rounds, ${COUNT} ConfigMaps)`,
    );
} finally {
  await plane.stop();
}
