/**
 * Runnable: anything the manager runs for its lifetime — controllers, caches, servers, user
 * loops. `start` runs until the signal aborts and resolves after cleaning up. Runnables that
 * write to the cluster (controllers) wait for leadership; others run on every replica.
 */

export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
  /** Default true: start only once this replica leads (when leader election is enabled). */
  needLeaderElection?: boolean;
  /**
   * With sharding: start on every replica once it holds its shard Lease, and stop with it
   * (sharded controllers). Ignored without sharding.
   */
  needShardLease?: boolean;
}

/** Adapts a function into a Runnable. */
export function runnableFunc(start: (signal: AbortSignal) => Promise<void>, needLeaderElection = true): Runnable {
  return { start, needLeaderElection };
}
