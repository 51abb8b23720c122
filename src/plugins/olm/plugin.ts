/**
 * The OLM plugins of `tsop init --plugins`, twins of operator-sdk's manifests/v2 and scorecard/v2
 * (their keys are taken too). manifests adds config/manifests/kustomization.yaml (scaffold.ts),
 * `npm run bundle` and `npm run bundle-build`; scorecard adds config/scorecard/. Each records its
 * key in PROJECT's plugins, as operator-sdk records `manifests.sdk.operatorframework.io/v2: {}`.
 */
import type { ProjectConfig } from '../../project/config.js';
import { addMissingScripts } from '../../scaffold/package-scripts.js';
import type { Tree } from '../../scaffold/tree.js';
import type { InitContext, Plugin } from '../plugin.js';
import { scaffoldOlmConfig } from './scaffold.js';

const MANIFESTS_SDK_PLUGIN = 'manifests.sdk.tsop.dev/v2';
const SCORECARD_SDK_PLUGIN = 'scorecard.sdk.tsop.dev/v2';

/** Plans one part's files over the project init just planned, and records the plugin. */
function initPart(part: 'manifests' | 'scorecard', key: string): (ctx: InitContext) => ProjectConfig {
  return ({ tree, config }) => {
    const webhooks = config.resources.some((r) => r.webhooks?.defaulting || r.webhooks?.validation);
    scaffoldOlmConfig(tree, config.projectName, webhooks, {
      manifests: part === 'manifests',
      scorecard: part === 'scorecard',
    });
    if (part === 'manifests') addBundleScripts(tree, config.projectName);
    return { ...config, plugins: { ...config.plugins, [key]: {} } };
  };
}

/**
 * `npm run bundle` (VERSION, CHANNELS, DEFAULT_CHANNEL, IMG and USE_IMAGE_DIGESTS as operator-sdk's
 * Makefile reads them: only USE_IMAGE_DIGESTS=true pins digests) and `npm run bundle-build`
 * (BUNDLE_IMG, CONTAINER_TOOL); existing ones stay.
 */
function addBundleScripts(tree: Tree, projectName: string): void {
  addMissingScripts(tree, {
    bundle: [
      'tsop manifests && tsop generate kustomize manifests -q && tsop generate bundle -q --version',
      '${VERSION:-0.0.1} ${CHANNELS:+--channels $CHANNELS} ${DEFAULT_CHANNEL:+--default-channel',
      '$DEFAULT_CHANNEL} $([ "$USE_IMAGE_DIGESTS" = true ] && echo --use-image-digests) && tsop bundle',
      'validate ./bundle',
    ].join(' '),
    'bundle-build': `\${CONTAINER_TOOL:-docker} build -f bundle.Dockerfile -t \${BUNDLE_IMG:-${projectName}-bundle:v\${VERSION:-0.0.1}} .`,
  });
}

export const manifestsPlugin: Plugin = {
  key: MANIFESTS_SDK_PLUGIN,
  aliases: ['manifests.sdk.operatorframework.io/v2'],
  name: 'OLM manifests',
  description: 'the kustomize overlay an OLM bundle is built from, and npm scripts that build and validate the bundle',
  init: { scaffold: initPart('manifests', MANIFESTS_SDK_PLUGIN) },
};

export const scorecardPlugin: Plugin = {
  key: SCORECARD_SDK_PLUGIN,
  aliases: ['scorecard.sdk.operatorframework.io/v2'],
  name: 'OLM scorecard',
  description:
    "the scorecard configuration `generate bundle` copies into the bundle (operator-sdk's basic and olm tests)",
  init: { scaffold: initPart('scorecard', SCORECARD_SDK_PLUGIN) },
};
