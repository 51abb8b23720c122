/**
 * createManager: the process-level runner of an operator. `start(signal)` goes through fixed
 * phases — serve /metrics and probes, start the cache and wait for it to sync (only then is
 * /readyz green), start runnables that need no leadership, campaign when leader election is
 * on, then start the controllers — and on abort stops in reverse: controllers finish in-flight
 * reconciles (bounded by the graceful shutdown timeout), then the lease is released if asked,
 * then the cache and the servers stop. A lost lease skips the graceful part: the client is
 * fenced (nothing more is sent), runnables are aborted, and start() rejects at once. The lease
 * is also checked as each request leaves (a gate on the process's connection), so a loop that
 * was blocked past the renew deadline finds it lost before it sends anything. Events go through
 * one bounded queue and one sender, on a connection of their own.
 */

import { checkOnRead, KindRegistry } from '../apimachinery/model.js';
import { ApiConnection, connectionFor } from '../rest/index.js';
import { RESTMapper } from '../restmapper/index.js';
import { createClient, type Client } from '../client/index.js';
import { createEventRecorder, EventBroadcaster, type Recorder } from '../events/index.js';
import { Cache, CacheSyncTimeoutError } from '../cache/index.js';
import { LeaderElector } from '../leaderelection/index.js';
import { rootLogger, type Logger } from '../log/index.js';
import { runtimeMetrics, type RuntimeMetrics } from '../metrics/index.js';
import { realClock, type TimerHandle } from '../queue/index.js';
import { Cancellation } from '../reconcile/index.js';
import { Checks, ping, type Checker } from './health.js';
import { controllerDebugFor, debugControllersRoute } from './debug.js';
import { checksRoute, serve, type RunningServer } from './http-server.js';
import { startMetricsServer } from './metrics-server.js';
import { resolveOptions, type ManagerOptions, type ResolvedOptions } from './options.js';
import type { Runnable } from './runnable.js';
import { checkKubeConfig, listenError, runStartupChecks } from './startup.js';
import type { Manager } from './types.js';
import { callerLocation } from './caller.js';
import { DevObjectReporter, startDevConsoleSpans } from './dev-console.js';
import {
  defaultWebhookServer,
  isManagedWebhookServer,
  NoWebhookServerError,
  type ManagedWebhookServer,
} from './webhook-server.js';
import type { ShardingEngine } from './sharding-engine.js';

/** start() was called twice. */
export class ManagerStartedError extends Error {
  override readonly name = 'ManagerStartedError';
}

/** Runnables did not finish within gracefulShutdownTimeoutMs after the stop signal. */
export class ShutdownTimeoutError extends Error {
  override readonly name = 'ShutdownTimeoutError';
}

/**
 * This replica lost the lease while leading; the process must exit so a successor takes over.
 * It is the reason in-flight reconciles are cancelled with: each logs "reconcile cancelled:
 * lost leadership" instead of an error.
 */
export class LeaderElectionLostError extends Cancellation {
  override readonly name: string = 'LeaderElectionLostError';
  constructor(message: string, why = 'lost leadership') {
    super(message, why);
  }
}

/**
 * This replica lost its shard Lease (sharding): the assigner may already be giving its objects
 * to other shards, so it stops at once and exits, as after a lost leader lease.
 */
export class ShardLeaseLostError extends LeaderElectionLostError {
  override readonly name: string = 'ShardLeaseLostError';
  constructor(message: string) {
    super(message, 'lost the shard lease');
  }
}

export function createManager(opts: ManagerOptions): Manager {
  const resolved = resolveOptions(opts);
  // Before anything opens a connection: its error would not say which context or cluster.
  checkKubeConfig(opts.kubeConfig);
  const mgr = new ControllerManager(opts, resolved);
  if (opts.webhookServer && !isManagedWebhookServer(opts.webhookServer)) {
    const at = callerLocation();
    mgr.logger.warn(
      { ...(at ? { at } : {}) },
      `${at ? `${at}: ` : ''}createManager's webhookServer as options is deprecated since tsop 0.3.0 and goes in 0.4.0;` +
        ' pass the server: webhookServer: new WebhookServer(options) from runtime/webhook (in main.ts, webhookServer: webhookServerFromFlags(flags))',
    );
  }
  return mgr;
}

class ControllerManager implements Manager {
  readonly client: Client;
  readonly cache: Cache;
  readonly restMapper: RESTMapper;
  readonly kinds = new KindRegistry();
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  readonly sharding: ShardingEngine | undefined;
  metricsPort: number | undefined;
  healthProbePort: number | undefined;

