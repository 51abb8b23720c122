/**
 * `tsop generate kustomize manifests` and `tsop generate bundle` (operator-sdk's commands of the
 * same names and flags): the CSV base with descriptors from the API's decorators, then the OLM
 * bundle built from `kubectl kustomize config/manifests`. Each checks its flags and plans every
 * file before it writes any, all or nothing.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { LAYOUT, parseProject, PROJECT_FILE, type ProjectConfig } from '../project/config.js';
import { applyFiles, type FileOp } from '../scaffold/apply.js';
import { validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { planBundle } from '../olm/bundle.js';
import { collect } from '../olm/collector.js';
import { csvFileName } from '../olm/csv.js';
import { badVersion, generateCsv } from '../olm/csv-generate.js';
import { pinImageDigests } from '../olm/digests.js';
import { readManifestsInput } from '../olm/input.js';
import { planKustomizeManifests, readBase } from '../olm/kustomize-manifests.js';
import { bundleLabels, csvAnnotations } from '../olm/labels.js';
import { parseSemver } from '../olm/semver.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { BUNDLE_FLAGS, KUSTOMIZE_MANIFESTS_FLAGS } from '../olm/flags.js';

export type KustomizeManifestsFlags = FlagsOf<typeof KUSTOMIZE_MANIFESTS_FLAGS>;

export async function runKustomizeManifests(given: KustomizeManifestsFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(KUSTOMIZE_MANIFESTS_FLAGS, given);
  const root = resolve(flags.dir ?? process.cwd());
  const project = readProjectFile(root, 'generate kustomize manifests');
  const packageName = checkPackage(flags.package ?? project.projectName);
  const model = await (await import('../codegen/reader/sources.js')).readProjectApi(root);
  const tree = new Tree(diskSource(root));
  const written = planKustomizeManifests(tree, model, {
    packageName,
    inputDir: projectPath(root, flags.inputDir ?? 'config/manifests', '--input-dir'),
    outputDir: projectPath(root, flags.outputDir ?? 'config/manifests', '--output-dir'),
    webhooks: project.resources.some((r) => r.webhooks?.defaulting || r.webhooks?.validation),
  });
  commit(root, tree, []);
  if (!flags.quiet) for (const path of written) io.err(`wrote ${path}\n`);
}

export type BundleFlags = FlagsOf<typeof BUNDLE_FLAGS>;

export async function runGenerateBundle(
  given: BundleFlags,
  io: CommandIO = stdio,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const checked = checkFlags(BUNDLE_FLAGS, given);
  // An empty --default-channel (operator-sdk's Makefile passes `--default-channel=` when unset) means none.
  const { defaultChannel: _, ...rest } = checked;
  const flags: BundleFlags = checked.defaultChannel === '' ? rest : checked;
  const root = resolve(flags.dir ?? process.cwd());
  if (flags.version !== undefined && parseSemver(flags.version) === undefined) throw badVersion(flags.version);
  const project = flags.package === undefined ? readProjectFile(root, 'generate bundle') : undefined;
  const packageName = checkPackage(flags.package ?? project!.projectName);
  const channels = flags.channels ?? 'alpha';
  if (channels.split(',').some((c) => c.trim() === ''))
    throw new UserError(
      `--channels: '${channels}' has an empty channel name; pass names separated by single commas, e.g. --channels alpha,stable`,
    );
  if (
    flags.defaultChannel !== undefined &&
    !channels
      .split(',')
      .map((c) => c.trim())
      .includes(flags.defaultChannel)
  ) {
    throw new UserError(
      `--default-channel: '${flags.defaultChannel}' is not one of --channels (${channels}); add it there or pick one of them`,
    );
  }
  const kustomizeDir = projectPath(root, flags.kustomizeDir ?? 'config/manifests', '--kustomize-dir');
  const outputDir = projectPath(root, flags.outputDir ?? 'bundle', '--output-dir');
  const docs = await readManifestsInput(
    root,
    flags.inputDir === undefined ? { kustomizeDir } : { inputDir: projectPath(root, flags.inputDir, '--input-dir') },
    env,
  );
  const collected = collect(docs);
  const basePath = `${kustomizeDir}/bases/${csvFileName(packageName)}`;
  const baseText = diskSource(root).read(basePath);
  if (collected.deployments.length === 0)
    throw new UserError(
      `generate bundle: the manifests have no Deployment to install; check that ${kustomizeDir}/kustomization.yaml includes ../default`,
    );
  const csv = generateCsv(collected, {
    packageName,
    ...(flags.version !== undefined ? { version: flags.version } : {}),
    ...(baseText !== undefined ? { fallbackBase: readBase(baseText, basePath, packageName) } : {}),
    now: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    annotations: csvAnnotations(project?.layout[0] ?? LAYOUT),
  });
  if (flags.useImageDigests) await pinImageDigests(csv, collected, env);
  const tree = new Tree(diskSource(root));
  const stale = planBundle(tree, {
    csv,
    collected,
    outputDir,
    existingManifests: listDir(join(root, outputDir, 'manifests')),
    metadata: {
      packageName,
      channels,
      ...(flags.defaultChannel ? { defaultChannel: flags.defaultChannel } : {}),
      labels: bundleLabels(project?.layout[0] ?? LAYOUT),
      scorecard: collected.scorecardConfig !== undefined,
    },
  });
  const changes = commit(root, tree, stale);
  if (!flags.quiet) {
    for (const c of changes) io.err(`wrote ${c}\n`);
    for (const s of stale) io.err(`removed ${s}\n`);
    io.err(
      `bundle ${csv.metadata.name} generated in ${outputDir}; check it with 'tsop bundle validate ./${outputDir}'\n`,
    );
  }
}

function commit(root: string, tree: Tree, removals: readonly string[]): string[] {
  const changes = validatePlan(tree);
  const ops: FileOp[] = [
    ...changes.map((c) => ({ path: c.path, content: c.content })),
    ...removals.map((path) => ({ path, remove: true as const })),
  ];
  applyFiles(root, ops);
  return changes.map((c) => c.path);
}

function readProjectFile(root: string, command: string): ProjectConfig {
  const text = diskSource(root).read(PROJECT_FILE);
  if (text === undefined)
    throw new UserError(
      `${command}: ${root} is not a tsop project (no ${PROJECT_FILE} file); run it in the project's directory, pass --dir <project>, or name the package with --package`,
    );
  return parseProject(text, PROJECT_FILE);
}

function checkPackage(name: string): string {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63) {
    throw new UserError(
      `--package: '${name}' is not a valid package name (a DNS-1123 label: lower case letters, digits and '-', at most 63); pass --package <name>`,
    );
  }
  return name;
}

/** A folder inside the project, as a relative path with forward slashes. */
function projectPath(root: string, path: string, flag: string): string {
  const rel = relative(root, resolve(root, path)).split('\\').join('/');
  if (rel.startsWith('..') || rel === '')
    throw new UserError(`${flag}: '${path}' must be a folder inside the project (${root})`);
  return rel;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
