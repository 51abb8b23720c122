/**
 * `tsop edit`: change --multigroup, --namespaced, --license or --owner of an existing project and
 * update PROJECT plus the files that depend on them (see src/plugins/edit.ts).
 */
import { readdirSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { License } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { scaffoldEdit } from '../plugins/edit.js';
import { checkOwner } from '../plugins/boilerplate.js';
import { commitTree, describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { stdio, type CommandIO } from './io.js';

export interface EditFlags {
  dir?: string;
  multigroup?: boolean;
  namespaced?: boolean;
  license?: string;
  owner?: string;
  dryRun?: boolean;
}

export async function runEdit(flags: EditFlags, io: CommandIO = stdio): Promise<void> {
  const root = resolve(flags.dir ?? process.cwd());
  if (flags.license !== undefined && flags.license !== 'apache2' && flags.license !== 'none') {
    throw new UserError(`--license: '${flags.license}' is not a known license; use 'apache2' or 'none'`);
  }
  if (flags.multigroup === undefined && flags.namespaced === undefined && flags.license === undefined && flags.owner === undefined) {
    throw new UserError('edit: nothing to change; pass --multigroup, --namespaced, --license or --owner');
  }
  if (flags.owner !== undefined) checkOwner(flags.owner);
  const config = await loadProject(root, 'edit');
  const tree = new Tree(diskSource(root));
  const { notes } = scaffoldEdit(
    tree,
    config,
    {
      ...(flags.multigroup !== undefined ? { multigroup: flags.multigroup } : {}),
      ...(flags.namespaced !== undefined ? { namespaced: flags.namespaced } : {}),
      ...(flags.license !== undefined ? { license: flags.license as License } : {}),
      ...(flags.owner !== undefined ? { owner: flags.owner } : {}),
    },
    // Every scaffolded TypeScript file carries the header: the sources and the e2e tests.
    () => [...tsFiles(root, 'src'), ...tsFiles(root, 'test')],
  );
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitTree(root, tree);
  for (const c of changes) io.err(`updated ${c.path}\n`);
  for (const n of notes) io.err(`note: ${n}\n`);
}

function tsFiles(root: string, dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const rel = posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(root, rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}
