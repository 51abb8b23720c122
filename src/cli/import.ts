/**
 * `tsop import crd <file|dir|url|->` and `tsop import kubebuilder <dir>`: bring existing CRDs, or
 * a whole kubebuilder project's APIs, into a tsop project as decorated TypeScript. The CRDs are
 * read and checked, the TypeScript written and its round trip checked, and the whole plan made,
 * before anything is written; with --make (default) `tsop manifests` runs afterwards, as after
 * `create api`, and undoes the import if it fails.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import { readCrds } from '../import/documents.js';
import { readInputs } from '../import/input.js';
import { planImport, type ImportPlan } from '../import/import-project.js';
import { carriedSteps, commandLine, type CarriedStep } from '../import/kubebuilder-carry.js';
import { readMakefileOptions } from '../import/makefile.js';
import { scaffoldCarried } from './import-scaffold.js';
import { MANIFESTS_PLUGIN, projectManifestOptions, withManifestOptions } from '../manifests/project-options.js';
import { PROJECT_FILE, renderProject } from '../project/config.js';
import {
  type GoFile,
  goFilesToRewrite,
  MIGRATION_GUIDE,
  npmName,
  ownedCrds,
  readKubebuilderProject,
} from '../import/kubebuilder.js';
import { externalCrdPath } from '../import/plan.js';
import { scaffoldInit } from '../plugins/base/init.js';
import { scaffoldYear } from '../scaffold/boilerplate.js';
import { loadProject } from '../project/load.js';
import { groupInDomain } from '../import/import-crd.js';
import { describeChanges, validatePlan } from '../scaffold/commit.js';
import { commitScaffold } from './commit-scaffold.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { TSOP_VERSION, tsopDependencySpec } from '../version.js';
import { stdio, type CommandIO } from './io.js';
import { REGENERATE_AND_TEST } from './next-steps.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { IMPORT_CRD_FLAGS, IMPORT_KUBEBUILDER_FLAGS } from './command-flags.js';
import type { ProjectConfig } from '../project/config.js';

export type ImportCrdFlags = FlagsOf<typeof IMPORT_CRD_FLAGS>;

export async function runImportCrd(input: string, given: ImportCrdFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(IMPORT_CRD_FLAGS, given);
  if (flags.own === true && flags.external === true)
    throw new UserError('import crd: --own and --external exclude each other; pass one (the default is --own)');
  const mode = flags.external === true ? 'external' : 'own';
  const root = resolve(flags.dir ?? process.cwd());
  const config = await loadProject(root, 'import crd', io.err);
  const { crds, skipped } = readCrds(await readInputs(input));
  for (const s of skipped) io.err(`tsop: note: skipped ${s} (not a CustomResourceDefinition)\n`);
  const tree = new Tree(diskSource(root));
  const plan = planImport(tree, config, crds, {
    mode,
    allowLossy: flags.allowLossy === true,
    force: flags.force === true,
  });
  await finish(root, tree, plan, flags, io);
  if (flags.dryRun) return;
  if (mode === 'own') {
    const first = plan.kinds[0]?.source.crd;
    if (first) {
      const storage = first.spec.versions.find((v) => v.storage) ?? first.spec.versions[0]!;
      io.err(
        `next: to reconcile ${first.spec.names.kind}, npx tsop create api --group ` +
          `${groupInDomain(first.spec.group, config.domain)} --version ${storage.name} --kind ` +
          `${first.spec.names.kind} --resource=false --controller; ${REGENERATE_AND_TEST}\n`,
      );
    }
  }
  if (mode === 'external') {
    for (const k of plan.kinds) {
      const crd = k.source.crd;
      const dot = crd.spec.group.indexOf('.');
      const [group, domain] =
        dot < 0 ? [crd.spec.group, ''] : [crd.spec.group.slice(0, dot), crd.spec.group.slice(dot + 1)];
      const storage = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]!;
      const file = k.files.find((f) => f.version === storage.name)!.file.path;
      io.err(
        `${crd.spec.names.kind}: types in ${file} (with ` +
          `${k.files.length > 1 ? 'one file per version' : `the typed kind ${crd.spec.names.kind[0]!.toLowerCase()}${crd.spec.names.kind.slice(1)}Kind`}); ` +
          `its CRD is in ${externalCrdPath(crd)} for the controller tests; to reconcile it: npx tsop ` +
          `create api --group ${group} --version ${storage.name} --kind ${crd.spec.names.kind} ` +
          `--external-api-path ${file}${domain ? ` --external-api-domain ${domain}` : ''} ` +
          `--resource=false --controller\n`,
      );
    }
  }
}

export type ImportKubebuilderFlags = FlagsOf<typeof IMPORT_KUBEBUILDER_FLAGS>;

export async function runImportKubebuilder(
  from: string,
  given: ImportKubebuilderFlags,
  io: CommandIO = stdio,
): Promise<void> {
  const flags = checkFlags(IMPORT_KUBEBUILDER_FLAGS, given);
  const source = resolve(from);
  const root = resolve(flags.dir ?? process.cwd());
  const project = await readKubebuilderProject(source);
  const { crds, notOwned } = await ownedCrds(source, project);
  for (const o of notOwned)
    io.err(`tsop: note: skipped ${o}: PROJECT does not list its kind as one the project owns\n`);
  const makefile = await readMakefileOptions(source, shownPath(from, 'Makefile'));
  const tree = new Tree(diskSource(root));
  let config: ProjectConfig;
  if (existsSync(resolve(root, 'PROJECT'))) {
    config = await loadProject(root, 'import kubebuilder', io.err);
    if (config.domain !== project.domain) {
      throw new UserError(
        `import kubebuilder: ${root} is a tsop project of the domain ${config.domain}, and the ` +
          `kubebuilder project's is ${project.domain}; import into a new directory (--dir) to make a ` +
          `project of its domain`,
      );
    }
  } else {
    config = scaffoldInit(tree, {
      domain: project.domain,
      projectName: project.projectName,
      repo: npmName(project.repo, project.projectName),
      license: 'apache2',
      namespaced: project.namespaced,
      multigroup: project.multigroup,
      force: false,
      tsopVersion: TSOP_VERSION,
      tsopDependency: tsopDependencySpec(),
      year: scaffoldYear(),
    });
  }
  const own = projectManifestOptions(config);
  for (const [key, value] of Object.entries(makefile.options)) {
    const current = own[key as keyof typeof own];
    if (current !== undefined && current !== value)
      throw new UserError(
        `import kubebuilder: the Makefile's controller-gen call sets ${key} ${String(value)}, and ` +
          `${root}'s PROJECT (plugins.${MANIFESTS_PLUGIN}) has ${String(current)}, which its other ` +
          `kinds are generated with; set one value in both, or import into a new directory (--dir)`,
      );
  }
  config = withManifestOptions(config, makefile.options);
  const plan = planImport(tree, config, crds, {
    mode: 'own',
    allowLossy: flags.allowLossy === true,
    force: flags.force === true,
    command: 'import kubebuilder',
  });
  // The Makefile's settings are PROJECT's even when no kind was imported.
  tree.overwrite(PROJECT_FILE, renderProject(plan.config));
  for (const n of makefile.notes) io.err(`tsop: note: ${n}\n`);
  await finish(root, tree, plan, flags, io);
  const carried = carriedSteps(project);
  if (flags.dryRun) {
    if (flags.scaffold === true) for (const step of carried.steps) io.out(`would run: ${commandLine(step)}\n`);
    return;
  }
  const settings = Object.entries(makefile.options).map(([k, v]) => `${k}: ${String(v)}`);
  if (settings.length > 0)
    io.err(
      `manifests settings from the Makefile's controller-gen call, kept in PROJECT (plugins.${MANIFESTS_PLUGIN}) for every 'tsop manifests': ${settings.join(', ')}\n`,
    );
  for (const line of carried.notCarried) io.err(`tsop: note: ${line}\n`);
  if (flags.scaffold === true) {
    const imported = new Map(plan.kinds.flatMap((k) => [...k.rendered].map(([path, r]) => [path, r.text] as const)));
    await scaffoldCarried(root, carried.steps, imported, io, flags.make !== false);
  } else if (carried.steps.length > 0) {
    io.err(
      `PROJECT also records ${carried.steps.length} controller, webhook or plugin step${carried.steps.length === 1 ? '' : 's'} tsop can scaffold; pass --scaffold to scaffold them with the import\n`,
    );
  }
  const go = await goFilesToRewrite(source, project);
  if (go.length > 0) {
    io.err(`the logic of these Go files now moves to TypeScript (how: ${MIGRATION_GUIDE}):\n`);
    for (const f of go) {
      const done = flags.scaffold === true ? scaffoldedFor(f, carried.steps) : undefined;
      io.err(`  ${shownPath(from, f.path)} (${f.role}) → ${done ? `scaffolded: ${commandLine(done)}` : f.command}\n`);
    }
  }
  const where = relative(process.cwd(), root);
  io.err(`next: ${where ? `cd ${where} && ` : ''}npm install, then ${REGENERATE_AND_TEST}\n`);
}

/** The step --scaffold ran for a Go controller or webhook's kind, if any. */
function scaffoldedFor(f: GoFile, steps: readonly CarriedStep[]): CarriedStep | undefined {
  const r = f.resource;
  if (r === undefined || f.role === 'main') return undefined;
  const command = f.role === 'controller' ? 'create api' : 'create webhook';
  return steps.find(
    (s) =>
      s.command === command &&
      s.flags['kind'] === r.kind &&
      s.flags['version'] === r.version &&
      s.flags['controllerName'] === f.controllerName &&
      (s.flags['group'] === r.group || (r.core && s.flags['group'] === 'core')),
  );
}

