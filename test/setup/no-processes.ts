/**
 * Setup file of the `unit` project: a unit test runs in-process and starts no other program. A
 * test that spawns one (the CLI, a Node child, git, kubectl) spends seconds of CPU that a busy
 * machine stretches past the unit project's 5 s timeout, so it belongs to the `processes`
 * project, whose timeout and worker count fit it. Starting a process here fails the test at once
 * with that advice, instead of a timeout some day under load.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, expect } from 'vitest';

const SPAWNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
let refused: string | undefined;

for (const name of SPAWNERS) {
  Object.assign(childProcess, {
    [name]: (command: unknown) => {
      const file = expect.getState().testPath ?? 'this test file';
      refused ??=
        `${file} starts a process (child_process.${name} of ${String(command)}) in the unit ` +
        `project; add the file to PROCESS_TESTS in vitest.config.ts, the project for tests that ` +
        `spawn programs`;
      throw new Error(refused);
    },
  });
}
// ESM imports of node:child_process (execa's included) see the replaced functions too.
syncBuiltinESMExports();

// Code that catches the error (execa with `reject: false`) must not turn it into a pass.
afterAll(() => {
  if (refused !== undefined) throw new Error(refused);
});
