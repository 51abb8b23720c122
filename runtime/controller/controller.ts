/**
 * Controller: one reconciler, its work queue, the watches that feed the queue, and N workers.
 * `start` registers every watch, waits until each source has delivered its initial list, then
 * runs the workers until the signal aborts; it returns once in-flight reconciles have finished.
 */

import { onAbort } from '../apimachinery/model.js';
import { CacheSyncTimeoutError } from '../cache/index.js';
import { rootLogger, type Logger } from '../log/index.js';
import { runtimeMetrics, type RuntimeMetrics } from '../metrics/index.js';
import type { Handler } from '../handler/index.js';
import type { Predicate } from '../predicate/index.js';
import { newWorkQueue, realClock, type Clock, type RateLimiter, type WorkQueue } from '../queue/index.js';
import type { Reconciler } from '../reconcile/index.js';
import { eventPath, type WatchLabel } from './event-path.js';
import type { Source } from './source.js';
import { runWorker, type ReconcileGate, type ReconcileRecord, type WorkerDeps } from './worker.js';
import type { ControllerDebugInfo, DebugResult } from './debug-info.js';

export interface ControllerOptions {
  /** Unique per manager; the `controller` label on metrics and logs. */
  name: string;
  reconciler: Reconciler;
  /** Workers reconciling distinct keys in parallel (default 1). */
  maxConcurrentReconciles?: number;
  /** Retry delays for errors and `requeue` (default: 5 ms doubling to 1000 s, max with 10/s burst 100). */
  rateLimiter?: RateLimiter;
  /** How long `start` waits for sources to sync before failing (default 2 min). */
  cacheSyncTimeoutMs?: number;
  /**
   * Aborts each reconcile's `ctx.signal` after this long and counts it in
   * controller_runtime_reconcile_timeouts_total (controller-runtime's ReconciliationTimeout;
   * default none). The worker still waits for the reconcile to return, so one key never runs twice.
   */
  reconciliationTimeoutMs?: number;
  /** Asked before each reconcile whether this replica may run it (sharded controllers; default: always). */
  gate?: ReconcileGate;
  metrics?: RuntimeMetrics;
  logger?: Logger;
  /** Time source for the queue's delays (tests pass a FakeClock). */
  clock?: Clock;
}

/** The sources did not deliver their initial lists in time; the controller did not start. */
export { CacheSyncTimeoutError };

/** start() was called twice; a controller runs once. */
export class ControllerStartedError extends Error {
  override readonly name = 'ControllerStartedError';
}

interface Watch {
  label: WatchLabel;
  source: Source;
  handler: Handler;
  predicates: readonly Predicate[];
}