/**
 * A file of the kubebuilder project as the user can open it from where they stand: relative to
 * the current directory when it is under it, else under the directory as they typed it.
 */
function shownPath(typed: string, path: string): string {
  const full = resolve(typed, path);
  const fromHere = relative(process.cwd(), full);
  if (fromHere !== '' && !fromHere.startsWith('..') && !isAbsolute(fromHere)) return fromHere;
  return isAbsolute(typed) ? full : join(typed, path);
}

/** Writes the plan (or prints it with --dry-run), runs manifests unless --make=false, and reports. */
async function finish(
  root: string,
  tree: Tree,
  plan: ImportPlan,
  flags: { make?: boolean; dryRun?: boolean },
  io: CommandIO,
): Promise<void> {
  for (const line of plan.lossLines) io.err(`tsop: warning: ${line}\n`);
  for (const note of plan.notes) io.err(`tsop: note: ${note}\n`);
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const own = plan.kinds.some((k) => k.roundTrip !== undefined);
  const quiet = { out: () => undefined, err: (t: string) => io.err(t) };
  await commitScaffold(root, tree, io, flags.make === false || !own ? undefined : { say: quiet });
  for (const k of plan.kinds) {
    const crd = k.source.crd;
    const outcome =
      k.roundTrip === undefined
        ? 'types only (external)'
        : k.losses.length === 0
          ? 'tsop manifests gives back the same CRD'
          : `${k.losses.length} thing${k.losses.length === 1 ? '' : 's'} not expressible (see the warnings)`;
    io.err(
      `imported ${crd.spec.names.kind} (${crd.spec.group}, ${crd.spec.versions.map((v) => v.name).join(', ')}) from ${k.source.origin}: ${outcome}\n`,
    );
  }
}
