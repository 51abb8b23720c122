/**
 * What a replica that has just taken its shard Lease may reconcile before its cache has caught
 * up. Until it held the Lease, the assigner may have moved the shard's objects to other shards
 * (while it held the Lease itself, reaper.ts); those moves were written before the take-over, but
 * this replica's watch may deliver them later, and a cache still showing an object on this shard
 * would start a reconcile the object's new shard is running too. So right after taking the Lease
 * the replica lists its shard's objects from the API server (a read as fresh as the take-over),
 * and until its cache has seen that list's version it admits only the objects the list found on
 * the shard and not draining.
 *
 * The list and the cache are compared by resourceVersion, and only versions of one resource (the
 * kind's list and its own watch) are compared: Kubernetes defines that order for one resource
 * (KEP-5504), not across resources; the shard Lease may even be stored apart from the objects.
 * A server whose versions are not whole numbers (not etcd-backed) gets no fence: nothing could
 * ever lift it, and the shard would stop reconciling what comes to it. Pure.
 */

/** The shard's objects as a list right after the take-over found them. */
export interface TakeoverFence {
  /** The list's resourceVersion. */
  resourceVersion: string;
  /** Keys (namespace/name) listed with this shard's label and no drain label. */
  keys: ReadonlySet<string>;
}

const WHOLE_NUMBER = /^(0|[1-9][0-9]*)$/;

/**
 * Orders two resourceVersions of one resource as whole numbers (any length): < 0, 0 or > 0;
 * undefined when either is not one (then nothing is known of their order).
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!WHOLE_NUMBER.test(a) || !WHOLE_NUMBER.test(b)) return undefined;
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The fence for a list at `resourceVersion` that found `keys`; undefined when its versions cannot be ordered. */
export function takeoverFence(resourceVersion: string, keys: ReadonlySet<string>): TakeoverFence | undefined {
  return WHOLE_NUMBER.test(resourceVersion) ? { resourceVersion, keys } : undefined;
}

/** Whether a cache that has seen `cacheResourceVersion` (its last list, event or bookmark) has seen everything the list saw. */
export function cacheHasPassed(fence: TakeoverFence, cacheResourceVersion: string): boolean {
  return (compareResourceVersions(cacheResourceVersion, fence.resourceVersion) ?? -1) >= 0;
}

/** Whether a reconcile of `key` may start as far as the fence goes (the cache's own labels are checked besides). */
export function fenceAdmits(fence: TakeoverFence | undefined, cacheResourceVersion: string, key: string): boolean {
  return !fence || cacheHasPassed(fence, cacheResourceVersion) || fence.keys.has(key);
}
