/**
 * The `next:` line init and create api end with: a command that works from where the user is
 * (tsop is the project's devDependency, so `npx tsop`, never a bare `tsop`).
 */
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runInit } from '../../src/cli/init.js';
import { captured, tempProject } from '../scaffold/harness.js';

describe('next: hints', { timeout: 60_000 }, () => {
  it('init, then create api, each end with what to run next', async () => {
    const dir = tempProject('hinted');
    const init = captured();
    await runInit({ dir, domain: 'example.com', skipInstall: true }, init);
    expect(init.stderr.split('\n').at(-2)).toMatch(
      /^next: cd .*hinted && npm install && npx tsop create api --group <group> --version v1 --kind <Kind>$/,
    );
    const api = captured();
    await runCreateApi(
      { dir, group: 'cache', version: 'v1', kind: 'Memcached', resource: true, controller: true, make: false },
      api,
    );
    expect(api.stderr.split('\n').at(-2)).toBe(
      "next: fill in src/api/v1/memcached.ts and src/controllers/memcached-controller.ts, then run 'npm run manifests' (or 'npx tsop manifests') and 'npm test'",
    );
    expect(init.stderr + api.stderr).not.toMatch(/(^|[^x] )tsop (create|manifests)/m);
  });
});
