/**
 * A control-plane binary that exits at start-up fails startControlPlane at once with its log,
 * instead of waiting out the start timeout once per port attempt.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startControlPlane } from './control-plane.js';

const assets = mkdtempSync(join(tmpdir(), 'tsop-start-failure-'));
afterAll(() => rmSync(assets, { recursive: true, force: true }));

it('an etcd that exits is reported once, well before the start timeout', async () => {
  for (const bin of ['etcd', 'kube-apiserver', 'kubectl']) {
    writeFileSync(join(assets, bin), '#!/bin/sh\necho "simulated: cannot open data dir" >&2\nexit 3\n');
    chmodSync(join(assets, bin), 0o755);
  }
  const before = new Set(readdirSync(tmpdir()));
  const started = Date.now();
  const error = await startControlPlane({ binaryAssetsDirectory: assets, startTimeoutMs: 15_000 }).catch(
    (e: unknown) => e,
  );
  const elapsed = Date.now() - started;
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(/^etcd exited during start-up/);
  // The log is quoted once (no retry repeated it).
  expect((error as Error).message.match(/simulated: cannot open data dir/g)).toHaveLength(1);
  // One start timeout is 15 s; the old code waited it out three times.
  expect(elapsed).toBeLessThan(10_000);
  // Nothing left in the temp dir by the failed start.
  expect(readdirSync(tmpdir()).filter((e) => !before.has(e) && e.startsWith('tsop-envtest-'))).toEqual([]);
});
