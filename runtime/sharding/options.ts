/**
 * The manager's `sharding` option, its defaults and its checks (pure; every problem reported at
 * once, in the manager's InvalidManagerOptionsError).
 */
import { validateTiming } from '../leaderelection/index.js';
import { DEFAULT_TOKENS_PER_SHARD } from './hash-ring.js';
import { defaultShardName, invalidName } from './names.js';

/**
 * Shard the manager's controllers across its replicas (`createManager({ sharding: { ring } })`,
 * `--sharding=<ring>`): each replica holds a Lease of the ring as one shard, and reconciles and
 * caches only the objects labelled with its shard.
 */
export interface ShardingOptions {
  /** The ring's name (a DNS-1123 label): every replica of one operator uses the same. */
  ring: string;
  /** Namespace of the shard Leases; default: the leader-election Lease's. */
  namespace?: string;
  /** This replica's shard (a DNS-1123 label); default: the host name plus 5 random characters, new at each start. */
  shardName?: string;
  /** Shard Lease timing, as leader election's (defaults 15 s / 10 s / 2 s): a shard whose Lease is not renewed for leaseDuration is gone. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** How often the assigner checks every object's shard even when nothing changed (default 5 min). */
  resyncPeriodMs?: number;
  /** Label writes the assigner, or a draining shard, sends at once (default 16). */
  maxConcurrentMoves?: number;
  /** Points per shard on the hash ring (default 512; more spreads objects more evenly). */
  tokensPerShard?: number;
}

export interface ResolvedSharding {
  ring: string;
  namespace: string;
  shardName: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resyncPeriodMs: number;
  maxConcurrentMoves: number;
  tokensPerShard: number;
}

/** The options with defaults filled in, or the problems with them. */
export function resolveSharding(
  o: ShardingOptions,
  leaseNamespace: string | undefined,
): { resolved?: ResolvedSharding; problems: string[] } {
  const problems: string[] = [];
  const ringProblem = invalidName('ring', o.ring ?? '');
  if (ringProblem) problems.push(`sharding.ring: ${ringProblem}`);
  const shardName = o.shardName ?? defaultShardName();
  const shardProblem = invalidName('shard', shardName);
  if (shardProblem) problems.push(`sharding.shardName: ${shardProblem}`);
  const namespace = o.namespace ?? leaseNamespace;
  if (!namespace)
    problems.push('sharding needs a namespace for its Leases: set sharding.namespace (or leaderElection.namespace)');
  const timing = {
    leaseDurationMs: o.leaseDurationMs ?? 15_000,
    renewDeadlineMs: o.renewDeadlineMs ?? 10_000,
    retryPeriodMs: o.retryPeriodMs ?? 2_000,
  };
  const timingProblem = validateTiming(timing);
  if (timingProblem) problems.push(`sharding: ${timingProblem}`);
  const resyncPeriodMs = o.resyncPeriodMs ?? 5 * 60_000;
  if (!(resyncPeriodMs > 0)) problems.push(`sharding.resyncPeriodMs must be > 0, got ${resyncPeriodMs}`);
  const maxConcurrentMoves = o.maxConcurrentMoves ?? 16;
  if (!(Number.isInteger(maxConcurrentMoves) && maxConcurrentMoves >= 1))
    problems.push(`sharding.maxConcurrentMoves must be a whole number of at least 1, got ${maxConcurrentMoves}`);
  const tokensPerShard = o.tokensPerShard ?? DEFAULT_TOKENS_PER_SHARD;
  if (!(Number.isInteger(tokensPerShard) && tokensPerShard >= 1))
    problems.push(`sharding.tokensPerShard must be a whole number of at least 1, got ${tokensPerShard}`);
  if (problems.length > 0 || !namespace) return { problems };
  return {
    resolved: { ring: o.ring, namespace, shardName, ...timing, resyncPeriodMs, maxConcurrentMoves, tokensPerShard },
    problems,
  };
}
