import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { decoratorsPlugin } from './runtime/testing/decorators-plugin.js';
import { LongestFirst } from './test/setup/longest-first.js';

// Four projects, run one after the other (sequence.groupOrder), each with the timeout and worker
// count that fit what its tests do:
// - `unit`: pure logic in-process, no server and no other program (test/setup/no-processes.ts
//   fails a test that spawns one); vitest's default 5 s timeout. CI also runs it on Node 24.
//   Its slowest test with that timeout takes 2.4 s with two workers beside CI's bounded load.
// - `processes`: tests that start programs but no control plane (the built CLI, Node children,
//   git); a process costs seconds of CPU on a busy machine, so a minute per test. CI runs those
//   of what differs between Node majors on Node 24 too (.ci/run lists them).
// - `integration` (files named *.int.test.ts): real etcd + kube-apiserver processes.
// - `outage`: the integration tests that measure how long an API server outage lasts, one at a
//   time after the others, so that a busy machine does not stretch the outage they measure.
const OUTAGE_TESTS = ['runtime/cache/outage.int.test.ts', 'runtime/controller/resilience.int.test.ts'];
const PROCESS_TESTS = [
  'runtime/envtest/download/tar.test.ts',
  'runtime/envtest/start-failure.test.ts',
  'runtime/kubeconfig/credentials.test.ts',
  'runtime/log/logger.test.ts',
  'runtime/manager/startup.test.ts',
  'runtime/metrics/prom.test.ts',
  'runtime/rest/node-http.test.ts',
  'runtime/testing/control-plane.test.ts',
  'test/cli/bad-inputs.test.ts',
  'test/cli/bin-bundle.test.ts',
  'test/cli/bundle-prune.test.ts',
  'test/cli/check-temp-leftovers.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/failing-plane.test.ts',
  'test/cli/help.test.ts',
  'test/cli/launch.test.ts',
  'test/cli/never-lies.test.ts',
  'test/cli/next-steps.test.ts',
  'test/cli/prompt.test.ts',
  'test/codegen/compile-cache.test.ts',
  'test/codegen/raw-reader.test.ts',
  'test/dev/lifeline.test.ts',
  'test/dev/watcher.test.ts',
  'test/e2e/alpha-generate.test.ts',
  'test/import/bad-input.test.ts',
  'test/import/block-yaml.test.ts',
  'test/import/corpus.test.ts',
  'test/import/kubebuilder.test.ts',
  'test/import/kubebuilder-settings.test.ts',
  'test/import/kubebuilder-projects.test.ts',
  'test/olm/bundle-script.test.ts',
  'test/scaffold/cli.test.ts',
  'test/scaffold/deploy-image.test.ts',
  'test/scaffold/escaping.test.ts',
  'test/scaffold/dotted-groups.test.ts',
  'test/scaffold/kind-names-plugins.test.ts',
  'test/scaffold/kind-names.test.ts',
  'test/scaffold/lint.test.ts',
  'test/scaffold/main-flags.test.ts',
  'test/scaffold/rollback.test.ts',
  'test/scaffold/sample-spec.test.ts',
  'test/upgrade/moved-runtime-files.test.ts',
  'test/upgrade/runtime-modules.test.ts',
];

export default defineConfig({
  plugins: [decoratorsPlugin()],
  test: {
    // kubectl's cache goes to a temp folder removed at the end, not to ~/.kube/cache.
    globalSetup: ['test/setup/kubectl-cache.ts'],
    // Within each project, the longest files start first (see the file).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'runtime/**/*.test.ts'],
          // test/anchors runs beside the Go tools themselves: `npm run test:anchors`.
          exclude: ['**/*.int.test.ts', '**/node_modules/**', 'test/anchors/**', ...PROCESS_TESTS],
          setupFiles: [
            'test/setup/no-processes.ts',
            'test/setup/cpu-record.ts',
            'test/setup/remove-file-temp-roots.ts',
          ],
          // The files of a worker share its modules (no fresh module graph per file): pure logic
          // with nothing to reset, and a fresh import of ts-morph, the templates and the runtime
          // for each of 185 files cost three times the CPU of the tests themselves (124 CPU s
          // against 41 for the project here, quiet). A helper's per-file state goes through a
          // setup file (file-temp-roots.ts), since a setup file still runs for each file.
          isolate: false,
          // One worker per core: vitest's default leaves one core free, one worker on two cores.
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: PROCESS_TESTS,
          setupFiles: ['test/setup/cpu-record.ts', 'test/setup/remove-file-temp-roots.ts'],
          // dist/ built once before any file runs, never by a test (see the file).
          globalSetup: ['test/setup/built-cli.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two workers per core: a file spends much of its time waiting for the programs it
          // started, and under other load on the machine more runnable processes keep the
          // suite's share of the cores up.
          maxWorkers: 2 * availableParallelism(),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          setupFiles: ['test/setup/cpu-record.ts', 'test/setup/remove-file-temp-roots.ts'],
          include: ['test/**/*.int.test.ts', 'runtime/**/*.int.test.ts'],
          // dist/ built once before any file runs, never by a test; files that ask for
          // `shared: true` run on one control plane per worker, and the packaging tests on one
          // local npm registry (each started on first use).
          globalSetup: [
            'test/setup/built-cli.ts',
            'runtime/testing/plane-broker.ts',
            'test/setup/package-registry-broker.ts',
          ],
          exclude: ['**/node_modules/**', ...OUTAGE_TESTS],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One worker holds the 10-minute quiet-watch soak (almost idle), which starts first
          // (test/setup/longest-first.ts) and so runs beside the others rather than after them.
          // The other seven: a file spends much of its time waiting (for a plane to start, npm,
          // a lease or a watch to time out), so two of them left two cores a third idle in a
          // quiet CI run (1.3 cores used on average), and under a load beside it (other jobs on
          // the machine) the suite's share of the cores grows with the processes it keeps
          // runnable: with five, a run beside two busy processes used 1.2 cores here for 1,260 s.
          maxWorkers: 8,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'outage',
          include: OUTAGE_TESTS,
          setupFiles: ['test/setup/cpu-record.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
