/**
 * The OLM commands, operator-sdk's names and flags: `generate kustomize manifests`,
 * `generate bundle`, `bundle validate` and `scorecard`. Each module loads when its command runs.
 */
import type { Command } from 'commander';
import { booleanFlag as boolean } from './flags.js';
import type { BundleFlags, KustomizeManifestsFlags } from './generate-olm.js';
import type { BundleValidateFlags } from './bundle-validate.js';
import type { ScorecardFlags } from './scorecard.js';

export function registerOlmCommands(program: Command): void {
  const generate = program.command('generate').description('OLM: generate the ClusterServiceVersion base (generate kustomize manifests) or a bundle (generate bundle), as operator-sdk does');
  generate
    .command('kustomize')
    .description('kustomize bases for OLM')
    .command('manifests')
    .description('write config/manifests/bases/<package>.clusterserviceversion.yaml (descriptors from @CsvDescription/@CsvDescriptor) and, when missing, config/manifests/kustomization.yaml and config/scorecard/')
    .option('--package <name>', 'package name (default: the project name)')
    .option('--input-dir <dir>', 'folder holding an existing base (default config/manifests)')
    .option('--output-dir <dir>', 'folder to write the base to (default config/manifests)')
    .option('-q, --quiet [bool]', 'print nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: KustomizeManifestsFlags) => {
      const { runKustomizeManifests } = await import('./generate-olm.js');
      await runKustomizeManifests(opts);
    });
  generate
    .command('bundle')
    .description("write the OLM bundle (bundle/manifests, bundle/metadata, bundle/tests/scorecard) and bundle.Dockerfile from 'kubectl kustomize config/manifests' ($IMG sets the manager image)")
    .option('--version <semver>', "the bundle's semantic version (CSV name <package>.v<version>)")
    .option('--channels <list>', 'comma-separated channels the bundle belongs to', 'alpha')
    .option('--default-channel <name>', 'the default channel of the package')
    .option('--package <name>', 'package name (default: the project name)')
    .option('--use-image-digests [bool]', "pin images to their digests (asks each image's registry)", boolean)
    .option('--input-dir <dir>', 'read cluster-ready manifests from this folder instead of the kustomize build')
    .option('--kustomize-dir <dir>', 'the kustomize overlay with bases/ (default config/manifests)')
    .option('--output-dir <dir>', 'bundle folder (default bundle)')
    .option('-q, --quiet [bool]', 'print nothing', boolean)
    .option('--dir <path>', 'project directory (default: the current directory)')
    .action(async (opts: BundleFlags) => {
      const { runGenerateBundle } = await import('./generate-olm.js');
      await runGenerateBundle(opts);
    });

  program
    .command('bundle')
    .description('OLM bundle commands (bundle validate)')
    .command('validate [dir]')
    .description("validate a bundle directory as operator-sdk does (operator-framework/api's validators); exit 1 on any error")
    .option('--select-optional <selector>', "optional validators by label, e.g. suite=operatorframework or name=operatorhub,name=good-practices (see --list-optional)")
    .option('--optional-values <pairs>', 'key=value pairs for the optional validators, e.g. k8s-version=1.25')
    .option('--list-optional [bool]', 'list the optional validators and exit', boolean)
    .option('-o, --output <format>', "'text' or 'json-alpha1'", 'text')
    .action(async (dir: string | undefined, opts: BundleValidateFlags) => {
      const { runBundleValidate } = await import('./bundle-validate.js');
      await runBundleValidate(dir, opts);
    });


  program
    .command('scorecard [bundle]')
    .description("run the bundle's scorecard tests (basic and olm suites) with its CRDs installed and samples applied on an embedded control plane; exit 1 when a test fails")
    .option('-o, --output <format>', "'text' or 'json'", 'text')
    .option('-l, --selector <selector>', 'tests by label, e.g. suite=basic or test=olm-spec-descriptors-test')
    .option('-L, --list [bool]', 'list the selected tests, run none', boolean)
    .option('-c, --config <path>', 'scorecard configuration (default <bundle>/tests/scorecard/config.yaml)')
    .option('-w, --wait-time <seconds>', 'seconds to wait for the CRDs to be served', '30')
    .action(async (bundle: string | undefined, opts: ScorecardFlags) => {
      const { runScorecard } = await import('./scorecard.js');
      await runScorecard(bundle, opts);
    });
}
