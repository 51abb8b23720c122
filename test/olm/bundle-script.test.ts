/**
 * `npm run bundle` as the shell runs it: the variables of operator-sdk's Makefile turn flags on as
 * the Makefile does (only USE_IMAGE_DIGESTS=true pins digests; empty CHANNELS / DEFAULT_CHANNEL
 * pass nothing). A stand-in `tsop` on PATH records the arguments each step gets.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInit } from '../../src/cli/init.js';
import { captured } from '../scaffold/harness.js';

const work = mkdtempSync(join(tmpdir(), 'tsop-bundle-script-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let script = '';

beforeAll(async () => {
  const dir = join(work, 'memcached-operator');
  await runInit(
    { dir, domain: 'example.com', skipInstall: true, plugins: 'manifests.sdk.operatorframework.io/v2' },
    captured(),
  );
  script = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
    'bundle'
  ]!;
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin/tsop'), '#!/bin/sh\necho "$*" >> "$TSOP_CALLS"\n');
  chmodSync(join(work, 'bin/tsop'), 0o755);
});

/** The arguments `tsop generate bundle` gets from the script under these variables. */
function bundleArgs(env: Record<string, string>): string {
  const calls = join(work, `calls-${Math.random().toString(36).slice(2)}`);
  const run = spawnSync('sh', ['-c', script], {
    env: { PATH: `${join(work, 'bin')}${delimiter}${process.env['PATH'] ?? ''}`, TSOP_CALLS: calls, ...env },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(calls, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('generate bundle'))!
    .trim();
}

describe('npm run bundle', () => {
  it.each([
    [{}, 'generate bundle -q --version 0.0.1'],
    [{ USE_IMAGE_DIGESTS: 'false' }, 'generate bundle -q --version 0.0.1'],
    [{ USE_IMAGE_DIGESTS: '' }, 'generate bundle -q --version 0.0.1'],
    [{ USE_IMAGE_DIGESTS: 'true' }, 'generate bundle -q --version 0.0.1 --use-image-digests'],
    [
      { VERSION: '1.2.3', CHANNELS: 'alpha,stable', DEFAULT_CHANNEL: 'stable' },
      'generate bundle -q --version 1.2.3 --channels alpha,stable --default-channel stable',
    ],
    [{ CHANNELS: '', DEFAULT_CHANNEL: '' }, 'generate bundle -q --version 0.0.1'],
  ])('with %o runs tsop %s', (env, expected) => {
    expect(bundleArgs(env)).toBe(expected);
  });
});
