/**
 * The OLM plugins of `tsop init --plugins`, twins of operator-sdk's manifests/v2 and scorecard/v2
 * (their keys are accepted too): they add config/manifests/kustomization.yaml and config/scorecard/
 * (scaffold.ts), `npm run bundle` and `npm run bundle-build`, and their keys to PROJECT's plugins,
 * as operator-sdk records `manifests.sdk.operatorframework.io/v2: {}`.
 */
import { LAYOUT, parseProject, renderProject, type ProjectConfig } from '../project/config.js';
import type { Tree } from '../scaffold/tree.js';
import { addMissingScripts } from '../scaffold/package-scripts.js';
import { scaffoldOlmConfig } from './scaffold.js';

export const MANIFESTS_SDK_PLUGIN = 'manifests.sdk.tsop.dev/v2';
export const SCORECARD_SDK_PLUGIN = 'scorecard.sdk.tsop.dev/v2';
const MANIFESTS_KEYS = [MANIFESTS_SDK_PLUGIN, 'manifests.sdk.operatorframework.io/v2'];
const SCORECARD_KEYS = [SCORECARD_SDK_PLUGIN, 'scorecard.sdk.operatorframework.io/v2'];

export interface OlmParts {
  manifests: boolean;
  scorecard: boolean;
}

export function isOlmPluginKey(key: string): boolean {
  return MANIFESTS_KEYS.includes(key) || SCORECARD_KEYS.includes(key);
}

export function olmParts(keys: readonly string[]): OlmParts {
  return { manifests: keys.some((k) => MANIFESTS_KEYS.includes(k)), scorecard: keys.some((k) => SCORECARD_KEYS.includes(k)) };
}

/** The OLM parts a PROJECT records (under tsop's keys or operator-sdk's). */
export function olmPartsOf(config: ProjectConfig): OlmParts {
  return olmParts(Object.keys(config.plugins));
}

/** Plans the plugins' files, scripts and PROJECT entries over a tree holding an initialised project. */
export function scaffoldOlmPlugins(tree: Tree, parts: OlmParts): void {
  if (!parts.manifests && !parts.scorecard) return;
  const text = tree.read('PROJECT');
  if (text === undefined) return;
  const config = parseProject(text);
  const webhooks = config.resources.some((r) => r.webhooks?.defaulting || r.webhooks?.validation);
  scaffoldOlmConfig(tree, config.projectName, webhooks, parts);
  if (parts.manifests) addBundleScripts(tree, config.projectName);
  const plugins = { ...config.plugins };
  if (parts.manifests) plugins[MANIFESTS_SDK_PLUGIN] = {};
  if (parts.scorecard) plugins[SCORECARD_SDK_PLUGIN] = {};
  tree.overwrite('PROJECT', renderProject({ ...config, plugins, layout: config.layout.length > 0 ? config.layout : [LAYOUT] }));
}

/**
 * `npm run bundle` (VERSION, CHANNELS, DEFAULT_CHANNEL, IMG and USE_IMAGE_DIGESTS as operator-sdk's
 * Makefile reads them) and `npm run bundle-build` (BUNDLE_IMG, CONTAINER_TOOL); existing ones stay.
 */
function addBundleScripts(tree: Tree, projectName: string): void {
  addMissingScripts(tree, {
    bundle:
      'tsop manifests && tsop generate kustomize manifests -q && tsop generate bundle -q --version ${VERSION:-0.0.1} ${CHANNELS:+--channels $CHANNELS} ${DEFAULT_CHANNEL:+--default-channel $DEFAULT_CHANNEL} ${USE_IMAGE_DIGESTS:+--use-image-digests} && tsop bundle validate ./bundle',
    'bundle-build': `\${CONTAINER_TOOL:-docker} build -f bundle.Dockerfile -t \${BUNDLE_IMG:-${projectName}-bundle:v\${VERSION:-0.0.1}} .`,
  });
}