export class Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  readonly maxConcurrentReconciles: number;
  private readonly opts: ControllerOptions;
  private readonly log: Logger;
  private readonly metrics: RuntimeMetrics;
  private readonly watches: Watch[] = [];
  private started = false;
  /** The last results, newest last; kept only once /debug/controllers is on. */
  private results: DebugResult[] | undefined;
  private keepResults = 0;

  constructor(opts: ControllerOptions) {
    this.opts = opts;
    this.name = opts.name;
    this.maxConcurrentReconciles = opts.maxConcurrentReconciles ?? 1;
    this.metrics = opts.metrics ?? runtimeMetrics();
    this.log = (opts.logger ?? rootLogger()).child({ controller: opts.name });
    this.queue = newWorkQueue({
      name: opts.name,
      rateLimiter: opts.rateLimiter,
      clock: opts.clock,
      metrics: this.metrics.workqueue.forQueue(opts.name),
    });
  }

  /** Routes a source's events through predicates and the handler into this controller's queue. */
  watch(source: Source, handler: Handler, ...predicates: Predicate[]): void {
    this.watchAs({ watch: 'source', kind: source.description }, source, handler, ...predicates);
  }

  /** `watch`, naming the watch as triggers report it (the builder's For / Owns / Watches). */
  watchAs(label: WatchLabel, source: Source, handler: Handler, ...predicates: Predicate[]): void {
    this.watches.push({ label, source, handler, predicates });
  }

  /** Runs until `signal` aborts; resolves after in-flight reconciles finish. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new ControllerStartedError(`controller ${this.name} was already started`);
    this.started = true;
    const recorder = this.metrics.controller.forController(this.name, this.maxConcurrentReconciles);
    // One of many waiters on the manager's signal: onAbort keeps it one listener for them all.
    const stopWaiting = onAbort(signal, () => this.queue.shutDown());
    try {
      for (const w of this.watches) {
        this.log.info({ source: w.source.description }, 'Starting EventSource');
        await w.source.start(eventPath(w.handler, w.predicates, this.queue, w.label), signal);
      }
      this.log.info('Starting Controller');
      if (!(await this.waitForSync(signal))) return;
      this.log.info({ workerCount: this.maxConcurrentReconciles }, 'Starting workers');
      const deps: WorkerDeps = {
        controller: this.name,
        reconciler: this.opts.reconciler,
        queue: this.queue,
        metrics: recorder,
        log: this.log,
        signal,
        reconciliationTimeoutMs: this.opts.reconciliationTimeoutMs,
        onResult: this.results ? (r) => this.record(r) : undefined,
        gate: this.opts.gate,
      };
      const workers = Array.from({ length: this.maxConcurrentReconciles }, () => runWorker(deps));
      await Promise.all(workers);
      this.log.info('All workers finished');
    } finally {
      stopWaiting();
      this.queue.shutDown();
    }
  }

  /** Keeps the last `n` results for /debug/controllers (call before start). */
  enableDebug(n: number): void {
    this.keepResults = Math.max(1, n);
    this.results ??= [];
  }

  /** Queue depth, in-flight and delayed keys, last results: what /debug/controllers shows. */
  debugInfo(delayedLimit = 10): ControllerDebugInfo {
    const empty = { depth: this.queue.len(), inFlight: [], delayed: [], delayedTotal: 0 };
    return {
      name: this.name,
      workers: this.maxConcurrentReconciles,
      queue: this.queue.snapshot?.(delayedLimit) ?? empty,
      lastResults: [...(this.results ?? [])].reverse(),
    };
  }

  private record(r: ReconcileRecord): void {
    const results = this.results!;
    results.push({
      key: r.key,
      reconcileID: r.reconcileID,
      trigger: r.trigger,
      result: r.result,
      finishedAt: new Date(r.finishedAt).toISOString(),
      durationMs: Math.round(r.durationMs * 10) / 10,
      ...(r.requeueAfterMs !== undefined ? { requeueAfterMs: r.requeueAfterMs } : {}),
      ...(r.error !== undefined ? { error: r.error } : {}),
    });
    if (results.length > this.keepResults) results.shift();
  }

  private async waitForSync(signal: AbortSignal): Promise<boolean> {
    const timeoutMs = this.opts.cacheSyncTimeoutMs ?? 120_000;
    const gate = new AbortController();
    const stopWaiting = onAbort(signal, () => gate.abort());
    // realClock, not the queue's clock: a FakeClock in tests must not stall the deadline.
    const timer = realClock.setTimeout(() => gate.abort(), timeoutMs);
    try {
      const synced = await Promise.all(this.watches.map((w) => w.source.waitForSync(gate.signal)));
      if (synced.every(Boolean)) return true;
      if (signal.aborted) return false;
      const causes = this.watches
        .filter((_, i) => !synced[i])
        .map((w) => `${w.source.description}: ${w.source.syncFailure?.() ?? 'initial list still in flight'}`);
      throw new CacheSyncTimeoutError(
        `controller ${this.name}: sources not synced after ${timeoutMs} ms: ${causes.join('; ')}`,
      );
    } finally {
      realClock.clearTimeout(timer);
      stopWaiting();
    }
  }
}
