/**
 * apimachinery: the object model — object shapes (`ClientObject`, `KubeObject`), group/version/kind
 * and keys (`namespace/name`), typed kinds and the `KindRegistry`, `deepCopy` — and the abort
 * helpers every layer shares. It sends nothing and reads no file: the HTTP layer is rest/, the
 * kubeconfig and credentials kubeconfig/, discovery-backed mapping restmapper/ (as client-go keeps
 * `rest`, `clientcmd` and `restmapper` apart from k8s.io/apimachinery).
 *
 * The rest of the runtime imports the object model from this file. index.ts is the module's
 * public face: this, and until 0.3.0 the names that moved up to kubeconfig/, rest/ and
 * restmapper/, re-exported there for code written against tsop 0.1 — which loads those modules.
 */
export {
  type ClientObject,
  type GroupVersionKind,
  type Kind,
  kindFor,
  type KubeObject,
  type ObjectKey,
  InvalidObjectError,
  objectKey,
  objectKeyString,
  keyString,
  parseKey,
  gvkFromApiVersion,
  gvkOf,
  apiVersionOf,
  gvkString,
  type PartialObjectMetadata,
  type MetadataOnlyKind,
  metadataOnly,
  isMetadataOnly,
} from './types.js';
export * from './kinds.js';
export { deepCopy } from './deep-copy.js';
export { onAbort, linkSignals, checkOnRead, type LinkedSignal } from './abort.js';
