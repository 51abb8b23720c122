/**
 * The worker loop, in one place: take a key, reconcile it, and let one switch decide what the
 * queue does next — rate-limited retry on error, nothing on a terminal error, a delayed add on
 * requeueAfter, a rate-limited add on requeue, forget on success. Exceptions that look like
 * programming bugs are counted as panics; every throw is contained so the worker survives.
 * Each reconcile gets the trigger the queue kept beside its key (ctx.trigger, the `trigger` log
 * field, its span), and each requeue names itself as the next run's cause. A reconcile that
 * fails after the manager cancelled it on purpose (its signal's reason is a Cancellation: a lost
 * lease) is one info line, "reconcile cancelled: <why>", not an error.
 */

import { linkSignals } from '../apimachinery/model.js';
import { isConflict } from '../client/index.js';
import { newReconcileID, type Logger } from '../log/index.js';
import type { ControllerMetricsRecorder } from '../metrics/index.js';
import { realClock, type WorkQueue } from '../queue/index.js';
import {
  cancellationOf,
  describeTrigger,
  isTerminalError,
  requestFromKey,
  type Reconciler,
  type Request,
  type Result,
  type Trigger,
} from '../reconcile/index.js';
import { endReconcileSpan, startReconcileSpan, withSpan } from '../tracing/index.js';

export interface WorkerDeps {
  controller: string;
  reconciler: Reconciler;
  queue: WorkQueue;
  metrics: ControllerMetricsRecorder;
  /** The controller's logger; it already carries the `controller` field. */
  log: Logger;
  /** Aborted on shutdown: workers stop taking keys; in-flight reconciles see it in ctx.signal. */
  signal: AbortSignal;
  /** Aborts each reconcile's ctx.signal after this long (controller-runtime's ReconciliationTimeout). */
  reconciliationTimeoutMs?: number;
  /** Told of every finished reconcile (for /debug/controllers); absent means nobody listens. */
  onResult?: (r: ReconcileRecord) => void;
  /** Asked right before each reconcile whether this replica may run it (a sharded controller's). */
  gate?: ReconcileGate;
}

/**
 * Admits or skips each key right before its reconcile (sharding: a replica reconciles only the
 * objects assigned to it). `enter` runs synchronously just before the reconciler is called, so
 * what it checks cannot change in between; a skipped key is forgotten, not retried. `exit` runs
 * once the reconcile of an admitted key has returned.
 */
export interface ReconcileGate {
  enter(key: string): boolean;
  exit(key: string): void;
}

/** One finished reconcile, as /debug/controllers lists it. */
export interface ReconcileRecord {
  key: string;
  reconcileID: string;
  trigger: Trigger;
  result: NextStep['kind'];
  /** When it finished (ms since the epoch) and how long it ran. */
  finishedAt: number;
  durationMs: number;
  requeueAfterMs?: number;
  error?: string;
}

const DIRECT: Trigger = Object.freeze({ reason: 'direct', folded: 0 });

/** What one reconcile call came to, before the queue is told anything. */
export type NextStep =
  | { kind: 'error'; err: unknown; panic: boolean }
  | { kind: 'terminal'; err: unknown; panic: boolean }
  | { kind: 'requeue_after'; delayMs: number }
  | { kind: 'requeue'; conflict?: true }
  | { kind: 'success' };

/** Runs one worker until the queue shuts down or the signal aborts. */
export async function runWorker(d: WorkerDeps): Promise<void> {
  while (!d.signal.aborted) {
    const key = await d.queue.get();
    if (key === undefined) return;
    try {
      // A key handed out after shutdown began is released unprocessed; it was never started.
      if (d.signal.aborted) return;
      if (d.gate && !d.gate.enter(key)) {
        d.queue.forget(key);
        if (d.log.isLevelEnabled('debug')) d.log.debug({ key }, "skipped: not this replica's to reconcile");
        continue;
      }
      d.metrics.workerStarted();
      try {
        await reconcileKey(d, key, d.queue.triggerOf?.(key) ?? DIRECT);
      } finally {
        d.metrics.workerFinished();
        d.gate?.exit(key);
      }
    } finally {
      d.queue.done(key);
    }
  }
}

