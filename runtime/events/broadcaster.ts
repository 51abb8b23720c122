/**
 * The event broadcaster: the one queue and the one sender behind a manager's recorders, as
 * client-go's EventBroadcaster. Event writes wait in a queue of at most `queueSize` (default
 * 1,000, client-go's); when it is full a new write is dropped, counted in
 * tsop_events_dropped_total{reason="queue_full"}, and logged — once at the first drop, then at
 * most once per `dropLogIntervalMs` with the count since. One sender writes them one after
 * another, so an event storm costs one request at a time however large it is; the manager gives
 * the broadcaster a connection of its own, so it never holds a socket a reconcile waits for.
 * Once its `signal` aborts (the manager's lease is lost) the queued writes are discarded and new
 * ones refused, quietly: a deposed leader records nothing more, and logs one line about it.
 */
import { rootLogger, type Logger } from '../log/index.js';
import { runtimeMetrics, type EventMetrics } from '../metrics/index.js';
import { onAbort } from '../apimachinery/model.js';
import { Fifo } from '../queue/index.js';

/** One write of an Event (a create, or a series patch); it handles its own failure. */
export type EventWrite = () => Promise<void>;

export interface BroadcasterOptions {
  /** Writes that may wait at once; more are dropped (default 1,000, as client-go). */
  queueSize?: number;
  /** Between two log lines about drops (default 10 s). */
  dropLogIntervalMs?: number;
  logger?: Logger;
  /** Where drops are counted (default: the process-wide registry's). */
  metrics?: EventMetrics;
  /** Once aborted, queued writes are discarded and new ones refused (see the module comment). */
  signal?: AbortSignal;
}

export const DEFAULT_EVENT_QUEUE_SIZE = 1_000;
const DROP_LOG_INTERVAL_MS = 10_000;

export class EventBroadcaster {
  readonly queueSize: number;
  private readonly queue = new Fifo<EventWrite>();
  private readonly log: Logger;
  private readonly metrics: EventMetrics;
  private readonly dropLogIntervalMs: number;
  private readonly signal: AbortSignal | undefined;
  /** The sender's run, while it has work. */
  private sending: Promise<void> | undefined;
  private lastDropLog = -Infinity;
  private unlogged = 0;
  private dropLogTimer: NodeJS.Timeout | undefined;

  constructor(opts: BroadcasterOptions = {}) {
    this.queueSize = opts.queueSize ?? DEFAULT_EVENT_QUEUE_SIZE;
    if (!(Number.isInteger(this.queueSize) && this.queueSize >= 1)) {
      throw new RangeError(`queueSize must be a whole number of at least 1, got ${this.queueSize}`);
    }
    this.dropLogIntervalMs = opts.dropLogIntervalMs ?? DROP_LOG_INTERVAL_MS;
    this.log = (opts.logger ?? rootLogger()).child({ component: 'events' });
    this.metrics = opts.metrics ?? runtimeMetrics().events;
    this.signal = opts.signal;
    if (opts.signal) onAbort(opts.signal, () => this.discard());
  }

  /** True once its signal aborted: writes are refused, and failures of the last ones are expected. */
  get stopped(): boolean {
    return this.signal?.aborted === true;
  }

  /** Writes waiting for the sender (not counting the one being written). */
  get queued(): number {
    return this.queue.length;
  }

  /** Queues a write; false (and counted as dropped) when the queue is full. */
  enqueue(write: EventWrite): boolean {
    if (this.stopped) return false;
    if (this.queue.length >= this.queueSize) {
      this.dropped();
      return false;
    }
    this.queue.push(write);
    this.sending ??= this.send();
    return true;
  }

  /** Counts an event the recorder's spam filter refused. */
  rateLimited(): void {
    this.metrics.drop('rate_limited');
  }

  /** Resolves once every write queued so far, and any queued meanwhile, has been made. */
  async flush(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async send(): Promise<void> {
    // Started after the caller's turn: recording an event never sends anything itself.
    await Promise.resolve();
    try {
      for (let write = this.queue.shift(); write; write = this.queue.shift()) {
        await write().catch((err: unknown) => {
          if (!this.stopped) this.log.error({ err }, 'event write failed');
        });
      }
    } finally {
      this.sending = undefined;
    }
  }

  private discard(): void {
    let discarded = 0;
    while (this.queue.shift()) discarded++;
    const reason: unknown = this.signal?.reason;
    const why = reason instanceof Error ? reason.message : 'stopped';
    if (discarded > 0) this.log.info({ discarded }, `discarding queued events: ${why}`);
  }

  private dropped(): void {
    this.metrics.drop('queue_full');
    this.unlogged++;
    const now = performance.now();
    if (now - this.lastDropLog >= this.dropLogIntervalMs) {
      this.logDrops(now);
      return;
    }
    // The rest of a storm is reported when the interval is over, even if nothing more is dropped.
    this.dropLogTimer ??= setTimeout(
      () => {
        this.dropLogTimer = undefined;
        if (this.unlogged > 0) this.logDrops(performance.now());
      },
      this.lastDropLog + this.dropLogIntervalMs - now,
    ).unref();
  }

  private logDrops(now: number): void {
    this.lastDropLog = now;
    this.log.warn(
      { dropped: this.unlogged, queueSize: this.queueSize },
      'dropping events: the event queue is full (an event storm); they are counted in tsop_events_dropped_total',
    );
    this.unlogged = 0;
  }
}