  private readonly healthz = new Checks();
  private readonly readyz = new Checks();
  private readonly runnables: Runnable[] = [];
  private readonly recorders = new Map<string, Recorder>();
  /** The recorders' one queue and sender, with a client on a connection of its own (created on first use). */
  private events: { broadcaster: EventBroadcaster; client: Client & { close(): void } } | undefined;
  private readonly running: Array<Promise<void>> = [];
  private readonly log: Logger;
  private started = false;
  private leading = false;
  private holdingShard = false;
  private cacheSynced = false;
  private runnableCtl = new AbortController();
  private electedResolve!: () => void;
  private readonly electedPromise = new Promise<void>((r) => (this.electedResolve = r));
  private failure: ((err: unknown) => void) | undefined;
  /** Aborted when the lease is lost: the client then sends nothing more (see ClientOptions.fence). */
  private readonly fence = new AbortController();
  private lostLease: LeaderElectionLostError | undefined;
  private elector: LeaderElector | undefined;
  /** The server in use: getWebhookServer() was called, so it starts with the manager. */
  private webhookServer: ManagedWebhookServer | undefined;

  constructor(
    private readonly opts: ManagerOptions,
    private readonly resolved: ResolvedOptions,
  ) {
    this.logger = opts.logger ?? rootLogger();
    this.log = this.logger.child({ component: 'manager' });
    this.metrics = runtimeMetrics(opts.registry);
    // Discovery, cache, client and the metrics filter all send through this KubeConfig's one
    // connection (rest/connection.ts); the cap applies to all of them.
    if (opts.maxSockets !== undefined) connectionFor(opts.kubeConfig).setMaxSockets(opts.maxSockets);
    this.restMapper = new RESTMapper(opts.kubeConfig, { metrics: this.metrics.restClient });
    const cacheLog = this.logger.child({ component: 'cache' });
    const devObjects = DevObjectReporter.fromEnv(this.restMapper);
    this.cache = new Cache({
      kubeConfig: opts.kubeConfig,
      mapper: this.restMapper,
      ...opts.cache,
      defaultScope: { ...(opts.namespace ? { namespace: opts.namespace } : {}), ...opts.cache?.defaultScope },
      onWatchError: (info) => cacheLog.warn({ gvk: info.gvk, code: info.code, relist: info.relist }, info.message),
      onHandlerError: (err) => cacheLog.error({ err }, 'event handler threw'),
      requestMetrics: this.metrics.restClient,
      // Under `tsop dev` with its console: the console sees the objects the informers see.
      ...(devObjects ? { observer: devObjects } : {}),
    });
    const client = createClient(opts.kubeConfig, {
      reader: this.cache,
      metrics: this.metrics.restClient,
      restMapper: this.restMapper,
      fieldOwner: opts.fieldOwner,
      fence: this.fence.signal,
    });
    this.client = client;
    if (resolved.sharding && opts.shardingEngine) {
      const sharding = opts.shardingEngine(resolved.sharding, {
        kubeConfig: opts.kubeConfig,
        cache: this.cache,
        client,
        restMapper: this.restMapper,
        registry: opts.registry,
        requestMetrics: this.metrics.restClient,
        logger: this.logger,
      });
      this.sharding = sharding;
      // What reconciles create for their shard's objects carries the shard label from the start.
      this.client = sharding.stampingClient(client);
      this.add({ needLeaderElection: false, start: (signal) => sharding.runView(signal) });
      this.add({ needLeaderElection: true, start: (signal) => sharding.runAssigner(signal) });
    }
    if (opts.debugControllers)
      controllerDebugFor(this).enable(opts.debugControllers === true ? {} : opts.debugControllers);
    if (this.sharding) {
      const sharding = this.sharding;
      controllerDebugFor(this).setRing(() => sharding.debugInfo());
    }
    this.healthz.add('ping', ping);
    this.readyz.add('ping', ping);
    this.readyz.add('cache-sync', () => {
      if (!this.cacheSynced) throw new Error('informer caches have not synced yet');
    });
  }

  add(r: Runnable): void {
    this.runnables.push(r);
    // Late additions join a running manager as soon as their phase has been reached.
    if (this.started && !this.runnableCtl.signal.aborted && this.cacheSynced && this.phaseReached(r)) this.launch(r);
  }

  getEventRecorderFor(name: string): Recorder {
    return this.getEventRecorder(name);
  }

  getEventRecorder(name: string): Recorder {
    let r = this.recorders.get(name);
    if (!r) {
      const { broadcaster, client } = this.eventSink();
      r = createEventRecorder(client, { reportingController: name, logger: this.logger, broadcaster });
      this.recorders.set(name, r);
    }
    return r;
  }