/** Reconciles one key and tells the queue what to do with it. */
export async function reconcileKey(d: WorkerDeps, key: string, trigger: Trigger = DIRECT): Promise<void> {
  let req: Request;
  try {
    req = requestFromKey(key);
  } catch (err) {
    // Only a map function can produce such a key; retrying cannot make it valid.
    d.queue.forget(key);
    d.log.error({ err, key }, 'Dropping an invalid request key');
    return;
  }
  const reconcileID = newReconcileID();
  // d.log already carries `controller`; binding it again would repeat the key on every line.
  const log = d.log.child(
    req.namespace
      ? { namespace: req.namespace, name: req.name, reconcileID, trigger: describeTrigger(trigger) }
      : { name: req.name, reconcileID, trigger: describeTrigger(trigger) },
  );
  const span = startReconcileSpan(d.controller, req, reconcileID, trigger);
  const started = performance.now();
  const next = await withSpan(span, () => call(d, req, log, reconcileID, trigger));
  const durationMs = performance.now() - started;
  d.metrics.reconcileTime(durationMs / 1000);
  const err = next.kind === 'error' || next.kind === 'terminal' ? next.err : undefined;
  const requeueAfterMs = next.kind === 'requeue_after' ? next.delayMs : undefined;
  endReconcileSpan(span, { result: next.kind, requeueAfterMs, err });
  if (log.isLevelEnabled('debug'))
    log.debug({ result: next.kind, requeueAfterMs, durationMs: Math.round(durationMs) }, 'Reconciled');
  d.onResult?.({
    key,
    reconcileID,
    trigger,
    result: next.kind,
    finishedAt: Date.now(),
    durationMs,
    requeueAfterMs,
    error: err === undefined ? undefined : err instanceof Error ? err.message : String(err),
  });

  // Ended on purpose by the manager (a lost lease): its failure is the cancellation, not a bug.
  const cancelled = err === undefined ? undefined : cancellationOf(d.signal);
  if (cancelled) {
    d.queue.forget(key);
    log.info({ error: err instanceof Error ? err.message : String(err) }, `reconcile cancelled: ${cancelled.why}`);
    return;
  }

  switch (next.kind) {
    case 'error':
    case 'terminal':
      d.metrics.error();
      d.metrics.outcome('error');
      if (next.panic) d.metrics.panic();
      if (next.kind === 'terminal') {
        d.metrics.terminalError();
        d.queue.forget(key); // the next watch event starts from a fresh backoff
      } else {
        d.queue.addRateLimited(key, { reason: 'backoff' });
      }
      log.error({ err: next.err, panic: next.panic }, describe(next.kind, next.panic));
      return;
    case 'requeue_after':
      d.queue.forget(key);
      d.queue.addAfter(key, next.delayMs, { reason: 'requeueAfter', delayMs: next.delayMs });
      d.metrics.outcome('requeue_after');
      return;
    case 'requeue':
      d.queue.addRateLimited(key, { reason: 'requeue' });
      d.metrics.outcome('requeue');
      // A 409 is expected (the object changed since it was read): one info line, no stack.
      if (next.conflict) log.info({ reason: 'Conflict' }, 'requeued: object changed');
      return;
    case 'success':
      d.queue.forget(key);
      d.metrics.outcome('success');
      return;
  }
}

/** Maps a reconcile's return value or exception to a NextStep (pure). */
export function decideNext(run: { result: Result } | { thrown: unknown }): NextStep {
  if ('thrown' in run) {
    // A 409 means the object changed since it was read: retry with backoff, counted as a
    // requeue rather than an error, since reading again is all it needs.
    if (isConflict(run.thrown) && !isTerminalError(run.thrown)) return { kind: 'requeue', conflict: true };
    const panic = isPanic(run.thrown);
    return { kind: isTerminalError(run.thrown) ? 'terminal' : 'error', err: run.thrown, panic };
  }
  const r = run.result ?? {};
  if (r.requeueAfter !== undefined && r.requeueAfter > 0) return { kind: 'requeue_after', delayMs: r.requeueAfter };
  if (r.requeue === true) return { kind: 'requeue' };
  return { kind: 'success' };
}

function describe(kind: 'error' | 'terminal', panic: boolean): string {
  if (panic) return 'Observed a panic in reconciler; requeueing with backoff';
  return kind === 'terminal' ? 'Reconciler returned a terminal error; not requeueing' : 'Reconciler error';
}

async function call(
  d: WorkerDeps,
  req: Request,
  log: Logger,
  reconcileID: string,
  trigger: Trigger,
): Promise<NextStep> {
  const timeoutMs = d.reconciliationTimeoutMs;
  const deadline = timeoutMs === undefined ? undefined : new AbortController();
  const timer = deadline && realClock.setTimeout(() => deadline.abort(reconcileTimeout(timeoutMs!)), timeoutMs!);
  const linked = linkSignals(d.signal, deadline?.signal);
  const signal = linked.signal;
  try {
    const result = await d.reconciler.reconcile(req, { log, signal, reconcileID, controller: d.controller, trigger });
    return decideNext({ result });
  } catch (thrown) {
    return decideNext({ thrown });
  } finally {
    linked.dispose();
    if (timer) realClock.clearTimeout(timer);
    // Counted once the reconcile returns, as controller-runtime does with a context past its deadline.
    if (deadline?.signal.aborted) d.metrics.timeout?.();
  }
}

/** The abort reason a timed-out reconcile's signal carries (a DOMException named TimeoutError, as AbortSignal.timeout's). */
function reconcileTimeout(ms: number): DOMException {
  return new DOMException(`reconcile exceeded its reconciliationTimeout of ${ms} ms`, 'TimeoutError');
}

/**
 * JavaScript has no panics, so treat as one what signals a bug rather than a failed operation:
 * a thrown non-Error value, or the engine's own error classes (TypeError for `undefined.x`,
 * ReferenceError, RangeError). Operational failures are ordinary errors even when their class
 * says otherwise: fetch's network failure is a TypeError ('fetch failed', with a cause), and a
 * SyntaxError at run time comes from parsing data (JSON.parse), not from the code.
 */
export function isPanic(err: unknown): boolean {
  if (!(err instanceof Error)) return true;
  if (err instanceof TypeError) return !isNetworkTypeError(err);
  return err instanceof ReferenceError || err instanceof RangeError;
}

/** undici's (fetch's) failure: TypeError('fetch failed') carrying the socket error as its cause. */
function isNetworkTypeError(err: TypeError): boolean {
  return err.message === 'fetch failed' || (err.cause instanceof Error && 'code' in err.cause);
}
