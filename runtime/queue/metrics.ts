/**
 * The hooks a queue calls so a metrics provider can export client-go's workqueue metrics
 * (`workqueue_depth`, `_adds_total`, `_queue_duration_seconds`, `_work_duration_seconds`,
 * `_retries_total`, `_unfinished_work_seconds`, `_longest_running_processor_seconds`).
 * The queue knows nothing about Prometheus; metrics/ implements this with prom-client.
 */

/** A snapshot of work that has been handed out by `get` and not yet `done`. */
export interface UnfinishedWork {
  /** sum over in-flight keys of how long each has been processing, in seconds */
  unfinishedSeconds: number;
  /** how long the oldest in-flight key has been processing, in seconds */
  longestRunningSeconds: number;
}

export interface QueueMetrics {
  /** the number of keys waiting to be handed out changed */
  depth(n: number): void;
  /** a key was added that was not already waiting (client-go counts these) */
  added(): void;
  /** a key was handed out `seconds` after it became ready */
  queueLatency(seconds: number): void;
  /** a key was marked done `seconds` after it was handed out */
  workDuration(seconds: number): void;
  /** a key was re-added through `addRateLimited` */
  retried(): void;
  /**
   * Called once when the queue is built; the provider calls `probe` whenever it collects
   * (no timers in the queue), and stops once the queue has shut down if it likes.
   */
  unfinishedWork(probe: () => UnfinishedWork): void;
}

/** Does nothing; the default when no provider is given. */
export const noopQueueMetrics: QueueMetrics = {
  depth() {},
  added() {},
  queueLatency() {},
  workDuration() {},
  retried() {},
  unfinishedWork() {},
};