  /**
   * Events are written one at a time from a bounded queue, on a connection of their own: a
   * storm of them never takes a socket a reconcile's request waits for. Fenced and gated as
   * the manager's client is, so a deposed leader records nothing more.
   */
  private eventSink(): { broadcaster: EventBroadcaster; client: Client & { close(): void } } {
    if (!this.events) {
      const connection = new ApiConnection(this.opts.kubeConfig, { maxSockets: 1 });
      if (this.resolved.leaderElection) connection.addGate(() => this.leaseGate());
      const client = createClient(this.opts.kubeConfig, {
        connection,
        metrics: this.metrics.restClient,
        restMapper: this.restMapper,
        fieldOwner: this.opts.fieldOwner,
        fence: this.fence.signal,
      });
      const broadcaster = new EventBroadcaster({
        logger: this.logger,
        metrics: this.metrics.events,
        signal: this.fence.signal,
      });
      this.events = { broadcaster, client };
    }
    return this.events;
  }

  getWebhookServer(): ManagedWebhookServer {
    if (this.webhookServer) return this.webhookServer;
    const given = this.opts.webhookServer;
    const server = given && isManagedWebhookServer(given) ? given : defaultWebhookServer(given ?? {});
    if (!server) {
      throw new NoWebhookServerError(
        'this manager has no webhook server: pass one to createManager (webhookServer: new WebhookServer(options), from runtime/webhook)',
      );
    }
    server.useManager({ logger: this.logger, registry: this.metrics.registry, client: this.client });
    this.webhookServer = server;
    return server;
  }

  /**
   * The server to start: the one in use, or one made from the options code of tsop ≤ 0.2 passes
   * (started then even with no webhook registered, as it was). Undefined, with a warning, when
   * those options come without webhook/ loaded: there is nothing to serve.
   */
  private webhookServerToStart(): ManagedWebhookServer | undefined {
    if (this.webhookServer) return this.webhookServer;
    const given = this.opts.webhookServer;
    if (!given || isManagedWebhookServer(given)) return undefined;
    try {
      return this.getWebhookServer();
    } catch (err) {
      if (!(err instanceof NoWebhookServerError)) throw err;
      this.log.warn(
        {},
        'webhook server options given (--webhook-* flags) but this operator registers no webhook; not serving webhooks',
      );
      return undefined;
    }
  }

  addHealthzCheck(name: string, check: Checker): void {
    this.healthz.add(name, check);
  }

  addReadyzCheck(name: string, check: Checker): void {
    this.readyz.add(name, check);
  }

  elected(): Promise<void> {
    return this.electedPromise;
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new ManagerStartedError('a manager can be started only once');
    this.started = true;
    const servers: RunningServer[] = [];
    const cacheCtl = new AbortController();
    const electionCtl = new AbortController();
    let election: Promise<void> | undefined;
    let cacheRun: Promise<void> | undefined;
    // Rejected by the first runnable that fails, or by a lost lease: both stop the manager.
    const failed = new Promise<never>((_, reject) => (this.failure = reject));
    failed.catch(() => undefined);
    const stopped = new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    // Every request of this process's connection (client, cache, discovery) is checked as it
    // leaves: none goes out once the lease may be another replica's (see leaseGate).
    const removeGate = this.resolved.leaderElection
      ? connectionFor(this.opts.kubeConfig).addGate(() => this.leaseGate())
      : undefined;
    // And whenever code reads its signal (ctx.signal.aborted, throwIfAborted): a reconcile that
    // resumes after a loop blocked past the renew deadline finds it aborted on its next line,
    // before any timer has run, and so before a side effect outside Kubernetes.
    if (this.resolved.leaderElection || this.sharding) checkOnRead(this.runnableCtl.signal, () => this.leaseGate());
    let shardHold: Promise<void> | undefined;
    // Under `tsop dev` with its console: the spans go there.
    const devSpans = startDevConsoleSpans();
    try {
      if (this.opts.startupChecks) {
        const le = this.resolved.leaderElection;
        await runStartupChecks({
          kubeConfig: this.opts.kubeConfig,
          mapper: this.restMapper,
          kinds: this.cache.unsynced().map((u) => u.gvk),
          ...(le ? { lease: { namespace: le.namespace, name: le.id } } : {}),
          signal,
        });
      }
      await this.startServers(servers);
      cacheRun = Promise.resolve(this.cache.start(cacheCtl.signal)).catch((err: unknown) => this.failure?.(err));
      if (!(await Promise.race([this.waitForCaches(signal), stopped.then(() => false), failed]))) return;
      this.cacheSynced = true;
      this.log.info('caches synced');
      for (const r of this.runnables) if (!this.needsLease(r) && !this.needsShard(r)) this.launch(r);
      election = this.campaign(electionCtl.signal);
      shardHold = this.sharding?.hold(electionCtl.signal, {
        onHolding: () => this.holdShard(),
        onLost: (message) => this.loseLease(message, true),
      });
      await Promise.race([stopped, failed]);
      this.log.info('stop signal received; shutting down');
    } finally {
      // A lost lease stops at once, without waiting for in-flight work (controller-runtime's
      // OnStoppedLeading exits): the fence has already cancelled their API calls.
      const lost = this.lostLease !== undefined;
      if (lost) this.runnableCtl.abort();
      const drained = lost || (await this.stopRunnables());
      // A reconcile still running past the timeout keeps the lease: releasing it now would let
      // a successor work on the same objects. The caller exits, and the lease then expires.
      if (drained) {
        electionCtl.abort();
        await election;
        await shardHold;
      }
      // Events recorded by the last reconciles are written before the process goes away.
      if (!lost) await Promise.all([...this.recorders.values()].map((r) => r.flush().catch(() => undefined)));
      this.events?.client.close();
      cacheCtl.abort();
      await cacheRun;
      for (const s of servers) await s.close();
      removeGate?.();
      devSpans?.shutdown();
      this.log.info('manager stopped');
      if (!drained) {
        const ms = this.resolved.gracefulShutdownTimeoutMs;
        // biome-ignore lint/correctness/noUnsafeFinally: work still running past the timeout is what the caller must hear, even over the failure that began the stop
        throw new ShutdownTimeoutError(`runnables still running ${ms} ms after the stop signal`);
      }
    }
  }

