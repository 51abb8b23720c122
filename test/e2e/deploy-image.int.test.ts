/**
 * A deploy-image project as a user makes it with the built CLI (`init`, then `create api
 * --plugins deploy-image/v1-alpha` with every option): it type-checks, its manifests are what
 * `tsop manifests` writes (`--check`), and its own controller test passes against a real control
 * plane. The project borrows tsop's node_modules (a symlink) instead of running npm install,
 * which the generated-project e2e (scaffold.int.test.ts) already covers.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipReason } from '../../runtime/testing/control-plane.js';
import { tempProject } from '../scaffold/harness.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;

describe('a deploy-image project from the built CLI', () => {
  const dir = tempProject('memcached-operator');
  const tsop = (...args: string[]) =>
    execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], { cwd: dir, all: true, reject: false });
  const inProject = (cmd: string, args: string[]) =>
    execa(cmd, args, { cwd: dir, env: { NO_COLOR: '1' }, all: true, reject: false });

  beforeAll(async () => {
    expect((await tsop('init', '--domain', 'example.com', '--skip-install')).exitCode).toBe(0);
    linkNodeModules(dir);
    const create = await tsop(
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--plugins',
      'deploy-image/v1-alpha',
      '--image',
      'memcached:1.6.26-alpine',
      '--image-container-command',
      'memcached,--memory-limit=64,-o,modern,-v',
      '--image-container-port',
      '11211',
      '--run-as-user',
      '1001',
    );
    expect(create.exitCode, create.all).toBe(0);
    expect(existsSync(join(dir, 'config/crd/bases/cache.example.com_memcacheds.yaml'))).toBe(true);
  }, 5 * MINUTES);

  it(
    'type-checks, and its manifests are up to date',
    async () => {
      const tsc = await inProject(process.execPath, [
        join(TSOP, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.json',
        '--noEmit',
      ]);
      expect(tsc.exitCode, tsc.all).toBe(0);
      const check = await tsop('manifests', '--check');
      expect(check.exitCode, check.all).toBe(0);
    },
    5 * MINUTES,
  );

  it.skipIf(skipReason({ controllers: true }) !== undefined)(
    'passes its own controller test against the fuller control plane (pods run, garbage is collected)',
    async () => {
      const test = await inProject(process.execPath, [
        join(TSOP, 'node_modules/vitest/vitest.mjs'),
        'run',
        'src/controllers/memcached-controller.test.ts',
      ]);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/Tests\s+5 passed/);
      // A green run prints no error records and no stack traces (the test reads the expected ones from memory).
      expect(test.all).not.toMatch(/"level":\s*("error"|50)/);
      expect(test.all).not.toMatch(/\n\s+at .*\.ts:\d+/);
    },
    5 * MINUTES,
  );
});
