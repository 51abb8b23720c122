/**
 * controller_runtime_* metric families, with controller-runtime's names, labels and histogram
 * buckets, so existing dashboards and alerts keep working. `forController(name)` binds the
 * `controller` label once and pre-creates every series at zero, as controller-runtime does,
 * so rate() queries see the series before the first error.
 */

import { Counter, Gauge, Histogram, type Registry } from './prom.js';
import type { Outcome } from '../reconcile/index.js';

// controller-runtime's reconcile_time_seconds buckets: fine below 1 s, coarse up to a minute.
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75,
  2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

const OUTCOMES: readonly Outcome[] = ['success', 'error', 'requeue', 'requeue_after'];

/** One controller's view of the families: every method already carries its `controller` label. */
export interface ControllerMetricsRecorder {
  outcome(result: Outcome): void;
  error(): void;
  terminalError(): void;
  panic(): void;
  reconcileTime(seconds: number): void;
  /** A reconcile ran past its reconciliationTimeout (its signal aborted with a TimeoutError). */
  timeout?(): void;
  workerStarted(): void;
  workerFinished(): void;
}

export class ControllerMetrics {
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly terminalReconcileErrors: Counter<'controller'>;
  readonly reconcilePanics: Counter<'controller'>;
  readonly reconcileTimeouts: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly maxConcurrentReconciles: Gauge<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;

  constructor(reg: Registry) {
    const registers = [reg];
    const c = ['controller'] as const;
    this.reconcileTotal = new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Reconciles run, by controller and outcome',
      labelNames: ['controller', 'result'] as const,
      registers,
    });
    this.reconcileErrors = new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Reconciles that returned an error (terminal or not), by controller',
      labelNames: c,
      registers,
    });
    this.terminalReconcileErrors = new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Reconciles that returned a TerminalError, by controller',
      labelNames: c,
      registers,
    });
    this.reconcilePanics = new Counter({
      name: 'controller_runtime_reconcile_panics_total',
      help: 'Exceptions thrown out of reconcile code and caught by the worker, by controller',
      labelNames: c,
      registers,
    });
    this.reconcileTimeouts = new Counter({
      name: 'controller_runtime_reconcile_timeouts_total',
      help: 'Reconciles still running when their reconciliationTimeout passed, by controller',
      labelNames: c,
      registers,
    });
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Wall-clock duration of each reconcile, by controller',
      labelNames: c,
      buckets: RECONCILE_BUCKETS,
      registers,
    });
    this.maxConcurrentReconciles = new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Configured worker count (maxConcurrentReconciles), by controller',
      labelNames: c,
      registers,
    });
    this.activeWorkers = new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Workers currently inside reconcile, by controller',
      labelNames: c,
      registers,
    });
  }

  /** Binds the label and initialises every series (all outcomes at 0, the worker cap). */
  forController(controller: string, maxConcurrentReconciles: number): ControllerMetricsRecorder {
    const l = { controller };
    for (const result of OUTCOMES) this.reconcileTotal.inc({ controller, result }, 0);
    this.reconcileErrors.inc(l, 0);
    this.terminalReconcileErrors.inc(l, 0);
    this.reconcilePanics.inc(l, 0);
    this.reconcileTimeouts.inc(l, 0);
    this.maxConcurrentReconciles.set(l, maxConcurrentReconciles);
    this.activeWorkers.set(l, 0);
    return {
      outcome: (result) => this.reconcileTotal.inc({ controller, result }),
      error: () => this.reconcileErrors.inc(l),
      terminalError: () => this.terminalReconcileErrors.inc(l),
      panic: () => this.reconcilePanics.inc(l),
      timeout: () => this.reconcileTimeouts.inc(l),
      reconcileTime: (s) => this.reconcileTime.observe(l, s),
      workerStarted: () => this.activeWorkers.inc(l),
      workerFinished: () => this.activeWorkers.dec(l),
    };
  }
}