  /** True once the caches synced, false if `signal` aborts first; throws past cacheSyncTimeoutMs. */
  private async waitForCaches(signal: AbortSignal): Promise<boolean> {
    const ms = this.resolved.cacheSyncTimeoutMs;
    const gate = new AbortController();
    const onAbort = (): void => gate.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = realClock.setTimeout(onAbort, ms);
    try {
      if (await this.cache.waitForCacheSync(gate.signal)) return true;
    } finally {
      realClock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) return false;
    // Logged once, by whoever catches it (runManager: one 'manager failed' line).
    throw CacheSyncTimeoutError.of('manager', ms, this.cache.unsynced());
  }

  private needsLease(r: Runnable): boolean {
    return (r.needLeaderElection ?? true) && this.resolved.leaderElection !== undefined;
  }

  private needsShard(r: Runnable): boolean {
    return r.needShardLease === true && this.sharding !== undefined;
  }

  /** Whether `r` may run now: it needs the shard Lease and this replica holds it, or it needs the lead and this replica leads. */
  private phaseReached(r: Runnable): boolean {
    if (this.needsShard(r)) return this.holdingShard;
    return this.leading || !this.needsLease(r);
  }

  private launch(r: Runnable): void {
    const p = r.start(this.runnableCtl.signal).catch((err: unknown) => {
      this.log.error({ err }, 'runnable failed; stopping the manager');
      this.failure?.(err);
    });
    this.running.push(p);
  }

  private async startServers(servers: RunningServer[]): Promise<void> {
    const { metricsAddr, probeAddr } = this.resolved;
    if (metricsAddr) {
      const s = await startMetricsServer(metricsAddr, this.metrics.registry, this.opts.metricsServer ?? {}, {
        kubeConfig: this.opts.kubeConfig,
        logger: this.logger,
        requestMetrics: this.metrics.restClient,
      }).catch((err: unknown) => {
        throw listenError(
          err,
          'metrics',
          this.opts.metricsBindAddress ?? ':8080',
          '--metrics-bind-address',
          '--metrics-cert-path, --metrics-cert-name and --metrics-cert-key',
        );
      });
      servers.push(s);
      this.metricsPort = s.port;
      this.log.info({ port: s.port, secure: s.secure }, 'serving metrics');
    }
    // Before the caches: listing a multi-version kind may need this server's /convert. Not
    // leader-gated, as in controller-runtime: every replica answers the API server.
    const webhooks = this.webhookServerToStart();
    if (webhooks) {
      await webhooks.listen().catch((err: unknown) => {
        throw listenError(
          err,
          'webhooks',
          `:${webhooks.options.port ?? 9443}`,
          '--webhook-port',
          '--webhook-cert-path, --webhook-cert-name and --webhook-cert-key',
        );
      });
      servers.push({ port: webhooks.port ?? 0, close: () => webhooks.close() });
    }
    if (probeAddr) {
      const debug = this.opts.debugControllers ? [debugControllersRoute(controllerDebugFor(this))] : [];
      const s = await serve(probeAddr, [
        checksRoute('/healthz', this.healthz),
        checksRoute('/readyz', this.readyz),
        ...debug,
      ]).catch((err: unknown) => {
        throw listenError(err, 'health probes', this.opts.healthProbeBindAddress ?? '', '--health-probe-bind-address');
      });
      servers.push(s);
      this.healthProbePort = s.port;
      this.log.info({ port: s.port }, 'serving health probes');
    }
  }

