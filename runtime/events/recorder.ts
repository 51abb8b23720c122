/**
 * The event recorder: writes events.k8s.io/v1 Events through the client, fire-and-forget
 * (a failed write is logged, never thrown into the reconciler). Repeats of the same event
 * within `seriesWindowMs` fold into one Event whose `series.count` is patched, at most once
 * per `seriesFlushMs`, instead of creating a new Event each time. Each object gets at most 25
 * events in a burst, then one per five minutes (client-go's spam filter); the rest are dropped.
 * The writes go through an EventBroadcaster (a bounded queue and one sender): the manager's
 * recorders share one, a recorder made on its own gets its own.
 */
import { mergePatch, isNotFound, type Client, type ClientObject } from '../client/index.js';
import { rootLogger, type Logger } from '../log/index.js';
import { buildEvent, microTime, seriesKey, type EventObject, type EventType } from './event.js';
import { hostname } from 'node:os';
import { SpamFilter, type SpamFilterOptions } from './spam-filter.js';
import { EventBroadcaster } from './broadcaster.js';

export interface EventRecorder {
  /** Records an event about `obj`; `related` names a second object involved (e.g. the child). */
  event(obj: ClientObject, type: EventType, reason: string, action: string, note: string, related?: ClientObject): void;
}

export interface RecorderOptions {
  /** e.g. `memcached-operator` (events.k8s.io requires it). */
  reportingController: string;
  /** Defaults to `<reportingController>-<hostname>`. */
  reportingInstance?: string;
  /** Repeats closer together than this join a series (default 6 min, as client-go). */
  seriesWindowMs?: number;
  /** Minimum time between two series patches of one event (default 30 s). */
  seriesFlushMs?: number;
  /** Per-object rate limit (default burst 25, one more per 5 min, as client-go). */
  spamFilter?: SpamFilterOptions;
  logger?: Logger;
  now?: () => Date;
  /** The queue and sender the writes go through (default: one of its own, with the default queue size). */
  broadcaster?: EventBroadcaster;
}

interface Series {
  event: EventObject;
  count: number;
  lastObserved: Date;
  lastWrite: number;
  dirty: boolean;
  timer: NodeJS.Timeout | undefined;
}

export class Recorder implements EventRecorder {
  private readonly series = new Map<string, Series>();
  private readonly broadcaster: EventBroadcaster;
  private readonly source: { reportingController: string; reportingInstance: string };
  private readonly windowMs: number;
  private readonly flushMs: number;
  private readonly log: Logger;
  private readonly now: () => Date;
  private lastSweep = 0;
  private readonly spam: SpamFilter;

  constructor(
    private readonly client: Client,
    opts: RecorderOptions,
  ) {
    this.source = {
      reportingController: opts.reportingController,
      reportingInstance: opts.reportingInstance ?? `${opts.reportingController}-${hostname()}`,
    };
    this.windowMs = opts.seriesWindowMs ?? 6 * 60_000;
    this.flushMs = opts.seriesFlushMs ?? 30_000;
    this.log = (opts.logger ?? rootLogger()).child({ component: 'events' });
    this.now = opts.now ?? (() => new Date());
    this.spam = new SpamFilter(opts.spamFilter);
    this.broadcaster = opts.broadcaster ?? new EventBroadcaster({ logger: opts.logger });
  }

  /** Writes waiting in this recorder's broadcaster (shared with the manager's other recorders). */
  get queued(): number {
    return this.broadcaster.queued;
  }

  event(
    obj: ClientObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: ClientObject,
  ): void {
    const now = this.now();
    let ev: EventObject;
    try {
      ev = buildEvent(this.source, { regarding: obj, related, type, reason, action, note }, now);
    } catch (err) {
      this.log.error({ err, reason }, 'dropping invalid event');
      return;
    }
    this.sweep(now);
    if (!this.spam.allow(this.source.reportingController, ev.regarding, now.getTime())) {
      this.broadcaster.rateLimited();
      this.log.debug({ reason, regarding: ev.regarding }, 'dropping event: too many for this object (spam filter)');
      return;
    }
    const key = seriesKey(ev);
    const s = this.series.get(key);
    if (s && now.getTime() - s.lastObserved.getTime() < this.windowMs) {
      s.count++;
      s.lastObserved = now;
      s.dirty = true;
      this.scheduleSeriesWrite(key, s);
      return;
    }
    const fresh: Series = {
      event: ev,
      count: 1,
      lastObserved: now,
      lastWrite: now.getTime(),
      dirty: false,
      timer: undefined,
    };
    const queued = this.broadcaster.enqueue(async () => {
      try {
        fresh.event = (await this.client.create(ev)) as EventObject;
      } catch (err) {
        if (this.series.get(key) === fresh) this.series.delete(key);
        // Cut off by a lost lease: expected, and said once by the broadcaster.
        if (!this.broadcaster.stopped) this.log.error({ err, reason }, 'failed to write event');
      }
    });
    // Dropped: the next repeat starts a new Event instead of counting into one never written.
    if (queued) this.series.set(key, fresh);
  }

  /** Writes every pending series update and waits for all writes queued (by any recorder of its broadcaster). */
  async flush(): Promise<void> {
    for (const [key, s] of this.series) {
      if (s.timer) {
        clearTimeout(s.timer);
        s.timer = undefined;
        this.broadcaster.enqueue(() => this.writeSeries(key, s));
      }
    }
    await this.broadcaster.flush();
  }

  private scheduleSeriesWrite(key: string, s: Series): void {
    if (s.timer) return;
    const delay = Math.max(0, s.lastWrite + this.flushMs - this.now().getTime());
    s.timer = setTimeout(() => {
      s.timer = undefined;
      // Dropped when the queue is full: the series stays dirty and the next repeat tries again.
      this.broadcaster.enqueue(() => this.writeSeries(key, s));
    }, delay);
    s.timer.unref();
  }

  private async writeSeries(key: string, s: Series): Promise<void> {
    if (!s.dirty || !s.event.metadata?.uid) return; // nothing new, or the create failed
    s.dirty = false;
    s.lastWrite = this.now().getTime();
    const series = { count: s.count, lastObservedTime: microTime(s.lastObserved) };
    try {
      s.event = (await this.client.patch(s.event, mergePatch({ series }))) as EventObject;
    } catch (err) {
      // Events expire (1 h by default); the next repeat starts a new one.
      if (isNotFound(err)) this.series.delete(key);
      else if (!this.broadcaster.stopped)
        this.log.error({ err, reason: s.event.reason }, 'failed to update event series');
    }
  }

  /** Forgets series that ended (no repeat within the window), at most once a minute. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < 60_000) return;
    this.lastSweep = now.getTime();
    this.spam.sweep(now.getTime());
    for (const [key, s] of this.series) {
      if (now.getTime() - s.lastObserved.getTime() >= this.windowMs && !s.timer) this.series.delete(key);
    }
  }
}

/** A recorder for `reportingController`, writing through `client`. */
export function createEventRecorder(client: Client, opts: RecorderOptions): Recorder {
  return new Recorder(client, opts);
}
