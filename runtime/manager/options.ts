/**
 * createManager's options, with controller-runtime's defaults: metrics on ':8080', probes
 * disabled unless asked for, a 30 s graceful shutdown, leader election off. Validation is pure
 * and reports every problem at once.
 */

import type { KubeConfigSource } from '../kubeconfig/index.js';
import type { Registry } from 'prom-client';
import type { CacheOptions } from '../cache/index.js';
import type { Logger } from '../log/index.js';
import type { FilterProvider } from '../metrics/index.js';
import type { DebugControllersOptions } from './debug.js';
import type { ManagedWebhookServer, WebhookServerOptions } from './webhook-server.js';
import {
  NoShardingEngineError,
  resolveSharding,
  type ResolvedSharding,
  type ShardingEngineFactory,
  type ShardingOptions,
} from './sharding-engine.js';
import { InvalidBindAddressError, parseBindAddress, type BindAddress } from './bind-address.js';

export interface LeaderElectionConfig {
  /** Name of the Lease object (controller-runtime's LeaderElectionID). */
  id: string;
  /** Namespace of the Lease. */
  namespace: string;
  /** Release the lease on a clean shutdown so a successor need not wait for it to expire. */
  releaseOnCancel?: boolean;
  /** Defaults 15 s / 10 s / 2 s, as controller-runtime. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Defaults to hostname_uuid. */
  identity?: string;
}

/**
 * How /metrics is served, beyond its address: controller-runtime's metricsserver.Options.
 * kubebuilder projects serve it over HTTPS behind `withAuthenticationAndAuthorization`, so only
 * identities granted `get` on the non-resource URL /metrics can scrape it.
 */
export interface MetricsServerOptions {
  /** HTTPS instead of plain HTTP (controller-runtime's SecureServing; default false). */
  secureServing?: boolean;
  /**
   * Directory holding the serving certificate and key, re-read when they change. Without it a
   * self-signed certificate is generated in memory at start. Needs `secureServing`.
   */
  certDir?: string;
  /** Certificate file in certDir (default 'tls.crt', the key of a kubernetes.io/tls Secret). */
  certName?: string;
  /** Key file in certDir (default 'tls.key'). */
  keyName?: string;
  /** Runs before every request, e.g. `withAuthenticationAndAuthorization` (controller-runtime's FilterProvider). */
  filterProvider?: FilterProvider;
}

export interface ManagerOptions {
  kubeConfig: KubeConfigSource;
  /** Restrict the cache (and so every watch) to one namespace. */
  namespace?: string;
  /** ':8080' style; '0' disables; ':0' picks a free port. Default ':8080'. */
  metricsBindAddress?: string;
  /** HTTPS, certificate and request filter of the metrics server (default: plain HTTP, no filter). */
  metricsServer?: MetricsServerOptions;
  /** ':8081' style; '0' or absent disables. */
  healthProbeBindAddress?: string;
  leaderElection?: LeaderElectionConfig;
  /** How long in-flight work may take to finish after the stop signal (default 30 s; Infinity: no limit). */
  gracefulShutdownTimeoutMs?: number;
  /**
   * How long the informers may take to store their first lists (default 2 min, as
   * controller-runtime's CacheSyncTimeout). Past it start() rejects with a CacheSyncTimeoutError
   * naming each kind and why (CRD missing, list forbidden) instead of staying NotReady forever.
   */
  cacheSyncTimeoutMs?: number;
  /**
   * Serve /debug/controllers on the health-probe port: per controller the queue depth, in-flight
   * keys, next delayed requeues and last results with their triggers (default off; see debug.ts).
   */
  debugControllers?: boolean | DebugControllersOptions;
  /**
   * Check at start, before serving anything, what a user can get wrong: every watched kind is
   * served (its CRD installed), the API server answers, the leader-election Lease's namespace
   * exists. A failure rejects start() at once with a StartupError saying how to fix it (see
   * startup.ts). Default off, as controller-runtime, which waits up to cacheSyncTimeoutMs for
   * CRDs installed later; generated operators turn it on (managerOptionsFromFlags).
   */
  startupChecks?: boolean;
  logger?: Logger;
  /** Registry served on /metrics (default: the process-wide one from metrics/). */
  registry?: Registry;
  /** Default fieldManager of the client's writes. */
  fieldOwner?: string;
  /**
   * What the cache holds, as controller-runtime's cache.Options: `byObject` limits one kind's
   * informer by label, field or namespace (reads and watches then see only those objects);
   * `defaultScope` does so for every other kind (its namespace defaults to `namespace`);
   * `protobuf: false` has every informer read JSON (built-in kinds are watched in protobuf).
   */
  cache?: Pick<
    CacheOptions,
    | 'byObject'
    | 'defaultScope'
    | 'resyncPeriodMs'
    | 'transform'
    | 'watchList'
    | 'watchSilenceMs'
    | 'selectorMisses'
    | 'protobuf'
  >;
  /**
   * Sockets the process's API requests may use at once (default 25); watches take one each
   * beyond it. Discovery, the cache and the client share this pool; leader election has its own.
   */
  maxSockets?: number;
  /**
   * The webhook server (controller-runtime's Options.WebhookServer): `new WebhookServer(options)`
   * from runtime/webhook, as main.ts passes it (`webhookServerFromFlags(flags)`). It starts
   * with the manager once a webhook is registered on it (webhookFor, conversionFor). Its options
   * alone are the shape of tsop ≤ 0.2 (deprecated since 0.3.0, removed in 0.4.0: the manager warns,
   * naming the line, and makes the server itself, which starts even with no webhook registered).
   */
  webhookServer?: ManagedWebhookServer | WebhookServerOptions;
  /**
   * Shard the controllers across the replicas (beyond controller-runtime): each replica holds a
   * Lease of ring `ring` as one shard and caches and reconciles only the objects labelled with
   * it; the elected leader assigns objects to shards and moves them with a drain handshake.
   * Controllers built with `withOptions({ sharded: false })` still run once, on the leader.
   * Without `leaderElection`, it elects on the Lease `<ring>.leader` in `sharding.namespace`.
   */
  sharding?: ShardingOptions;
  /**
   * What runs `sharding`: `shardingEngine` from runtime/sharding, as main.ts passes it once
   * `tsop edit --sharding` added the module. Without it, asking for sharding fails with
   * NoShardingEngineError, which names the command.
   */
  shardingEngine?: ShardingEngineFactory;
}

