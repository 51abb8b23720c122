/**
 * The resource plural `create api` defaults to. A thin wrapper over src/codegen/plural.ts so the
 * scaffolder and `tsop manifests` can never disagree about a kind's plural.
 */
export { pluralOfKind } from '../codegen/plural.js';
