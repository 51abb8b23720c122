/**
 * The names a ring writes into the cluster: the label that assigns an object to a shard, the
 * label that asks its shard to let it go, the label that marks a Lease as one of the ring's
 * shards, and the Lease's own name. Rings and shards are DNS-1123 labels, so every name built
 * from them is a valid label key, label value and object name. Pure.
 */

/** The domain every sharding label lives under. */
export const SHARDING_DOMAIN = 'sharding.tsop.dev';

/** On each shard Lease: the ring it belongs to (`sharding.tsop.dev/ring=<ring>`). */
export const RING_LABEL = `${SHARDING_DOMAIN}/ring`;

/**
 * On each shard Lease: the shard it stands for (`sharding.tsop.dev/shard=<shard>`). The holder
 * identity names the process instead, so two processes given one shard name compete for the Lease.
 */
export const SHARD_NAME_LABEL = `${SHARDING_DOMAIN}/shard`;

/**
 * The holder identity under which the assigner holds the Lease of a shard that is gone while it
 * moves that shard's objects away (see reaper.ts). A shard's own identity starts with its shard
 * name, a DNS label, which has no '/': the two never meet.
 */
export const ASSIGNER_HOLDER_PREFIX = `${SHARDING_DOMAIN}/assigner_`;

/** Whether a Lease holder is the assigner holding a gone shard's Lease, not a shard. */
export function heldByAssigner(holderIdentity: string): boolean {
  return holderIdentity.startsWith(ASSIGNER_HOLDER_PREFIX);
}

/** The field manager of every write the ring itself makes (assignments, moves, drain acknowledgements). */
export const SHARDING_FIELD_MANAGER = 'tsop-sharding';

/** On each sharded object: the shard it is assigned to (`shard.sharding.tsop.dev/<ring>=<shard>`). */
export function shardLabel(ring: string): string {
  return `shard.${SHARDING_DOMAIN}/${ring}`;
}

/**
 * On an object being moved: the shard it goes to (`drain.sharding.tsop.dev/<ring>=<shard>`). Its
 * current shard stops reconciling it, then acknowledges by writing the new shard label and
 * removing this one, in one write.
 */
export function drainLabel(ring: string): string {
  return `drain.${SHARDING_DOMAIN}/${ring}`;
}

/** The Lease a shard holds to say it is alive: `<ring>-<shard>`, in the ring's namespace. */
export function shardLeaseName(ring: string, shard: string): string {
  return `${ring}-${shard}`;
}

/** Why a name cannot name a ring or a shard, and this process's default shard name: the manager's (it checks the option). */
export { invalidName, defaultShardName } from '../manager/sharding-engine.js';
