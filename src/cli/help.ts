/**
 * How tsop describes itself, as kubebuilder does: `tsop help [command…]`, `tsop version`, and an
 * Examples section at the end of every command's `--help`. The examples are one table keyed by
 * the command path, so a command without examples is easy to spot (test/cli/help.test.ts fails).
 */
import type { Command } from 'commander';
import { UserError } from '../errors.js';
import { TSOP_VERSION } from '../version.js';
import { EXIT_CODES_LINE } from './exit-codes.js';

/** [comment, command line] pairs per command path ('create api'). */
const EXAMPLES: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  init: [
    [
      'a project for the domain example.com, with the owner in the license header',
      'tsop init --domain example.com --owner "Acme Corp"',
    ],
    [
      'a namespaced operator laid out for several API groups, without running npm install',
      'tsop init --domain example.com --repo @acme/memcached-operator --namespaced --multigroup --skip-install',
    ],
    ['list the files init would write, and write nothing', 'tsop init --domain example.com --dry-run'],
    [
      "your own license header (a /* ... */ comment) on every generated file; kubebuilder's go/v4 plugin key is accepted",
      'tsop init --domain example.com --plugins go/v4 --license-file ./hack/header.txt',
    ],
  ],
  create: [
    [
      'a kind and its controller',
      'tsop create api --group cache --version v1alpha1 --kind Memcached --resource --controller',
    ],
  ],
  'create api': [
    [
      'a kind and its controller (asked on a terminal when --resource / --controller are left out)',
      'tsop create api --group cache --version v1alpha1 --kind Memcached --resource --controller',
    ],
    [
      'a cluster-scoped kind with its own plural, types only',
      'tsop create api --group infra --version v1 --kind Fleet --plural fleets --namespaced=false --controller=false',
    ],
    [
      'a second version of an existing kind (it joins the same CRD)',
      'tsop create api --group cache --version v1beta1 --kind Memcached --resource --controller=false',
    ],
    [
      "kubebuilder's deploy-image plugin: a controller that runs an image",
      'tsop create api --group cache --version v1alpha1 --kind Memcached --plugins deploy-image/v1-alpha --image memcached:1.6 --image-container-port 11211',
    ],
  ],
  'create webhook': [
    [
      'a defaulting and a validating webhook for a kind of the project',
      'tsop create webhook --group cache --version v1alpha1 --kind Memcached --defaulting --programmatic-validation',
    ],
    [
      'conversion: v2 is the hub, v1alpha1 converts to and from it',
      'tsop create webhook --group cache --version v2 --kind Memcached --conversion --spoke v1alpha1',
    ],
    [
      'a defaulting webhook for a built-in kind',
      'tsop create webhook --group core --version v1 --kind Pod --defaulting',
    ],
  ],
  edit: [
    ['lay out new APIs as src/api/<group>/<version>', 'tsop edit --multigroup'],
    ['watch every namespace again, with a ClusterRole', 'tsop edit --namespaced=false'],
    ['change the license header of every scaffolded file', 'tsop edit --license none --owner "Acme Corp"'],
    [
      'your own license header (a /* ... */ comment) on every scaffolded file',
      'tsop edit --license-file ./hack/header.txt',
    ],
  ],
  import: [
    [
      "a CRD as one of the project's APIs, in TypeScript",
      'tsop import crd config/crd/bases/flights.example.com_flighttickets.yaml',
    ],
  ],
  'import crd': [
    [
      "a CRD as one of the project's APIs (PROJECT entry, src/api/<version>/, sample); tsop manifests regenerates it from then on",
      'tsop import crd ./flighttickets.yaml',
    ],
    [
      "another project's kind to watch or create: types only, and its CRD for the tests",
      'tsop import crd https://example.com/cert-manager.crds.yaml --external',
    ],
    [
      'a CRD from the cluster, writing the closest TypeScript where tsop cannot express something',
      'kubectl get crd widgets.example.com -o yaml | tsop import crd - --allow-lossy',
    ],
  ],
  'import kubebuilder': [
    [
      'a tsop project of a kubebuilder project, in a new directory',
      'tsop import kubebuilder ../memcached-operator --dir ../memcached-operator-ts',
    ],
  ],
  alpha: [
    [
      're-scaffold the project with this tsop into a new directory',
      'tsop alpha generate --output-dir ../memcached-operator-regenerated',
    ],
  ],
  'alpha generate': [
    [
      're-scaffold the project in the current directory into a new one',
      'tsop alpha generate --output-dir ../memcached-operator-regenerated',
    ],
    [
      're-scaffold another project',
      'tsop alpha generate --input-dir ./memcached-operator --output-dir ./memcached-operator-fresh',
    ],
  ],
  'alpha update': [
    [
      "take this tsop's scaffolding on a new branch (commit your work first); merge it when it type-checks",
      'tsop alpha update',
    ],
    [
      'from and to named versions (each installed with npm, from where package-lock.json says or the registry)',
      'tsop alpha update --from-version 0.1.0 --to-version 0.2.0',
    ],
    [
      'from a tsop no registry has: its tarball (or a git ref)',
      'tsop alpha update --from-version file:../tsop-0.1.0.tgz',
    ],
    [
      'in a scheduled CI job: nothing committed on conflicts, a non-zero exit on conflicts or type errors',
      'tsop alpha update --ci --output-branch tsop-update && git push origin tsop-update',
    ],
  ],
  manifests: [
    ['regenerate config/crd/bases and config/rbac/role.yaml', 'tsop manifests'],
    ['in CI: fail with a diff when the committed manifests are out of date', 'tsop manifests --check'],
    ['CRDs without descriptions (for the size limit of client-side kubectl apply)', 'tsop manifests --max-desc-len 0'],
  ],
  generate: [
    [
      'the CSV base of an OLM bundle, with descriptors from @CsvDescription / @CsvDescriptor',
      'tsop generate kustomize manifests',
    ],
  ],
  'generate kustomize': [
    [
      'the CSV base in config/manifests/bases, and the overlay the bundle is built from',
      'tsop generate kustomize manifests',
    ],
  ],
  'generate kustomize manifests': [
    [
      'write or refresh config/manifests/bases/<project>.clusterserviceversion.yaml',
      'tsop generate kustomize manifests',
    ],
    ['for another package name, quietly', 'tsop generate kustomize manifests --package memcached-operator -q'],
  ],
  'generate bundle': [
    [
      'bundle version 0.0.1 of the operator built with the image $IMG',
      'IMG=quay.io/acme/memcached-operator:v0.0.1 tsop generate bundle --version 0.0.1',
    ],
    [
      'in two channels, stable by default, with images pinned to digests',
      'tsop generate bundle --version 0.1.0 --channels alpha,stable --default-channel stable --use-image-digests',
    ],
    [
      'from cluster-ready manifests in a folder instead of config/manifests',
      'tsop generate bundle --input-dir deploy --package memcached-operator --version 0.0.1',
    ],
  ],
  bundle: [['check a bundle as operator-sdk does', 'tsop bundle validate ./bundle']],
  'bundle validate': [
    ['the checks every bundle gets', 'tsop bundle validate ./bundle'],
    [
      "OperatorHub's: metadata, capabilities, categories, removed APIs, good practices",
      'tsop bundle validate ./bundle --select-optional suite=operatorframework',
    ],
    [
      'APIs removed by the Kubernetes version the bundle targets, as JSON',
      'tsop bundle validate ./bundle --select-optional name=alpha-deprecated-apis --optional-values k8s-version=1.25 -o json-alpha1',
    ],
    ['the optional validators and their labels', 'tsop bundle validate --list-optional'],
  ],
  scorecard: [
    ["the bundle's basic and olm tests on an embedded control plane", 'tsop scorecard ./bundle'],
    ['the olm suite only, as JSON', 'tsop scorecard ./bundle --selector suite=olm -o json'],
    ['list the tests without running them', 'tsop scorecard ./bundle --list'],
  ],
  docs: [
    ['write the API reference to docs/api/ (one Markdown page per group/version, and an index)', 'tsop docs'],
    ['write it somewhere else', 'tsop docs --out website/content/api'],
    ['in CI: fail when the committed pages are out of date', 'tsop docs --check'],
  ],
  dev: [
    ['the dev loop on an embedded control plane (npm run dev does the same)', 'tsop dev'],
    ['against the cluster of your current kubeconfig context instead', 'tsop dev --kubeconfig'],
    ['without applying config/samples', 'tsop dev --samples=false'],
    [
      'the fuller plane with three fake nodes: pods scheduled and running, Jobs completing, garbage collection',
      'tsop dev --controllers --nodes 3',
    ],
  ],
  envtest: [
    [
      "download the control-plane binaries tests and tsop dev use (checked, into setup-envtest's cache)",
      'tsop envtest use',
    ],
  ],
  'envtest use': [
    [
      'the version tsop is tested with, the fuller plane too (controller-manager, scheduler, kwok)',
      'tsop envtest use --fuller',
    ],
    ['the newest 1.35 patch, printing only its directory', 'tsop envtest use 1.35.x -p path'],
    [
      "from your company's mirror of setup-envtest's index",
      'tsop envtest use --index https://mirror.example.com/envtest-releases.yaml',
    ],
    ['build them from the Go module proxy instead (needs Go)', 'tsop envtest use --fuller --source'],
  ],
  'envtest list': [
    ['what is in the cache and what the index offers', 'tsop envtest list'],
    ['only what is in the cache', 'tsop envtest list -i'],
  ],
  'envtest cleanup': [
    ['remove one version from the cache', 'tsop envtest cleanup 1.35.0'],
    ['remove every version and any partial download', 'tsop envtest cleanup'],
  ],
  help: [['the flags and examples of create api', 'tsop help create api']],
  version: [['the tsop and Node.js versions', 'tsop version']],
};

