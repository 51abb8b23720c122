/**
 * envtest for TypeScript: a real etcd + kube-apiserver on loopback for tests, found and started
 * the way controller-runtime's envtest does it; optionally the fuller plane (controller-manager,
 * scheduler, kwok's fake nodes).
 */
export {
  ControlPlaneOptionsError,
  MAX_FAKE_NODES,
  startControlPlane,
  type ControlPlane,
  type ControlPlaneOptions,
} from './control-plane.js';
export { FAKE_NODE_ANNOTATION, ONE_SHOT_RUN_MS } from './kwok-stages.js';
export {
  assetsCacheRoot,
  ControlPlaneAssetsMissingError,
  ensureAssets,
  mayDownload,
  FULL_PLANE_BINARIES,
  locateAssets,
  missingFullPlaneBinaries,
  PINNED_KUBE_VERSION,
  requireAssets,
  type AssetRequirements,
  type BinaryAssets,
  type EnsureOptions,
} from './assets.js';
export { readCRDs, type CustomResourceDefinition } from './crds.js';
export {
  adminIdentity,
  attachControlPlane,
  AttachedControlPlaneError,
  connectionOf,
  type ControlPlaneConnection,
} from './attach.js';
export {
  installWebhooks,
  rewriteClientConfig,
  WebhookInstallError,
  withConversionDefault,
  type InstalledWebhooks,
  type WebhookInstallOptions,
} from './webhooks.js';
