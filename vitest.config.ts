import { defineConfig } from 'vitest/config';
import { decoratorsPlugin } from './runtime/testing/decorators-plugin.js';

// Three projects: `unit` needs no server and runs anywhere (CI also runs it on Node 24);
// `integration` (files named *.int.test.ts) starts real etcd + kube-apiserver processes;
// `outage` holds the integration tests that measure how long an API server outage lasts, run
// one at a time after the others so that a busy machine (two fuller planes booting beside them)
// does not stretch the outage they measure.
const OUTAGE_TESTS = ['runtime/cache/outage.int.test.ts', 'runtime/controller/resilience.int.test.ts'];

export default defineConfig({
  plugins: [decoratorsPlugin()],
  test: {
    // kubectl's cache goes to a temp folder removed at the end, not to ~/.kube/cache.
    globalSetup: ['test/setup/kubectl-cache.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'runtime/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts', 'runtime/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', ...OUTAGE_TESTS],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file starts its own control plane; two cores run two at a time comfortably.
          maxWorkers: 2,
          // Runs after the unit tests, with its own worker limit.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'outage',
          include: OUTAGE_TESTS,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