/** The command's path below the program: 'create api'. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command below `program`, depth first (groups and their subcommands). */
export function allCommands(program: Command): Command[] {
  return program.commands.flatMap((c) => [c, ...allCommands(c)]);
}

function examplesText(path: string): string | undefined {
  const examples = EXAMPLES[path];
  if (!examples) return undefined;
  return `\nExamples:\n${examples.map(([comment, line]) => `  # ${comment}\n  ${line}\n`).join('\n')}`;
}

/** `help [command…]` and `version`, then examples on every command that has them. */
export function registerHelp(program: Command, rebuild: () => Command): void {
  program
    .command('help')
    .description('show the help of a command, e.g. tsop help create api')
    .argument('[command...]', 'the command')
    .action(async (names: string[]) => {
      let cmd = program;
      for (const name of names) {
        const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!sub)
          throw new UserError(`help: unknown command '${names.join(' ')}'; run 'tsop --help' for the list of commands`);
        cmd = sub;
      }
      if (cmd === program) program.help();
      // Through a fresh program, as if `<command> --help` was typed, so per-command help hooks run.
      await rebuild().parseAsync([...names, '--help'], { from: 'user' });
    });
  program
    .command('version')
    .description('print the tsop version, and the Node.js version and platform it runs on')
    .action(() => {
      process.stdout.write(`tsop ${TSOP_VERSION} (Node.js ${process.version}, ${process.platform}/${process.arch})\n`);
    });
  for (const cmd of allCommands(program)) {
    const text = examplesText(commandPath(cmd));
    if (text) cmd.addHelpText('after', text);
    cmd.addHelpText('after', EXIT_CODES_LINE);
  }
}
