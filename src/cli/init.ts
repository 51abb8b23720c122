/**
 * `tsop init`: scaffold a new operator project in the current directory (or --dir), then run
 * `npm install` in it unless --skip-install. Every flag is validated first; the whole plan is
 * checked before anything is written.
 */
import { basename, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { TSOP_VERSION, tsopDependencySpec } from '../version.js';
import { existingProject, type ExistingProject } from '../project/existing.js';
import {
  asciiProjectName,
  checkProjectName,
  checkRepo,
  hasNonAsciiLetters,
  projectNameFromDir,
} from '../project/naming.js';
import type { License } from '../project/config.js';
import { readLicenseFile, scaffoldYear } from '../scaffold/boilerplate.js';
import { newProject, pluginChain, runChain } from '../plugins/catalog.js';
import type { InitOptions } from '../plugins/plugin.js';
import { commitTree, describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { INIT_FLAGS } from '../plugins/command-flags.js';

export type InitFlags = FlagsOf<typeof INIT_FLAGS>;

export async function runInit(given: InitFlags, io: CommandIO = stdio): Promise<void> {
  const flags = withKubebuilderNames(checkFlags(INIT_FLAGS, given));
  const root = resolve(flags.dir ?? process.cwd());
  const domain = flags.domain ?? 'my.domain';
  const existing = checkExisting(root, flags);
  const projectName = flags.projectName ?? (await nameFromDirectory(basename(root), io));
  checkProjectName(
    projectName,
    flags.projectName === undefined ? 'project-name (from the directory name)' : 'project-name',
  );
  const repo = flags.repo ?? projectName;
  checkRepo(repo);
  const license = flags.license ?? 'apache2';
  // The base layout (kubebuilder's go/v4 keys name it too), then the OLM plugins named.
  const chain = pluginChain('init', flags.plugins);
  const header = flags.licenseFile !== undefined ? readLicenseFile(flags.licenseFile) : undefined;

  const tree = new Tree(diskSource(root));
  const kept: string[] = [];
  const options: InitOptions = {
    domain,
    projectName,
    repo,
    ...(flags.owner ? { owner: flags.owner } : {}),
    license: license as License,
    namespaced: flags.namespaced === true,
    multigroup: flags.multigroup === true,
    force: flags.force === true,
    tsopVersion: TSOP_VERSION,
    tsopDependency: tsopDependencySpec(),
    year: scaffoldYear(),
    ...(header !== undefined ? { header } : {}),
    ...(existing.kind === 'go' ? { keepExisting: true, onKept: (path: string) => void kept.push(path) } : {}),
  };
  await runChain(chain, 'init', (config) => ({ tree, config, options, flags }), newProject());
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitTree(root, tree);
  io.err(`wrote ${changes.length} files for project '${projectName}' in ${root}\n`);
  if (existing.kind === 'go')
    io.err(
      `kubebuilder's PROJECT is now PROJECT.kubebuilder; its Go code and the files it already had (${kept.length > 0 ? kept.join(', ') : "none of tsop's"}) were left as they were\n`,
    );
  if (!flags.skipInstall) await npmInstall(root, io);
  io.err(`next: ${nextSteps(root, flags.skipInstall === true)}\n`);
}

/**
 * What is in the directory already decides what init may do: another tool's project (kubebuilder's)
 * only with --over-kubebuilder, which writes around it; a tsop project only with --force, and not
 * when its PROJECT lists resources (init would drop them with their registrations and RBAC).
 */
function checkExisting(root: string, flags: InitFlags): ExistingProject {
  const existing = existingProject(root);
  if (existing.kind === 'go') {
    if (!flags.overKubebuilder) {
      const listed = existing.resources.length > 0 ? `, ${existing.resources.length} resource(s)` : '';
      throw new UserError(
        `init: ${root} holds a kubebuilder (Go) project (${existing.what}${listed}); init would ` +
          `replace its PROJECT, Dockerfile and config/. Make a tsop project of it in a new directory ` +
          `with 'tsop import kubebuilder ${root} --dir ${root}-ts', or pass --over-kubebuilder to ` +
          `add tsop's files beside it (only files it does not have; its PROJECT is kept as PROJECT.kubebuilder)`,
      );
    }
    if (flags.force)
      throw new UserError(
        '--over-kubebuilder writes only the files the kubebuilder project does not have; --force would overwrite its config/ and RBAC, so the two cannot go together',
      );
  } else if (flags.overKubebuilder) {
    throw new UserError(
      `--over-kubebuilder: ${root} holds no kubebuilder project (no PROJECT of kubebuilder's, no go.mod requiring controller-runtime); leave the flag out`,
    );
  }
  if (existing.kind === 'tsop') {
    if (!flags.force)
      throw new UserError(
        `${root} already has a PROJECT file (the project is initialised); pass --force to scaffold it again`,
      );
    if (existing.resources.length > 0) {
      throw new UserError(
        `init --force: ${root}/PROJECT lists ${existing.resources.length} resource(s) ` +
          `(${existing.resources.join(', ')}), which init would drop with their registrations, RBAC ` +
          `and kustomize entries; to take a newer tsop's scaffolding and keep them run 'tsop alpha ` +
          `update', to start over move PROJECT away first`,
      );
    }
  }
  return existing;
}

/**
 * The project name from the directory's name. Lower-casing and turning other ASCII characters
 * into '-' is said, not done silently; letters beyond ASCII ('opérateur-日本') are a choice:
 * asked on a terminal with a suggestion, else an error naming the flag and the suggestion.
 */
async function nameFromDirectory(dir: string, io: CommandIO): Promise<string> {
  if (hasNonAsciiLetters(dir)) {
    const suggestion = asciiProjectName(dir);
    const rule = "a DNS-1123 label: lower-case ASCII letters, digits and '-'";
    if (io.interactive && io.ask) {
      const answer = (
        await io.ask(
          `The directory name '${dir}' cannot be a project name (${rule}). Project name${suggestion ? ` [${suggestion}]` : ''}: `,
        )
      ).trim();
      const chosen = answer === '' ? suggestion : answer;
      if (chosen !== undefined) return chosen;
    }
    throw new UserError(
      `--project-name: the directory name '${dir}' has letters a project name cannot hold (${rule}); pass --project-name${suggestion ? `, e.g. --project-name ${suggestion}` : ''}`,
    );
  }
  const name = projectNameFromDir(dir);
  if (name === undefined)
    throw new UserError(
      `--project-name: the directory name '${dir}' cannot be turned into a DNS-1123 label; pass --project-name`,
    );
  if (name !== dir)
    io.err(`project name '${name}' (from the directory name '${dir}'; pass --project-name to choose another)\n`);
  return name;
}

/**
 * The command to type next, from where the user is: into the project, install when init did
 * not, then the project's own tsop (a devDependency, so `npx tsop`; a bare `tsop` is on no PATH).
 */
export function nextSteps(root: string, skippedInstall: boolean, cwd: string = process.cwd()): string {
  const rel = relative(cwd, root);
  const steps = [
    ...(rel === '' ? [] : [`cd ${shellWord(rel)}`]),
    ...(skippedInstall ? ['npm install'] : []),
    'npx tsop create api --group <group> --version v1 --kind <Kind>',
  ];
  return steps.join(' && ');
}

/** A path as one shell word: quoted only when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

async function npmInstall(root: string, io: CommandIO): Promise<void> {
  io.err('running npm install...\n');
  const { execa } = await import('execa');
  const result = await execa('npm', ['install', '--no-fund', '--no-audit'], {
    cwd: root,
    stdout: 'inherit',
    stderr: 'inherit',
    reject: false,
  });
  if (result.exitCode !== 0) {
    throw new UserError(
      `npm install failed in ${root} (exit ${result.exitCode}); fix the problem above and run 'npm install' there`,
    );
  }
}

/** kubebuilder's spellings of init's flags, checked and turned into tsop's. */
function withKubebuilderNames(flags: InitFlags): InitFlags {
  if (flags.fetchDeps === undefined) return flags;
  if (flags.skipInstall !== undefined && flags.skipInstall === flags.fetchDeps) {
    throw new UserError(
      `--fetch-deps=${flags.fetchDeps} and --skip-install=${flags.skipInstall} disagree: --fetch-deps=false is --skip-install; pass one of them`,
    );
  }
  return { ...flags, skipInstall: !flags.fetchDeps };
}
