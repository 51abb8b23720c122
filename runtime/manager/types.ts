/**
 * The Manager as builder/ and user code see it: shared client, cache and REST mapper, the
 * metrics registry, the root logger, and the registration calls. createManager() in manager.ts
 * builds the one implementation.
 */

import type { KindRegistry } from '../apimachinery/model.js';
import type { RESTMapper } from '../restmapper/index.js';
import type { Client } from '../client/index.js';
import type { EventRecorder } from '../events/index.js';
import type { Cache } from '../cache/index.js';
import type { Logger } from '../log/index.js';
import type { RuntimeMetrics } from '../metrics/index.js';
import type { Checker } from './health.js';
import type { Runnable } from './runnable.js';
import type { ManagedWebhookServer } from './webhook-server.js';
import type { ShardingEngine } from './sharding-engine.js';

export interface Manager {
  /** Reads from the cache for watched kinds, writes to the API server. */
  readonly client: Client;
  /** The shared informer cache. */
  readonly cache: Cache;
  readonly restMapper: RESTMapper;
  /**
   * The kinds this manager knows (controller-runtime's Scheme): the built-in kinds, and each kind
   * a controller reconciles, owns or watches, added when the controller is built. Look one up by
   * group/version/kind, e.g. an owner reference's: `mgr.kinds.forApiVersion(ref.apiVersion, ref.kind)`.
   */
  readonly kinds: KindRegistry;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  /**
   * An events.k8s.io/v1 recorder reporting as `name` (reportingController; reportingInstance is
   * `<name>-<hostname>`), rate-limited per object; pending series are flushed on stop.
   * controller-runtime ≥ 0.23's GetEventRecorder.
   */
  getEventRecorder(name: string): EventRecorder;
  /** The same recorder under controller-runtime's older name (GetEventRecorderFor). */
  getEventRecorderFor(name: string): EventRecorder;
  /** Runs `r` with the manager; runnables added after start() begin at once. */
  add(r: Runnable): void;
  /**
   * The webhook server given as `webhookServer` (or, for code of tsop ≤ 0.2 that passes none or
   * only its options, one made by webhook/); from this call on it starts with the manager, before
   * the caches sync (a conversion webhook may be needed to list at all). Throws
   * NoWebhookServerError in an operator that neither passed a server nor loaded webhook/.
   */
  getWebhookServer(): ManagedWebhookServer;
  addHealthzCheck(name: string, check: Checker): void;
  addReadyzCheck(name: string, check: Checker): void;
  /**
   * Starts servers and caches, waits for sync, campaigns for leadership when enabled, runs the
   * runnables, and resolves after a graceful shutdown once `signal` aborts.
   */
  start(signal: AbortSignal): Promise<void>;
  /** Resolves once this replica leads (at once when leader election is disabled). */
  elected(): Promise<void>;
  /** This replica's part in the ring when the manager was created with `sharding` (absent otherwise). */
  readonly sharding?: ShardingEngine;
  /** Bound ports once start() has opened them (useful with ':0'). */
  readonly metricsPort: number | undefined;
  readonly healthProbePort: number | undefined;
}