export interface ResolvedOptions {
  metricsAddr: BindAddress | undefined;
  probeAddr: BindAddress | undefined;
  gracefulShutdownTimeoutMs: number;
  cacheSyncTimeoutMs: number;
  sharding?: ResolvedSharding;
  /** `leaderElection`, or the one sharding implies. */
  leaderElection?: LeaderElectionConfig;
}

export class InvalidManagerOptionsError extends Error {
  override readonly name = 'InvalidManagerOptionsError';
  constructor(readonly problems: string[]) {
    super(`invalid manager options: ${problems.join('; ')}`);
  }
}

export function resolveOptions(o: ManagerOptions): ResolvedOptions {
  if (o.sharding && !o.shardingEngine) throw new NoShardingEngineError(o.sharding.ring);
  const problems: string[] = [];
  const addr = (value: string | undefined, fallback: string) => {
    try {
      return parseBindAddress(value ?? fallback);
    } catch (err) {
      if (err instanceof InvalidBindAddressError) problems.push(err.message);
      else throw err;
      return undefined;
    }
  };
  const metricsAddr = addr(o.metricsBindAddress, ':8080');
  const probeAddr = addr(o.healthProbeBindAddress, '0');
  const timeout = o.gracefulShutdownTimeoutMs ?? 30_000;
  if (!(timeout >= 0)) problems.push(`gracefulShutdownTimeoutMs must be >= 0, got ${timeout}`);
  const cacheSyncTimeoutMs = o.cacheSyncTimeoutMs ?? 120_000;
  if (!(cacheSyncTimeoutMs > 0)) problems.push(`cacheSyncTimeoutMs must be > 0, got ${cacheSyncTimeoutMs}`);
  if (!o.kubeConfig) problems.push('kubeConfig is required');
  if (
    o.maxSockets !== undefined &&
    !(Number.isInteger(o.maxSockets) && o.maxSockets >= 1) &&
    o.maxSockets !== Infinity
  ) {
    problems.push(`maxSockets must be a whole number of at least 1, got ${o.maxSockets}`);
  }
  if (o.metricsServer?.certDir && !o.metricsServer.secureServing) {
    problems.push(
      'metricsServer.certDir is set but metricsServer.secureServing is not (the certificate would be unused)',
    );
  }
  const le = o.leaderElection;
  if (le && (!le.id || !le.namespace)) problems.push('leaderElection needs both id and namespace');
  const sharding = o.sharding ? resolveSharding(o.sharding, le?.namespace) : undefined;
  problems.push(...(sharding?.problems ?? []));
  if (problems.length > 0) throw new InvalidManagerOptionsError(problems);
  const s = sharding?.resolved;
  // The assigner and the controllers that must run once need a leader.
  const leaderElection =
    le ?? (s ? { id: `${s.ring}.leader`, namespace: s.namespace, releaseOnCancel: true } : undefined);
  return {
    metricsAddr,
    probeAddr,
    gracefulShutdownTimeoutMs: timeout,
    cacheSyncTimeoutMs,
    sharding: s,
    leaderElection,
  };
}
