/**
 * Child process of runtime-scale.ts: one informer cache of ConfigMaps in NAMESPACE (whole objects,
 * or metadata only with METADATA_ONLY=1), started and synced, then one JSON line on stdout:
 * seconds to sync, objects cached, and the process's resident memory after a full GC (the cache's
 * steady state) and at its peak. The same program as bench/go/cache-scale on controller-runtime.
 */
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { metadataOnly } from '../runtime/apimachinery/index.js';
import { Cache } from '../runtime/cache/index.js';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };

/** One "VmRSS:"/"VmHWM:" line of /proc/self/status, in MiB. */
function statusMiB(field: string): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.env['KUBECONFIG_PATH']!);
const namespace = process.env['NAMESPACE']!;
const kind = process.env['METADATA_ONLY'] === '1' ? metadataOnly(CM) : CM;
const cache = new Cache({ kubeConfig, defaultScope: { namespace } });
const started = performance.now();
cache.informerFor(kind);
const stop = new AbortController();
const run = cache.start(stop.signal);
if (!(await cache.waitForCacheSync())) throw new Error('cache did not sync');
const syncSeconds = (performance.now() - started) / 1000;
const objects = cache.list(kind, { namespace }).length;
(globalThis as { gc?: () => void }).gc?.();
const report = { syncSeconds, objects, rssMiB: statusMiB('VmRSS'), peakRssMiB: statusMiB('VmHWM') };
stop.abort();
await run;
console.log(JSON.stringify(report));
