/**
 * A control plane that fails to start gives its suite one clear error: the suite's own hooks and
 * tests are skipped, so no second TypeError follows from an afterAll cleaning up what its
 * beforeAll never made (generated controller tests have that shape).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/failing-plane/', import.meta.url));
const assets = mkdtempSync(join(tmpdir(), 'tsop-failing-plane-'));
afterAll(() => rmSync(assets, { recursive: true, force: true }));

it('reports the failed start once, with no TypeError after it', async () => {
  for (const bin of ['etcd', 'kube-apiserver']) {
    writeFileSync(join(assets, bin), '#!/bin/sh\necho "cannot start: simulated failure" >&2\nexit 3\n');
    chmodSync(join(assets, bin), 0o755);
  }
  // The child's own temp dirs go under ours, so the check below sees whether it cleaned up.
  const childTmp = join(assets, 'tmp');
  mkdirSync(childTmp);
  const run = await execa('npx', ['vitest', 'run', '--config', join(fixture, 'vitest.config.ts'), '--root', fixture], {
    env: { FAILING_PLANE_ASSETS: assets, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', TMPDIR: childTmp },
    all: true,
    reject: false,
  });
  expect(run.exitCode, run.all).toBe(1);
  expect(run.all).toMatch(/FAIL .*failing-plane\.check\.ts > Widget controller/);
  expect(run.all, run.all).not.toContain('TypeError');
  expect(run.all).toMatch(/1 skipped/);
  expect(run.all!.match(/^(\w*Error): /gm), run.all).toHaveLength(1);
  // A failed start leaves no data directory behind (vitest's own cache aside).
  expect(readdirSync(childTmp).filter((e) => !e.startsWith('node-compile-cache') && !e.startsWith('vitest'))).toEqual(
    [],
  );
}, 90_000);
