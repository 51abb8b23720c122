/**
 * Child process of runtime-scale.ts: one informer cache of ConfigMaps in NAMESPACE (whole objects,
 * or metadata only with METADATA_ONLY=1), started and synced, then one JSON line on stdout:
 * seconds to sync, objects cached, and the process's resident memory after a full GC, again after
 * SETTLE_SECONDS of quiet and another GC (V8's memory reducer gives back the young generation a
 * burst grew), and at its peak. With RELIST=1 it then waits for a line on stdin, which the parent
 * writes once the API server is back over a compacted etcd (the watch's resumption is answered
 * 410 Gone), and prints a second line: seconds from the server's return to the relist stored (the
 * informer's resourceVersion moves to the new list's), and the peak RSS of the relist.
 * The same program as bench/go/cache-scale on controller-runtime. It watches in protobuf, as a
 * manager does by default; PROTOBUF=0 reads JSON instead (the cache's `protobuf: false`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { metadataOnly } from '../runtime/apimachinery/index.js';
import { Cache } from '../runtime/cache/index.js';
import { loadKubeConfigFile } from '../runtime/kubeconfig/index.js';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };

/** One "VmRSS:"/"VmHWM:" line of /proc/self/status, in MiB. */
function statusMiB(field: string): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// As a generated operator reads its kubeconfig (runtime/kubeconfig), not through client-node's class.
const kubeConfig = loadKubeConfigFile(process.env['KUBECONFIG_PATH']!);
const namespace = process.env['NAMESPACE']!;
const settleMs = Number(process.env['SETTLE_SECONDS'] ?? 10) * 1000;
const kind = process.env['METADATA_ONLY'] === '1' ? metadataOnly(CM) : CM;
const cache = new Cache({ kubeConfig, defaultScope: { namespace }, protobuf: process.env['PROTOBUF'] !== '0' });
const started = performance.now();
const informer = cache.informerFor(kind);
const stop = new AbortController();
const run = cache.start(stop.signal);
if (!(await cache.waitForCacheSync())) throw new Error('cache did not sync');
const syncSeconds = (performance.now() - started) / 1000;
const objects = cache.list(kind, { namespace }).length;
gc();
const rssMiB = statusMiB('VmRSS');
await sleep(settleMs);
gc();
console.log(
  JSON.stringify({
    syncSeconds,
    objects,
    rssMiB,
    settledRssMiB: statusMiB('VmRSS'),
    peakRssMiB: statusMiB('VmHWM'),
    // The live heap after a full GC: what the cached objects hold, without the heap V8 keeps.
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
  }),
);
if (process.env['RELIST'] === '1') {
  // The parent writes a line once the API server is back over a compacted etcd.
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
  const back = performance.now();
  const before = informer.lastSyncResourceVersion;
  writeFileSync('/proc/self/clear_refs', '5'); // the peak from here on
  while (informer.lastSyncResourceVersion === before) await sleep(5);
  const relistSeconds = (performance.now() - back) / 1000;
  const relisted = cache.list(kind, { namespace }).length;
  console.log(JSON.stringify({ relistSeconds, objects: relisted, relistPeakRssMiB: statusMiB('VmHWM') }));
}
stop.abort();
await run;
