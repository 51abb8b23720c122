/**
 * The deploy-image plugin (kubebuilder's `deploy-image/v1-alpha`): `create api --plugins
 * deploy-image/v1-alpha --image …` scaffolds a kind whose controller runs an image (scaffold.ts).
 * kubebuilder's full key is taken too, so its command lines work as they are.
 */
import type { Plugin } from '../plugin.js';
import {
  checkDeployImageFlags,
  createApi,
  DEPLOY_IMAGE_PLUGIN,
  DEPLOY_IMAGE_PROJECT_KEY,
  MANAGER_FILE,
  recordedFlags,
  restoreImageEnvs,
} from './scaffold.js';
import { DEPLOY_IMAGE_FLAGS } from './flags.js';

export const deployImagePlugin: Plugin = {
  key: DEPLOY_IMAGE_PLUGIN,
  aliases: [DEPLOY_IMAGE_PROJECT_KEY, 'deploy-image.go.kubebuilder.io/v1-alpha'],
  name: 'deploy-image',
  description: 'a kind whose controller runs an image: a Deployment with its size, port, command and user',
  projectKey: DEPLOY_IMAGE_PROJECT_KEY,
  createApi: {
    flags: DEPLOY_IMAGE_FLAGS,
    // As kubebuilder's: the kind and its controller, always.
    scaffoldsBoth: true,
    check: checkDeployImageFlags,
    scaffold: createApi,
    replay: recordedFlags,
  },
  restoreSettings(tree, config, path) {
    if (path === MANAGER_FILE) restoreImageEnvs(tree, config);
  },
};
