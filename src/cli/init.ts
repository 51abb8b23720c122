/**
 * `tsop init`: scaffold a new operator project in the current directory (or --dir), then run
 * `npm install` in it unless --skip-install. Every flag is validated first; the whole plan is
 * checked before anything is written.
 */
import { basename, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import { TSOP_VERSION, tsopDependencySpec } from '../version.js';
import { checkDomain, checkProjectName, checkRepo, projectNameFromDir } from '../project/naming.js';
import type { License } from '../project/config.js';
import { scaffoldInit } from '../plugins/base.js';
import { checkOwner, scaffoldYear } from '../plugins/boilerplate.js';
import { commitTree, describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { stdio, type CommandIO } from './io.js';

export interface InitFlags {
  dir?: string;
  domain?: string;
  projectName?: string;
  repo?: string;
  owner?: string;
  license?: string;
  namespaced?: boolean;
  multigroup?: boolean;
  skipInstall?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

export async function runInit(flags: InitFlags, io: CommandIO = stdio): Promise<void> {
  const root = resolve(flags.dir ?? process.cwd());
  const domain = flags.domain ?? 'my.domain';
  checkDomain(domain);
  const projectName = flags.projectName ?? projectNameFromDir(basename(root));
  if (projectName === undefined) {
    throw new UserError(`--project-name: the directory name '${basename(root)}' cannot be turned into a DNS-1123 label; pass --project-name`);
  }
  checkProjectName(projectName, flags.projectName === undefined ? 'project-name (from the directory name)' : 'project-name');
  const repo = flags.repo ?? projectName;
  checkRepo(repo);
  if (flags.owner !== undefined) checkOwner(flags.owner);
  const license = flags.license ?? 'apache2';
  if (license !== 'apache2' && license !== 'none') {
    throw new UserError(`--license: '${license}' is not a known license; use 'apache2' or 'none'`);
  }
  if (!flags.force && existsSync(resolve(root, 'PROJECT'))) {
    throw new UserError(`${root} already has a PROJECT file (the project is initialised); pass --force to scaffold it again`);
  }

  const tree = new Tree(diskSource(root));
  scaffoldInit(tree, {
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
  });
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitTree(root, tree);
  io.err(`wrote ${changes.length} files for project '${projectName}' in ${root}\n`);
  if (!flags.skipInstall) await npmInstall(root, io);
  io.err(`next: tsop create api --group <group> --version v1 --kind <Kind>\n`);
}

async function npmInstall(root: string, io: CommandIO): Promise<void> {
  io.err('running npm install...\n');
  const { execa } = await import('execa');
  const result = await execa('npm', ['install', '--no-fund', '--no-audit'], { cwd: root, stdout: 'inherit', stderr: 'inherit', reject: false });
  if (result.exitCode !== 0) {
    throw new UserError(`npm install failed in ${root} (exit ${result.exitCode}); fix the problem above and run 'npm install' there`);
  }
}
