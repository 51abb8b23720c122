/**
 * Benchmark: converge 1,000 Gizmos, each to one owned Deployment plus a status update, with
 * maxConcurrentReconciles 1 and 8. The Gizmos are created first; then a manager starts in a
 * child process and is timed from start to convergence (see runtime-converge-manager.ts).
 * Prints one line per configuration: time to converge, peak RSS and CPU seconds of the manager.
 *
 *   node --import ./runtime/testing/register.mjs bench/runtime-converge.ts
 *   (COUNT=1000 CONCURRENCY=1,8 by default)
 */

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from '../runtime/client/index.js';
import { startControlPlane } from '../runtime/envtest/index.js';
import { CRD_DIR, createGizmos, ensureNamespace } from '../runtime/test-fixtures/helpers.js';
import { compileChild } from './compile-child.js';

const count = Number(process.env['COUNT'] ?? 1000);
const concurrencies = (process.env['CONCURRENCY'] ?? '1,8').split(',').map(Number);
const childSource = fileURLToPath(new URL('./runtime-converge-manager.ts', import.meta.url));

interface Report {
  maxConcurrentReconciles: number;
  resources: number;
  cacheSyncSeconds: number;
  convergeSeconds: number;
  peakRssMiB: number;
  baselineRssMiB: number;
  heapUsedMiB: number;
  cpuSeconds: number;
  reconciles: Record<string, number>;
}

function runManager(env: Record<string, string>): Promise<Report> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child.file], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line) resolve(JSON.parse(line) as Report);
      else reject(new Error(`manager exited with ${code}: ${out}`));
    });
  });
}

const child = compileChild(childSource);
const cp = await startControlPlane({ crdDirectoryPaths: [CRD_DIR] });
try {
  const client = createClient(cp.kubeConfig);
  for (const n of concurrencies) {
    const namespace = `bench-c${n}`;
    await ensureNamespace(client, namespace);
    const t = performance.now();
    await createGizmos(client, namespace, 'g', count, 50);
    console.log(`created ${count} Gizmos in ${namespace} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const r = await runManager({
      KUBECONFIG_PATH: cp.kubeconfigPath,
      NAMESPACE: namespace,
      EXPECTED: String(count),
      MAX_CONCURRENT: String(n),
    });
    console.log(
      `maxConcurrentReconciles=${n}: converged ${r.resources} in ${r.convergeSeconds.toFixed(2)} s ` +
        `(cache sync ${r.cacheSyncSeconds.toFixed(2)} s), peak RSS ${r.peakRssMiB.toFixed(0)} MiB ` +
        `(${r.baselineRssMiB.toFixed(0)} MiB before start, heap ${r.heapUsedMiB.toFixed(0)} MiB at the end), ` +
        `CPU ${r.cpuSeconds.toFixed(2)} s; reconciles ${JSON.stringify(r.reconciles)}`,
    );
  }
} finally {
  await cp.stop();
  rmSync(child.dir, { recursive: true, force: true });
}
