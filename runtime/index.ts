/**
 * The runtime's public API in one import: `import { createManager, controllerFor, … } from
 * './runtime/index.js'`. Every module is re-exported whole; the few names two modules share are
 * settled explicitly below. The test harness (envtest/, testing/) is left out on purpose — an
 * operator's production code should not load it; tests import those modules directly.
 */

// The HTTP layer, kubeconfig and REST mapper come before apimachinery, which still re-exports
// their names (deprecated there): a name exported twice is taken from the first module.
export * from './kubeconfig/index.js';
export * from './rest/index.js';
export * from './restmapper/index.js';
export * from './apimachinery/index.js';
export * from './log/index.js';
export * from './queue/index.js';
export * from './cache/index.js';
export * from './client/index.js';
export * from './reconcile/index.js';
export * from './predicate/index.js';
export * from './handler/index.js';
export * from './controller/index.js';
export * from './builder/index.js';
export * from './manager/index.js';
export * from './leaderelection/index.js';
export * from './metrics/index.js';
export * from './certs/index.js';
export * from './controllerutil/index.js';
export * from './conditions/index.js';
export * from './events/index.js';
export * from './markers/index.js';
export * from './shapes/index.js';
export * from './webhook/index.js';

// Names exported by two modules. The cache and the client declare the same reader contract;
// the client's list options are the ones reconcilers pass.
export type { CacheReader } from './cache/index.js';
export type { ListOptions } from './client/index.js';
export type { ListOptions as CacheListOptions } from './cache/index.js';
export type { Condition } from './conditions/index.js';
export { TransportError } from './rest/index.js';
export { decide as decideLeadership, type Decision as LeadershipDecision } from './leaderelection/index.js';
