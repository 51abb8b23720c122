/**
 * `tsop edit`: change --multigroup, --namespaced, --license or --owner of an existing project and
 * update PROJECT plus the files that depend on them, or add the runtime's sharding module
 * (--sharding) (the base layout's edit, see
 * src/plugins/base/edit.ts); with `--plugins helm/v2-alpha` (alone), write a Helm chart from the
 * kustomize output (src/plugins/helm/).
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { License } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { checkPluginFlags, layoutPlugin, pluginChain, PLUGINS, restoreSettings, runChain } from '../plugins/catalog.js';
import type { EditOptions, Flags } from '../plugins/plugin.js';
import { readLicenseFile } from '../scaffold/boilerplate.js';
import { commitTree, describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { type EDIT_FLAGS, EDIT_OWN_FLAGS } from '../plugins/command-flags.js';

export type EditFlags = FlagsOf<typeof EDIT_FLAGS>;

export async function runEdit(given: EditFlags, io: CommandIO = stdio): Promise<void> {
  // The command's own flags here; the settings and the plugins' once the chain is known (checkPluginFlags).
  const flags = checkFlags(EDIT_OWN_FLAGS, given) as EditFlags;
  const root = resolve(flags.dir ?? process.cwd());
  // The base layout's settings, or the plugins named (the Helm chart), each checking its flags.
  const chain = pluginChain('edit', flags.plugins);
  const asked: Flags = { ...flags };
  checkPluginFlags('edit', chain, asked);
  const settings = Object.keys(layoutPlugin.edit?.flags ?? {}).some((f) => asked[f] !== undefined);
  if (!settings && chain.length === 1) {
    const plugins = PLUGINS.filter((p) => p.edit !== undefined && p !== layoutPlugin).map((p) => p.key);
    throw new UserError(
      `edit: nothing to change; pass --multigroup, --namespaced, --sharding, --license, --owner or --plugins ${plugins.join(', ')}`,
    );
  }
  const header = flags.licenseFile !== undefined ? readLicenseFile(flags.licenseFile) : undefined;
  const config = await loadProject(root, 'edit', io.err);
  const tree = new Tree(diskSource(root));
  const options: EditOptions = {
    ...(flags.multigroup !== undefined ? { multigroup: flags.multigroup } : {}),
    ...(flags.namespaced !== undefined ? { namespaced: flags.namespaced } : {}),
    ...(flags.sharding !== undefined ? { sharding: flags.sharding } : {}),
    ...(flags.license !== undefined ? { license: flags.license as License } : {}),
    ...(flags.owner !== undefined ? { owner: flags.owner } : {}),
    ...(header !== undefined ? { header } : {}),
  };
  const notes: string[] = [];
  const generateManifests = async (): Promise<void> => {
    if (flags.dryRun) return;
    const { runManifests } = await import('./manifests.js');
    await runManifests({ dir: root }, { out: (t) => io.err(t), err: (t) => io.err(t) });
  };
  // Every scaffolded TypeScript file carries the header: the sources and the e2e tests.
  const typeScriptFiles = (): string[] => [...tsFiles(root, 'src'), ...tsFiles(root, 'test')];
  await runChain(
    chain,
    'edit',
    (current) => ({
      tree,
      config: current,
      options,
      flags: asked,
      root,
      typeScriptFiles,
      rendered: (path) => restoreSettings(tree, current, path),
      generateManifests,
      notes,
    }),
    config,
  );
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitTree(root, tree);
  for (const c of changes)
    io.err(`${c.kind === 'create' ? 'created' : c.kind === 'delete' ? 'deleted' : 'updated'} ${c.path}\n`);
  for (const n of notes) io.err(`note: ${n}\n`);
}

function tsFiles(root: string, dir: string): string[] {
  let entries: Dirent[];
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
