/**
 * The Helm plugin (kubebuilder's `helm/v2-alpha`): `edit --plugins helm/v2-alpha` builds the
 * project's kustomize output — fresh CRDs and RBAC first, as kubebuilder runs `make
 * build-installer` — or reads the file --manifests names, and writes the chart from it (chart.ts).
 * kubebuilder's full key and the one PROJECT records it under are taken too.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { UserError } from '../../errors.js';
import type { ProjectConfig } from '../../project/config.js';
import { EDIT_SETTINGS_FLAGS } from '../base/flags.js';
import { replayFlags, type FlagsOf } from '../../flag.js';
import { HELM_FLAGS } from './flags.js';
import type { EditContext, Flags, Plugin } from '../plugin.js';
import { DEFAULT_MANIFESTS, DEFAULT_OUTPUT_DIR, HELM_PLUGIN, HELM_PROJECT_KEY, scaffoldHelm } from './chart.js';

/** The flags of `edit` the plugin reads: its own, and edit's --force. */
type HelmFlags = FlagsOf<typeof HELM_FLAGS> & { force?: boolean };

/** The chart is built from config/ as it is on disk, so a settings change must land first. */
function check(flags: Flags): void {
  // kubebuilder's helm plugin takes no project-setting flags either.
  if (Object.keys(EDIT_SETTINGS_FLAGS).some((f) => flags[f] !== undefined)) {
    throw new UserError(
      `edit: --plugins ${HELM_PLUGIN} builds the chart from config/ on disk; run 'tsop edit' with --multigroup, --namespaced, --license or --owner first, then 'tsop edit --plugins ${HELM_PLUGIN}'`,
    );
  }
}

async function edit(ctx: EditContext): Promise<ProjectConfig> {
  const flags = ctx.flags as HelmFlags;
  const manifestsFile =
    flags.manifests === undefined ? DEFAULT_MANIFESTS : projectPath(ctx.root, flags.manifests, '--manifests');
  let manifests: string | undefined;
  if (flags.manifests === undefined) {
    await ctx.generateManifests();
    const { kustomizeBuild } = await import('./kustomize.js');
    manifests = await kustomizeBuild(ctx.root);
    ctx.tree.create(DEFAULT_MANIFESTS, manifests, { force: true });
  } else {
    manifests = ctx.tree.read(manifestsFile);
    if (manifests === undefined)
      throw new UserError(
        `--manifests: ${manifestsFile} not found; create it with 'npm run build-installer' or name another file`,
      );
  }
  const outputDir =
    flags.outputDir === undefined ? DEFAULT_OUTPUT_DIR : projectPath(ctx.root, flags.outputDir, '--output-dir');
  const chart = scaffoldHelm(ctx.tree, ctx.config, {
    manifests,
    manifestsFile,
    outputDir,
    force: flags.force === true,
  });
  ctx.notes.push(...chart.notes);
  return chart.config;
}

/** A path inside the project, as written to PROJECT (relative, forward slashes). */
function projectPath(root: string, path: string, flag: string): string {
  const rel = relative(root, resolve(root, path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw new UserError(`${flag}: '${path}' is outside the project; name a path inside it (e.g. dist)`);
  return rel.split('\\').join('/');
}

/** `edit --plugins helm/v2-alpha` again, into the output directory PROJECT records. */
function replayChart(config: ProjectConfig): Flags | undefined {
  const recorded = config.plugins[HELM_PROJECT_KEY];
  if (recorded === undefined) return undefined;
  return { plugins: HELM_PLUGIN, ...replayFlags(HELM_FLAGS, recorded) };
}

export const helmPlugin: Plugin = {
  key: HELM_PLUGIN,
  aliases: ['helm.kubebuilder.io/v2-alpha', HELM_PROJECT_KEY],
  name: 'Helm',
  description:
    'a Helm chart in dist/chart built from the kustomize output, with values for what operators tune per cluster',
  projectKey: HELM_PROJECT_KEY,
  edit: {
    flags: HELM_FLAGS,
    check,
    scaffold: edit,
    replay: { output: 'the Helm chart', flags: replayChart },
  },
};
