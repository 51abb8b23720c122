/**
 * workqueue_* metric families as client-go's work queue exports them (depth, adds, queue and
 * work duration, unfinished work, longest running processor, retries), labelled the way
 * controller-runtime registers them: `controller` and `name`, both the controller's name.
 * `forQueue` returns the queue module's `QueueMetrics` hook for one queue. The two "unfinished
 * work" gauges are computed at scrape time from the queue's probe, so the queue needs no timer.
 */

import { Counter, Gauge, Histogram, type Registry } from './prom.js';
import type { QueueMetrics, UnfinishedWork } from '../queue/index.js';

// client-go's buckets: 10 ns to 1000 s, one per decade.
const DURATION_BUCKETS = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);

type L = 'controller' | 'name';

export class WorkqueueMetricsProvider {
  readonly depth: Gauge<L>;
  readonly adds: Counter<L>;
  readonly queueDuration: Histogram<L>;
  readonly workDuration: Histogram<L>;
  readonly unfinishedWork: Gauge<L>;
  readonly longestRunningProcessor: Gauge<L>;
  readonly retries: Counter<L>;
  private readonly probes = new Map<string, () => UnfinishedWork>();

  constructor(reg: Registry) {
    const registers = [reg];
    const labelNames = ['controller', 'name'] as const;
    this.depth = new Gauge({ name: 'workqueue_depth', help: 'Keys waiting in the queue', labelNames, registers });
    this.adds = new Counter({ name: 'workqueue_adds_total', help: 'Adds handled by the queue', labelNames, registers });
    this.queueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'Seconds a key waits in the queue before a worker takes it',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.workDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'Seconds a worker spends on a key, from get to done',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.unfinishedWork = new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: 'Sum of the seconds in-flight keys have been worked on; growth hints at stuck workers',
      labelNames,
      registers,
      collect: () => this.sample(),
    });
    this.longestRunningProcessor = new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'Seconds the oldest in-flight key has been worked on',
      labelNames,
      registers,
      collect: () => this.sample(),
    });
    this.retries = new Counter({
      name: 'workqueue_retries_total',
      help: 'Rate-limited re-adds',
      labelNames,
      registers,
    });
  }

  /** The metrics hook for the queue of controller `name`; every series starts at zero. */
  forQueue(name: string): QueueMetrics {
    const l = { controller: name, name };
    this.depth.set(l, 0);
    this.adds.inc(l, 0);
    this.retries.inc(l, 0);
    this.unfinishedWork.set(l, 0);
    this.longestRunningProcessor.set(l, 0);
    return {
      depth: (n) => this.depth.set(l, n),
      added: () => this.adds.inc(l),
      queueLatency: (s) => this.queueDuration.observe(l, s),
      workDuration: (s) => this.workDuration.observe(l, s),
      retried: () => this.retries.inc(l),
      unfinishedWork: (probe) => void this.probes.set(name, probe),
    };
  }

  /** Refreshes both in-flight gauges from every queue's probe (runs on each scrape). */
  private sample(): void {
    for (const [name, probe] of this.probes) {
      const w = probe();
      const l = { controller: name, name };
      this.unfinishedWork.set(l, w.unfinishedSeconds);
      this.longestRunningProcessor.set(l, w.longestRunningSeconds);
    }
  }
}
