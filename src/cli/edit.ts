/**
 * `tsop edit`: change --multigroup, --namespaced, --license or --owner of an existing project and
 * update PROJECT plus the files that depend on them (see src/plugins/edit.ts); with
 * `--plugins helm/v2-alpha` (alone), write a Helm chart from the kustomize output (src/plugins/helm/).
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { LAYOUT, renderProject, type License } from '../project/config.js';
import { loadProject } from '../project/load.js';
import { scaffoldEdit } from '../plugins/edit.js';
import { DEFAULT_MANIFESTS, DEFAULT_OUTPUT_DIR, HELM_PLUGIN, HELM_PLUGIN_NAMES, scaffoldHelm } from '../plugins/helm/index.js';
import { kustomizeBuild } from '../plugins/helm/kustomize.js';
import { checkOwner, readLicenseFile } from '../plugins/boilerplate.js';
import { commitTree, describeChanges, validatePlan } from '../scaffold/commit.js';
import { diskSource, Tree } from '../scaffold/tree.js';
import { stdio, type CommandIO } from './io.js';
import { checkFlags, type FlagsOf } from './flag-spec.js';
import { EDIT_FLAGS } from './command-flags.js';

export type EditFlags = FlagsOf<typeof EDIT_FLAGS>;

export async function runEdit(given: EditFlags, io: CommandIO = stdio): Promise<void> {
  const flags = checkFlags(EDIT_FLAGS, given);
  const root = resolve(flags.dir ?? process.cwd());
  const helm = editPlugins(flags.plugins);
  const settings = flags.multigroup !== undefined || flags.namespaced !== undefined || flags.license !== undefined || flags.owner !== undefined || flags.licenseFile !== undefined;
  if (!helm && (flags.manifests !== undefined || flags.outputDir !== undefined)) {
    throw new UserError(`${flags.manifests !== undefined ? '--manifests' : '--output-dir'} belongs to the Helm plugin; add --plugins ${HELM_PLUGIN} to use it`);
  }
  if (settings && helm) {
    // The chart is built from config/ as it is on disk, so a settings change must land first
    // (kubebuilder's helm plugin takes no project-setting flags either).
    throw new UserError(`edit: --plugins ${HELM_PLUGIN} builds the chart from config/ on disk; run 'tsop edit' with --multigroup, --namespaced, --license or --owner first, then 'tsop edit --plugins ${HELM_PLUGIN}'`);
  }
  if (!settings && !helm) {
    throw new UserError(`edit: nothing to change; pass --multigroup, --namespaced, --license, --owner or --plugins ${HELM_PLUGIN}`);
  }
  if (flags.owner !== undefined) checkOwner(flags.owner);
  const header = flags.licenseFile !== undefined ? readLicenseFile(flags.licenseFile) : undefined;
  let config = await loadProject(root, 'edit', io.err);
  const tree = new Tree(diskSource(root));
  const notes: string[] = [];
  if (settings) {
    const edited = scaffoldEdit(
      tree,
      config,
      {
        ...(flags.multigroup !== undefined ? { multigroup: flags.multigroup } : {}),
        ...(flags.namespaced !== undefined ? { namespaced: flags.namespaced } : {}),
        ...(flags.license !== undefined ? { license: flags.license as License } : {}),
        ...(flags.owner !== undefined ? { owner: flags.owner } : {}),
        ...(header !== undefined ? { header } : {}),
      },
      // Every scaffolded TypeScript file carries the header: the sources and the e2e tests.
      () => [...tsFiles(root, 'src'), ...tsFiles(root, 'test')],
    );
    config = edited.config;
    notes.push(...edited.notes);
  }
  if (helm) {
    const manifestsFile = flags.manifests === undefined ? DEFAULT_MANIFESTS : projectPath(root, flags.manifests, '--manifests');
    let manifests: string | undefined;
    if (flags.manifests === undefined) {
      // As kubebuilder runs `make build-installer`: fresh CRDs and RBAC, then the kustomize output.
      if (!flags.dryRun) {
        const { runManifests } = await import('./manifests.js');
        await runManifests({ dir: root }, { out: (t) => io.err(t), err: (t) => io.err(t) });
      }
      manifests = await kustomizeBuild(root);
      tree.create(DEFAULT_MANIFESTS, manifests, { force: true });
    } else {
      manifests = tree.read(manifestsFile);
      if (manifests === undefined) throw new UserError(`--manifests: ${manifestsFile} not found; create it with 'npm run build-installer' or name another file`);
    }
    const outputDir = flags.outputDir === undefined ? DEFAULT_OUTPUT_DIR : projectPath(root, flags.outputDir, '--output-dir');
    const chart = scaffoldHelm(tree, config, { manifests, manifestsFile, outputDir, force: flags.force === true });
    notes.push(...chart.notes);
    tree.overwrite('PROJECT', renderProject(chart.config));
  }
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitTree(root, tree);
  for (const c of changes) io.err(`${c.kind === 'create' ? 'created' : c.kind === 'delete' ? 'deleted' : 'updated'} ${c.path}\n`);
  for (const n of notes) io.err(`note: ${n}\n`);
}

/** `--plugins` of edit: only the Helm plugin (the base layout may be named too). */
function editPlugins(keys: string | undefined): boolean {
  if (keys === undefined) return false;
  let helm = false;
  for (const key of keys.split(',').map((k) => k.trim()).filter((k) => k !== '' && k !== LAYOUT)) {
    if (!HELM_PLUGIN_NAMES.includes(key)) throw new UserError(`--plugins: '${key}' is not a plugin of tsop edit; the one there is: '${HELM_PLUGIN}'`);
    helm = true;
  }
  return helm;
}

/** A path inside the project, as written to PROJECT (relative, forward slashes). */
function projectPath(root: string, path: string, flag: string): string {
  const rel = relative(root, resolve(root, path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new UserError(`${flag}: '${path}' is outside the project; name a path inside it (e.g. dist)`);
  return rel.split('\\').join('/');
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
