/**
 * The flags of alpha generate and update, import, dev, docs and envtest, each declared once (src/flag.ts):
 * commands.ts adds them to the command line, each command module takes its options type from
 * here (`FlagsOf`) and checks them with `checkFlags`. The scaffolding commands' flags are the
 * plugins' (src/plugins/command-flags.ts), `manifests`' and the OLM commands' are their folders'
 * (src/manifests/flags.ts, src/olm/flags.ts). It must stay light to load, as `tsop --help` loads it.
 */
import { bool, count, defineFlags, optionalText, projectDir, text } from '../flag.js';

export const ALPHA_GENERATE_FLAGS = defineFlags({
  inputDir: text('path', 'project to read PROJECT from (default: the current directory)'),
  outputDir: text('path', 'new or empty directory to scaffold into'),
});

export const ALPHA_UPDATE_FLAGS = defineFlags({
  fromVersion: text(
    'version',
    'the tsop that scaffolded the project: a version (default: cliVersion in PROJECT, installed from where package-lock.json says), a tarball (file:/x/tsop-0.1.0.tgz) or a git ref',
  ),
  toVersion: text(
    'version',
    'the tsop to update to: a version, a tarball or a git ref (default: this tsop; another one is installed with npm)',
  ),
  fromBranch: text('branch', 'the branch to update (default: the one checked out); it is left as it is'),
  outputBranch: text('branch', 'the branch the update is committed on (default: tsop-update-from-<from>-to-<to>)'),
  force: bool('commit conflicts with their markers instead of leaving them unmerged (exit 1 all the same)'),
  ci: bool(
    'for automation: nothing interactive, nothing committed when files conflict, exit 1 on conflicts or type errors and 2 when the type-check cannot run',
  ),
  typecheck: bool(
    "run the project's type-check after the merge and report each error with the tsop change behind it (default true)",
  ),
  dir: projectDir(),
});

export const IMPORT_CRD_FLAGS = defineFlags({
  own: bool('the kinds become APIs of this project: PROJECT entry, src/api/<version>/, samples (the default)'),
  external: bool(
    "types only, for another project's kinds this one watches or creates: src/external/<group>/<version>/, and the CRD in config/crd/external/",
  ),
  allowLossy: bool(
    "write the closest TypeScript where a CRD uses what tsop cannot express, with a '// tsop: not expressible' comment there (without it: exit 1, nothing written)",
  ),
  force: bool('overwrite files that exist'),
  make: bool('run tsop manifests afterwards (default true)'),
  dryRun: bool('print the files that would be written or changed; write nothing'),
  dir: projectDir(),
});

export const IMPORT_KUBEBUILDER_FLAGS = defineFlags({
  allowLossy: bool(
    "write the closest TypeScript where a CRD uses what tsop cannot express, with a '// tsop: not expressible' comment there",
  ),
  force: bool('overwrite files that exist'),
  make: bool('run tsop manifests afterwards (default true)'),
  scaffold: bool(
    'also scaffold what PROJECT records: each controller (deploy-image ones with their image), each webhook (conversion with its spokes) and the Helm chart',
  ),
  dryRun: bool('print the files that would be written; write nothing'),
  dir: text(
    'path',
    'the tsop project to write (default: the current directory; made with the kubebuilder settings when it has no PROJECT)',
  ),
});

export const DEV_FLAGS = defineFlags({
  dir: projectDir(),
  kubeconfig: optionalText(
    'path',
    'use this cluster instead of an embedded control plane (without a path: $KUBECONFIG or ~/.kube/config, its current context)',
  ),
  samples: bool('apply config/samples at start and on save (default true)'),
  keep: optionalText(
    'dir',
    "keep the embedded control plane's data (etcd) in this folder for the next --keep run, so its objects survive Ctrl-C (without a path: .tsop/dev in the project)",
  ),
  controllers: bool(
    'the fuller plane: kube-controller-manager, kube-scheduler and kwok nodes, so pods are ' +
      'scheduled and run, Jobs complete and owned objects are garbage-collected (default: on ' +
      'when the controllers may create workloads)',
  ),
  nodes: count('n', 'kwok nodes of the fuller plane (default 1)'),
  console: bool(
    'serve the live console on loopback: reconciles with their triggers and API calls, object versions and diffs, webhook calls, restarts (default true)',
  ),
  consolePort: count('port', "the console's port on 127.0.0.1 (default: a free one)"),
});

export const DOCS_FLAGS = defineFlags({
  dir: text('path', 'project root', { default: '.' }),
  out: text('path', 'folder to write the pages into, relative to --dir', { default: 'docs/api' }),
  check: bool('write nothing; exit 1 if a page is out of date'),
});

/** The base URL flags of envtest use and list (runtime/envtest/download/sources.ts lists the same, with their variables). */
export const ENVTEST_SOURCE_FLAGS = defineFlags({
  index: text('url', "setup-envtest's release index for etcd, kube-apiserver, kubectl (env TSOP_ENVTEST_INDEX_URL)"),
  archiveUrl: text(
    'url',
    "fetch the index's archives from <url>/envtest-v<version>/<archive> (env TSOP_ENVTEST_ARCHIVE_URL)",
  ),
  kubernetesUrl: text(
    'url',
    'Kubernetes release binaries, <url>/v<version>/bin/<os>/<arch>/<name> with .sha256 (env TSOP_KUBERNETES_RELEASE_URL; default https://dl.k8s.io/release)',
  ),
  kwokUrl: text('url', 'kwok release binaries, <url>/v<version>/kwok-<os>-<arch> (env TSOP_KWOK_RELEASE_URL)'),
  kwokApiUrl: text('url', "kwok's releases API, for each binary's sha256 digest (env TSOP_KWOK_API_URL)"),
});

export const ENVTEST_USE_FLAGS = defineFlags({
  fuller: bool(
    'also kube-controller-manager, kube-scheduler and kwok (pods scheduled and run on fake nodes, garbage collection)',
  ),
  source: bool(
    'build them from the Go module proxy instead (needs Go 1.26+; minutes); also done when the download hosts are unreachable and Go is installed',
  ),
  installedOnly: bool('use only what is in the cache; download nothing (after the version: use 1.36 -i)', {
    short: 'i',
  }),
  print: text('format', 'what to print: overview, path (the directory alone) or env (export KUBEBUILDER_ASSETS=…)', {
    short: 'p',
    default: 'overview',
  }),
  ...ENVTEST_SOURCE_FLAGS,
});

export const ENVTEST_LIST_FLAGS = defineFlags({
  installedOnly: bool('list only what is in the cache', { short: 'i' }),
  ...ENVTEST_SOURCE_FLAGS,
});