  /** Without leader election, leads at once; otherwise runs the elector until `signal` aborts. */
  private async campaign(signal: AbortSignal): Promise<void> {
    const le = this.resolved.leaderElection;
    if (!le) {
      this.becomeLeader();
      return;
    }
    const gauge = this.metrics.leaderElection;
    gauge.setLeading(le.id, false);
    const elector = (this.elector = new LeaderElector({
      kubeConfig: this.opts.kubeConfig,
      lease: { namespace: le.namespace, name: le.id },
      identity: le.identity,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      releaseOnCancel: le.releaseOnCancel,
      metrics: this.metrics.restClient,
      logger: this.logger,
      ...(this.sharding ? { gate: () => this.shardFence() } : {}),
      callbacks: {
        onStartedLeading: () => {
          gauge.setLeading(le.id, true);
          this.becomeLeader();
        },
        onStoppedLeading: () => {
          gauge.setLeading(le.id, false);
          if (!signal.aborted && this.leading) this.loseLease(`lost the lease ${le.namespace}/${le.id}`);
        },
      },
    }));
    await elector.run(signal);
  }

  /**
   * Split brain is worse than a restart: from this moment the client sends nothing, no
   * reconcile starts, and start() rejects without waiting for in-flight work.
   */
  private loseLease(message: string, shard = false): void {
    if (this.lostLease) return;
    const err = shard ? new ShardLeaseLostError(message) : new LeaderElectionLostError(message);
    this.lostLease = err;
    this.fence.abort(err);
    this.runnableCtl.abort(err);
    this.log.error({}, message);
    this.failure?.(err);
  }

  /**
   * Checked synchronously before each request leaves: refuses every request once the lease is
   * lost, and loses it at once when the last renewal is older than the renew deadline — which a
   * blocked event loop lets happen before any timer could notice (see LeaderElector.leaseExpired).
   */
  private leaseGate(): Error | undefined {
    if (!this.lostLease && this.elector?.leaseExpired()) {
      const le = this.resolved.leaderElection!;
      this.loseLease(`lost the lease ${le.namespace}/${le.id}`);
    }
    this.shardFence();
    return this.lostLease;
  }

  /** The shard Lease's part of leaseGate: refuses once the shard Lease is lost or past its deadline. */
  private shardFence(): Error | undefined {
    if (!this.lostLease && this.sharding?.leaseExpired()) {
      this.loseLease(`lost the shard lease ${this.sharding.namespace}/${this.sharding.leaseName}`, true);
    }
    return this.lostLease instanceof ShardLeaseLostError ? this.lostLease : undefined;
  }

  private becomeLeader(): void {
    if (this.runnableCtl.signal.aborted) return;
    this.leading = true;
    this.electedResolve();
    for (const r of this.runnables) if (this.needsLease(r) && !this.needsShard(r)) this.launch(r);
  }

  private holdShard(): void {
    if (this.runnableCtl.signal.aborted) return;
    this.holdingShard = true;
    for (const r of this.runnables) if (this.needsShard(r)) this.launch(r);
  }

  /** Aborts every runnable and waits for them, at most gracefulShutdownTimeoutMs; false on timeout. */
  private async stopRunnables(): Promise<boolean> {
    this.runnableCtl.abort();
    const timeoutMs = this.resolved.gracefulShutdownTimeoutMs;
    let timer: TimerHandle | undefined;
    // realClock: any length works, and Infinity waits for as long as the runnables take.
    const timeout = new Promise<'timeout'>((r) => (timer = realClock.setTimeout(() => r('timeout'), timeoutMs)));
    const all = Promise.all(this.running.slice()).then(() => 'done' as const);
    const outcome = await Promise.race([all, timeout]);
    if (timer) realClock.clearTimeout(timer);
    return outcome === 'done';
  }
}
