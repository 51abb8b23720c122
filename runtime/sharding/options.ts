/**
 * The manager's `sharding` option, its defaults and its checks: declared by the manager
 * (manager/sharding-engine.ts), which resolves the option without loading sharding/; re-exported
 * here for code that imported them from sharding/.
 */
export { type ShardingOptions, type ResolvedSharding, resolveSharding } from '../manager/sharding-engine.js';
