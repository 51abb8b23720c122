/**
 * sharding: one controller spread over many replicas. Each replica holds a Lease of the ring as a
 * shard; the elected leader assigns every object of the sharded kinds to a shard by consistent
 * hashing (owned objects follow their controller owner) and records it as a label; each replica
 * caches and reconciles only the objects labelled with its shard. Moves between live shards go
 * through a drain handshake, so no object is ever reconciled by two replicas at once.
 *
 * A project has this module once `tsop edit --sharding` added it; its main.ts then passes
 * `shardingEngine` to createManager, which runs it through the manager's ShardingEngine interface.
 */
export { Sharding, shardingEngine, type ShardingDeps, type RingDebugInfo, type HoldCallbacks } from './sharding.js';
export { type ShardingOptions, type ResolvedSharding, resolveSharding } from './options.js';
export { HashRing, hash48, DEFAULT_TOKENS_PER_SHARD } from './hash-ring.js';
export {
  shardLabel,
  drainLabel,
  shardLeaseName,
  defaultShardName,
  invalidName,
  heldByAssigner,
  ASSIGNER_HOLDER_PREFIX,
  RING_LABEL,
  SHARD_NAME_LABEL,
  SHARDING_DOMAIN,
  SHARDING_FIELD_MANAGER,
} from './names.js';
export { groupKind, controllerOwnerOf, ownKey, followedOwner, type ControllerOwner, type MainKinds } from './keys.js';
export {
  decideMain,
  goneShards,
  planPass,
  movePatch,
  type Move,
  type ObjectState,
  type MainObject,
  type OwnedObject,
  type Planned,
  type PassInput,
} from './plan.js';
export {
  RingView,
  memberStates,
  leaseRecord,
  LEASE_GVK,
  type RingViewOptions,
  type LeaseEntry,
  type LeaseObject,
  type ShardMember,
} from './ring-view.js';
export { ShardedKinds, type ShardedKind, type KindRole } from './kinds.js';
export { ShardDrainer, OWNER_INDEX, type DrainerOptions } from './drainer.js';
export { takeoverFence, cacheHasPassed, fenceAdmits, compareResourceVersions, type TakeoverFence } from './fence.js';
export { Assigner, type AssignerOptions, type AssignerDebugInfo } from './assigner.js';
export { ShardReaper, leaseSpec, type ReaperOptions } from './reaper.js';
export { ShardingMetrics, shardingMetrics, type ShardingGaugeSource } from './metrics.js';
export { StampingClient, type Stamp } from './stamp.js';
export { Limiter } from './limiter.js';
