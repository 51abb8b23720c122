/**
 * Seed "Memcached" (deploy-image) through `npm run demo`, which is that seed end to end: the
 * built CLI scaffolds it with `create api --plugins deploy-image/v1-alpha --image …
 * --image-container-command … --image-container-port … --run-as-user …` (nothing added by
 * hand), `npm run build` generates and compiles, and the operator runs as a process against the
 * fuller control plane. The demo checks each claim before printing it; this test holds it to
 * every line: the Deployment's image, command, port and user, Running pods, Available=True,
 * scaling, the finalizer's Warning event, garbage collection. A second run is interrupted with
 * SIGINT midway. After both, no process the demo started is alive and its temp dirs are gone
 * (the demo runs with TMPDIR pointing at a directory of this test's own).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { skipReason } from '../../../runtime/testing/control-plane.js';
import { MINUTES, SECONDS, TSOP, waitUntil } from './seed-project.js';

/** Processes whose environment carries `mark`: everything the demo started, wherever it was reparented. */
function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(`TSOP_DEMO_MARK=${mark}`)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** What the demo left in its TMPDIR, less the compile caches of tsop manifests and of the TypeScript hooks (kept between runs on purpose). */
const leftIn = (tmp: string): string[] =>
  readdirSync(tmp).filter((e) => e !== 'tsop-compile-cache' && e !== 'tsop-ts-hooks-cache');

/** Starts the demo as `npm run demo` would, in a fresh TMPDIR, every descendant marked. */
function startDemo() {
  const mark = randomUUID();
  const tmp = mkdtempSync(join(tmpdir(), 'tsop-demo-test-'));
  const child = execa(process.execPath, ['--import', './runtime/testing/register.mjs', 'scripts/demo.ts'], {
    cwd: TSOP,
    env: { TMPDIR: tmp, TSOP_DEMO_MARK: mark, DEMO_TIMEOUT_SECONDS: '90' },
    all: true,
    reject: false,
    forceKillAfterDelay: 20 * SECONDS,
  });
  let output = '';
  child.all?.on('data', (c: Buffer) => void (output += c.toString()));
  return { child, mark, tmp, output: () => output };
}

const reason = skipReason({});
const suite = reason ? describe.skip : describe;
if (reason) console.warn(`skipping "seed Memcached / npm run demo": ${reason}`);

suite('seed Memcached (deploy-image), through npm run demo', () => {
  const tmps: string[] = [];
  afterAll(() => {
    for (const t of tmps) rmSync(t, { recursive: true, force: true });
  });

  it(
    'runs to completion: each step printed and true, then nothing left behind',
    async () => {
      const demo = startDemo();
      tmps.push(demo.tmp);
      const result = await demo.child;
      const out = demo.output();
      expect(result.exitCode, out).toBe(0);
      const steps = [
        /CRD installed: memcacheds\.cache\.example\.com/,
        /operator running: node build\/main\.js \(pid \d+\)/,
        /sample applied: memcached-sample \(size 1\)/,
        /Deployment created: image memcached:1\.6\.26-alpine3\.19, command "memcached --memory-limit=64 -o modern -v", port 11211, runAsUser 1001, replicas 1/,
        /pods Running: 1\/1/,
        /condition Available=True \(Reconciling\): Deployment for custom resource \(memcached-sample\) with 1 replicas created successfully/,
        /scaled: size 3 → Deployment replicas 3, pods Running 3\/3/,
        /finalizer ran: Warning Deleting "Custom Resource memcached-sample is being deleted from the namespace default"; the Memcached is gone/,
        /Deployment garbage-collected/,
        /cleaned up: operator stopped, control plane stopped, .*tsop-demo-\w+ removed/,
        /demo passed in \d+\.\d s/,
      ];
      let from = 0;
      for (const step of steps) {
        const at = out.slice(from).search(step);
        expect(at, `${step} after the previous steps in:\n${out}`).toBeGreaterThanOrEqual(0);
        from += at;
      }
      expect(out).toMatch(/^\[\s*\d+\.\d s\] /m); // elapsed time on each step line
      expect(processesMarked(demo.mark)).toEqual([]);
      expect(leftIn(demo.tmp)).toEqual([]);
    },
    10 * MINUTES,
  );

  it(
    'stops everything it started when interrupted with SIGINT midway',
    async () => {
      const demo = startDemo();
      tmps.push(demo.tmp);
      // Midway: the control plane and the operator are running, the sample is in.
      await waitUntil(
        'the demo applies the sample',
        () => /sample applied/.test(demo.output()) || demo.child.exitCode !== null,
        6 * MINUTES,
      );
      expect(demo.child.exitCode, demo.output()).toBeNull();
      expect(processesMarked(demo.mark).length).toBeGreaterThan(3); // operator, etcd, kube-apiserver, …
      demo.child.kill('SIGINT');
      const result = await demo.child;
      expect(result.exitCode, demo.output()).toBe(130);
      expect(demo.output()).toMatch(/SIGINT: stopping the operator and the control plane, removing .*tsop-demo-\w+/);
      await waitUntil(
        'every process the demo started has exited',
        () => processesMarked(demo.mark).length === 0,
        10 * SECONDS,
      );
      expect(leftIn(demo.tmp)).toEqual([]);
    },
    10 * MINUTES,
  );
});
