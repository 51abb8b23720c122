/**
 * Sharding as the manager and the builder see it: the manager checks and resolves the `sharding`
 * option (plain data, here with its pure checks), and runs a ShardingEngine that a project's
 * main.ts gives it (`shardingEngine` from runtime/sharding, added by `tsop edit --sharding`), as
 * it runs the webhook server main.ts gives it. So the manager never imports sharding/, and an
 * operator that does not shard carries none of it (src/runtime/sharding/ arrives with
 * `tsop edit --sharding`). sharding/'s Sharding is the implementation.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { GroupVersionKind } from '../apimachinery/model.js';
import type { Cache } from '../cache/index.js';
import type { Client, ClientObject } from '../client/index.js';
import type { ReconcileGate } from '../controller/index.js';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { validateTiming } from '../leaderelection/index.js';
import type { Logger } from '../log/index.js';
import type { RequestMetrics } from '../rest/index.js';
import type { RESTMapper } from '../restmapper/index.js';

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

/** Tokens per shard: with 512, the largest of 3 shards holds about 1.1 × its fair share. */
export const DEFAULT_TOKENS_PER_SHARD = 512;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `name` cannot name a ring or a shard, or undefined when it can. */
export function invalidName(what: 'ring' | 'shard', name: string): string | undefined {
  if (name.length === 0) return `the ${what} name is empty`;
  if (name.length > 63)
    return `the ${what} name "${name}" is ${name.length} characters long (at most 63: it is a label value)`;
  if (!DNS_LABEL.test(name)) {
    return `the ${what} name "${name}" must be lower-case letters, digits and '-', starting and ending with a letter or digit (a DNS-1123 label)`;
  }
  return undefined;
}

/**
 * A shard name for this process: the host name (a pod's name) made a DNS label, plus five random
 * characters, so that two processes on one host never share a shard, and a restarted process
 * joins as a new shard instead of taking over one whose objects may still be reconciled.
 */
export function defaultShardName(host: string = hostname(), random: string = randomSuffix()): string {
  const base = host
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 57)
    .replace(/-+$/, '');
  return base ? `${base}-${random}` : `shard-${random}`;
}

function randomSuffix(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(5)].map((b) => alphabet[b % alphabet.length]).join('');
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

/** What a sharding engine takes from the manager that runs it. */
export interface ShardingDeps {
  kubeConfig: KubeConfigSource;
  cache: Cache;
  /** The manager's client, before labelling (fenced, gated by the manager's leases). */
  client: Client;
  restMapper: RESTMapper;
  registry?: Registry;
  requestMetrics?: RequestMetrics;
  logger: Logger;
}

export interface HoldCallbacks {
  /** This replica holds its shard Lease: sharded controllers may start. */
  onHolding(): void;
  /** It lost the Lease (not renewed within the deadline, or taken): its reconciles must stop now. */
  onLost(message: string): void;
}

/** What /debug/controllers shows of the ring (the `ring` field): these, and whatever else the engine reports. */
export interface RingDebugSummary {
  ring: string;
  namespace: string;
  /** This replica's shard. */
  shard: string;
  /** Whether it holds its shard Lease, and so reconciles its share. */
  holding: boolean;
}

/** One replica's part in a ring, as the manager and the builder run it (runtime/sharding's Sharding). */
export interface ShardingEngine {
  readonly ring: string;
  readonly namespace: string;
  readonly shardName: string;
  /** The shard Lease's name, in `namespace`. */
  readonly leaseName: string;
  /** Shards controller `name` (its kinds cached with this shard's label, its reconciles gated), or the problems why not. */
  shardController(
    name: string,
    forGvk: GroupVersionKind,
    owned: readonly GroupVersionKind[],
  ): { problems: string[]; gate?: ReconcileGate };
  /** The problems with a controller that is not sharded watching `gvks`. */
  unshardedController(name: string, gvks: readonly GroupVersionKind[]): string[];
  /** What the manager's client sends instead of `obj` (the shard labels it should carry). */
  stamp<T extends ClientObject>(obj: T, verb: 'create' | 'update' | 'apply'): T;
  /** The manager's client, wrapped so that what it writes goes through stamp(). */
  stampingClient(client: Client): Client;
  /** Watches the ring (every replica) until `signal` aborts. */
  runView(signal: AbortSignal): Promise<void>;
  /** Runs the assigner (on the leader) until `signal` aborts. */
  runAssigner(signal: AbortSignal): Promise<void>;
  /** Holds this replica's shard Lease until `signal` aborts. */
  hold(signal: AbortSignal, cb: HoldCallbacks): Promise<void>;
  /** True while this replica holds its shard Lease but has not renewed it within the deadline. */
  leaseExpired(): boolean;
  isHolding(): boolean;
  debugInfo(): RingDebugSummary;
}

/** Makes the engine for the resolved `sharding` option: `shardingEngine` from runtime/sharding. */
export type ShardingEngineFactory = (options: ResolvedSharding, deps: ShardingDeps) => ShardingEngine;

/**
 * Sharding was asked for (the `sharding` option or `--sharding=<ring>`) but main.ts gave the
 * manager no `shardingEngine`: the project's runtime has no sharding module until
 * `tsop edit --sharding` adds it.
 */
export class NoShardingEngineError extends Error {
  override readonly name = 'NoShardingEngineError';
  constructor(readonly ring: string) {
    super(
      `sharding on ring "${ring}" was asked for (--sharding or the sharding option) but this project's runtime has no sharding module ` +
        "(createManager got no shardingEngine): run 'tsop edit --sharding', which adds src/runtime/sharding/ and passes it in main.ts",
    );
  }
}
