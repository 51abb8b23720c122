/**
 * The OLM commands, operator-sdk's names and flags (declared in command-flags.ts):
 * `generate kustomize manifests`, `generate bundle`, `bundle validate` and `scorecard`. Each
 * module loads when its command runs.
 */
import type { Command } from 'commander';
import { command } from './flag-spec.js';
import { BUNDLE_FLAGS, BUNDLE_VALIDATE_FLAGS, KUSTOMIZE_MANIFESTS_FLAGS, SCORECARD_FLAGS } from './command-flags.js';
import type { BundleFlags, KustomizeManifestsFlags } from './generate-olm.js';
import type { BundleValidateFlags } from './bundle-validate.js';
import type { ScorecardFlags } from './scorecard.js';

export function registerOlmCommands(program: Command): void {
  const generate = program
    .command('generate')
    .description(
      'OLM: generate the ClusterServiceVersion base (generate kustomize manifests) or a bundle (generate bundle), as operator-sdk does',
    );
  const kustomize = generate.command('kustomize').description('kustomize bases for OLM');
  command(
    kustomize,
    'manifests',
    'write config/manifests/bases/<package>.clusterserviceversion.yaml (descriptors from @CsvDescription/@CsvDescriptor) and, when missing, config/manifests/kustomization.yaml and config/scorecard/',
    KUSTOMIZE_MANIFESTS_FLAGS,
  ).action(async (opts: KustomizeManifestsFlags) => {
    const { runKustomizeManifests } = await import('./generate-olm.js');
    await runKustomizeManifests(opts);
  });
  command(
    generate,
    'bundle',
    "write the OLM bundle (bundle/manifests, bundle/metadata, bundle/tests/scorecard) and bundle.Dockerfile from 'kubectl kustomize config/manifests' ($IMG sets the manager image)",
    BUNDLE_FLAGS,
  ).action(async (opts: BundleFlags) => {
    const { runGenerateBundle } = await import('./generate-olm.js');
    await runGenerateBundle(opts);
  });

  const bundle = program.command('bundle').description('OLM bundle commands (bundle validate)');
  command(
    bundle,
    'validate [dir]',
    "validate a bundle directory as operator-sdk does (operator-framework/api's validators); exit 1 on any error",
    BUNDLE_VALIDATE_FLAGS,
  ).action(async (dir: string | undefined, opts: BundleValidateFlags) => {
    const { runBundleValidate } = await import('./bundle-validate.js');
    await runBundleValidate(dir, opts);
  });

  command(
    program,
    'scorecard [bundle]',
    "run the bundle's scorecard tests (basic and olm suites) with its CRDs installed and samples applied on an embedded control plane; exit 1 when a test fails",
    SCORECARD_FLAGS,
  ).action(async (bundle: string | undefined, opts: ScorecardFlags) => {
    const { runScorecard } = await import('./scorecard.js');
    await runScorecard(bundle, opts);
  });
}
