/**
 * envtest for TypeScript: a real etcd + kube-apiserver on loopback for tests, found and started
 * the way controller-runtime's envtest does it.
 */
export { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './control-plane.js';
export {
  assetsCacheRoot,
  ControlPlaneAssetsMissingError,
  locateAssets,
  PINNED_KUBE_VERSION,
  requireAssets,
  type BinaryAssets,
} from './assets.js';
export { readCRDs, type CustomResourceDefinition } from './crds.js';
