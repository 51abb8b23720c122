/**
 * Child process of runtime-scale.ts: one informer cache of ConfigMaps in NAMESPACE (whole objects,
 * or metadata only with METADATA_ONLY=1), started and synced, then one JSON line on stdout:
 * seconds to sync, objects cached, and the process's resident memory after a full GC, again after
 * SETTLE_SECONDS of quiet and another GC (V8's memory reducer gives back the young generation a
 * burst grew), and at its peak. With RELIST=1 it then waits for the API server to answer its
 * watch with 410 Gone (the parent restarts the server over a compacted etcd) and prints a second
 * line: seconds from the 410 to the relist stored, and the peak RSS of the relist.
 * The same program as bench/go/cache-scale on controller-runtime.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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
let gone: (() => void) | undefined;
const cache = new Cache({
  kubeConfig,
  defaultScope: { namespace },
  onWatchError: (e) => {
    if (e.code === 410 && e.relist) gone?.();
  },
});
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
  JSON.stringify({ syncSeconds, objects, rssMiB, settledRssMiB: statusMiB('VmRSS'), peakRssMiB: statusMiB('VmHWM') }),
);
if (process.env['RELIST'] === '1') {
  const t410 = await new Promise<number>((resolve) => (gone = () => resolve(performance.now())));
  const before = informer.lastSyncResourceVersion;
  writeFileSync('/proc/self/clear_refs', '5'); // the peak from here on
  while (informer.lastSyncResourceVersion === before) await sleep(5);
  const relistSeconds = (performance.now() - t410) / 1000;
  const relisted = cache.list(kind, { namespace }).length;
  console.log(JSON.stringify({ relistSeconds, objects: relisted, relistPeakRssMiB: statusMiB('VmHWM') }));
}
stop.abort();
await run;
