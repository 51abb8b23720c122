/**
 * How `tsop envtest` and its subcommands read their flags (setup-envtest's names where it has
 * them: `use [version]`, `-i`, `-p path|env`, `--index`); the work is in envtest.ts, loaded only
 * when one of them runs.
 */
import type { Command } from 'commander';
import type { EnvtestListFlags, EnvtestSourceFlags, EnvtestUseFlags } from './envtest.js';
import { booleanFlag as boolean } from './flags.js';

/** The base URL flags (runtime/envtest/download/sources.ts lists the same, with their variables). */
function withSources(cmd: Command): Command {
  return cmd
    .option('--index <url>', "setup-envtest's release index for etcd, kube-apiserver, kubectl (env TSOP_ENVTEST_INDEX_URL)")
    .option('--archive-url <url>', "fetch the index's archives from <url>/envtest-v<version>/<archive> (env TSOP_ENVTEST_ARCHIVE_URL)")
    .option('--kubernetes-url <url>', 'Kubernetes release binaries, <url>/v<version>/bin/<os>/<arch>/<name> with .sha256 (env TSOP_KUBERNETES_RELEASE_URL; default https://dl.k8s.io/release)')
    .option('--kwok-url <url>', 'kwok release binaries, <url>/v<version>/kwok-<os>-<arch> (env TSOP_KWOK_RELEASE_URL)')
    .option('--kwok-api-url <url>', "kwok's releases API, for each binary's sha256 digest (env TSOP_KWOK_API_URL)");
}

export function registerEnvtestCommand(program: Command): void {
  const envtest = program
    .command('envtest')
    .description("control-plane binaries for tests and tsop dev, as setup-envtest does: download (checked) or build them into setup-envtest's cache");
  withSources(
    envtest
      .command('use')
      .description("download what the cache lacks (etcd, kube-apiserver, kubectl; the fuller plane's too with --fuller) and print where it is")
      .argument('[version]', 'exact (1.36.3), a minor (1.36, 1.36.x) or latest; default: the version tsop is tested with, else the newest patch of its minor')
      .option('--fuller [bool]', 'also kube-controller-manager, kube-scheduler and kwok (pods scheduled and run on fake nodes, garbage collection)', boolean)
      .option('--source [bool]', 'build them from the Go module proxy instead (needs Go 1.26+; minutes); also done when the download hosts are unreachable and Go is installed', boolean)
      .option('-i, --installed-only [bool]', 'use only what is in the cache; download nothing (after the version: use 1.36 -i)', boolean)
      .option('-p, --print <format>', "what to print: overview, path (the directory alone) or env (export KUBEBUILDER_ASSETS=…)", 'overview'),
  ).action(async (version: string | undefined, opts: EnvtestUseFlags) => {
    const { runEnvtestUse } = await import('./envtest.js');
    await runEnvtestUse(version, opts);
  });
  withSources(
    envtest
      .command('list')
      .description('list the versions in the cache and those the release index offers for this platform')
      .option('-i, --installed-only [bool]', 'list only what is in the cache', boolean),
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
