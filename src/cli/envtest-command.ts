/**
 * How `tsop envtest` and its subcommands read their flags (setup-envtest's names where it has
 * them: `use [version]`, `-i`, `-p path|env`, `--index`; declared in command-flags.ts); the work
 * is in envtest.ts, loaded only when one of them runs.
 */
import type { Command } from 'commander';
import { command } from './flag-spec.js';
import { ENVTEST_LIST_FLAGS, ENVTEST_USE_FLAGS } from './command-flags.js';
import type { EnvtestListFlags, EnvtestSourceFlags, EnvtestUseFlags } from './envtest.js';

export function registerEnvtestCommand(program: Command): void {
  const envtest = program
    .command('envtest')
    .description(
      "control-plane binaries for tests and tsop dev, as setup-envtest does: download (checked) or build them into setup-envtest's cache",
    );
  command(
    envtest,
    'use',
    "download what the cache lacks (etcd, kube-apiserver, kubectl; the fuller plane's too with --fuller) and print where it is",
    ENVTEST_USE_FLAGS,
  )
    .argument(
      '[version]',
      'exact (1.36.3), a minor (1.36, 1.36.x) or latest; default: the version tsop is tested with, else the newest patch of its minor',
    )
    .action(async (version: string | undefined, opts: EnvtestUseFlags) => {
      const { runEnvtestUse } = await import('./envtest.js');
      await runEnvtestUse(version, opts);
    });
  command(
    envtest,
    'list',
    'list the versions in the cache and those the release index offers for this platform',
    ENVTEST_LIST_FLAGS,
  ).action(async (opts: EnvtestListFlags) => {
    const { runEnvtestList } = await import('./envtest.js');
    await runEnvtestList(opts);
  });
  envtest
    .command('cleanup')
    .description('remove versions from the cache (all without a version), and partial downloads')
    .argument('[version]', 'exact (1.36.3) or a minor (1.36, 1.36.x)')
    .action(async (version: string | undefined, opts: EnvtestSourceFlags) => {
      const { runEnvtestCleanup } = await import('./envtest.js');
      await runEnvtestCleanup(version, opts);
    });
}
