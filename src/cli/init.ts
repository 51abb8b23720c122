/**
 * `tsop init`: scaffold a new operator project in the current directory (or --dir), then run
 * `npm install` in it unless --skip-install. Every flag is validated first; the whole plan is
 * checked before anything is written.
 */
import { basename, relative, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import { TSOP_VERSION, tsopDependencySpec } from '../version.js';
import { checkDomain, checkProjectName, checkRepo, projectNameFromDir } from '../project/naming.js';
import { LAYOUT, type License } from '../project/config.js';
import { scaffoldInit } from '../plugins/base.js';
import { checkOwner, readLicenseFile, scaffoldYear } from '../plugins/boilerplate.js';
import { PLUGINS } from '../plugins/hooks.js';
import { isOlmPluginKey, olmParts, scaffoldOlmPlugins } from '../olm/plugin.js';
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
  licenseFile?: string;
  plugins?: string;
  namespaced?: boolean;
  multigroup?: boolean;
  skipInstall?: boolean;
  /** kubebuilder's name: `--fetch-deps=false` is `--skip-install`. */
  fetchDeps?: boolean;
  /** kubebuilder's --project-version: PROJECT's version, "3" only. */
  projectVersion?: string;
  force?: boolean;
  dryRun?: boolean;
}

export async function runInit(given: InitFlags, io: CommandIO = stdio): Promise<void> {
  const flags = withKubebuilderNames(given);
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
  if (flags.plugins !== undefined) checkInitPlugins(flags.plugins);
  const header = flags.licenseFile !== undefined ? readLicenseFile(flags.licenseFile) : undefined;
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
    ...(header !== undefined ? { header } : {}),
  });
  // operator-sdk's manifests/v2 and scorecard/v2 (or their tsop twins): the OLM bundle's config.
  scaffoldOlmPlugins(tree, olmParts(pluginKeys(flags.plugins)));
  if (flags.dryRun) {
    io.out(describeChanges(validatePlan(tree)));
    return;
  }
  const changes = await commitTree(root, tree);
  io.err(`wrote ${changes.length} files for project '${projectName}' in ${root}\n`);
  if (!flags.skipInstall) await npmInstall(root, io);
  io.err(`next: ${nextSteps(root, flags.skipInstall === true)}\n`);
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

/**
 * The plugin keys `init --plugins` takes: tsop's base layout under its own key and under the
 * names kubebuilder's go/v4 bundle goes by (so `kubebuilder init --plugins go/v4 ...` command
 * lines work); the bundle's parts (base, kustomize) are all in that one layout.
 */
const BASE_LAYOUT_KEYS = [LAYOUT, 'go/v4', 'go.kubebuilder.io/v4', 'base.go.kubebuilder.io/v4', 'kustomize/v2', 'kustomize.common.kubebuilder.io/v2'];

function pluginKeys(keys: string | undefined): string[] {
  return keys === undefined ? [] : keys.split(',').map((k) => k.trim());
}

function checkInitPlugins(keys: string): void {
  for (const key of pluginKeys(keys)) {
    if (BASE_LAYOUT_KEYS.includes(key) || isOlmPluginKey(key)) continue;
    if (key === '') throw new UserError(`--plugins: '${keys}' has an empty plugin key; pass keys separated by single commas, e.g. --plugins ${LAYOUT}`);
    if (/^helm(\.kubebuilder\.io)?\/v2-alpha$/.test(key)) {
      throw new UserError(`--plugins: '${key}' is added after init in tsop; run 'tsop edit --plugins helm/v2-alpha' in the new project`);
    }
    const apiPlugin = PLUGINS.find((p) => p.key === key || p.aliases?.includes(key));
    if (apiPlugin) throw new UserError(`--plugins: '${key}' scaffolds a kind, not a project; pass it to 'tsop create api --plugins ${apiPlugin.key}' after init`);
    throw new UserError(`--plugins: '${key}' is not a plugin init knows; init takes ${BASE_LAYOUT_KEYS.map((k) => `'${k}'`).join(', ')} (all the same base layout) and the OLM plugins 'manifests.sdk.tsop.dev/v2', 'scorecard.sdk.tsop.dev/v2' (or operator-sdk's 'manifests.sdk.operatorframework.io/v2', 'scorecard.sdk.operatorframework.io/v2')`);
  }
}

async function npmInstall(root: string, io: CommandIO): Promise<void> {
  io.err('running npm install...\n');
  const { execa } = await import('execa');
  const result = await execa('npm', ['install', '--no-fund', '--no-audit'], { cwd: root, stdout: 'inherit', stderr: 'inherit', reject: false });
  if (result.exitCode !== 0) {
    throw new UserError(`npm install failed in ${root} (exit ${result.exitCode}); fix the problem above and run 'npm install' there`);
  }
}

/** kubebuilder's spellings of init's flags, checked and turned into tsop's. */
function withKubebuilderNames(flags: InitFlags): InitFlags {
  if (flags.projectVersion !== undefined && flags.projectVersion !== '3') {
    throw new UserError(`--project-version: '${flags.projectVersion}' is not a PROJECT version tsop writes; use 3 (or leave it out)`);
  }
  if (flags.fetchDeps === undefined) return flags;
  if (flags.skipInstall !== undefined && flags.skipInstall === flags.fetchDeps) {
    throw new UserError(`--fetch-deps=${flags.fetchDeps} and --skip-install=${flags.skipInstall} disagree: --fetch-deps=false is --skip-install; pass one of them`);
  }
  return { ...flags, skipInstall: !flags.fetchDeps };
}
