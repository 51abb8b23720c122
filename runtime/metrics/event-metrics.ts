/**
 * tsop_events_dropped_total{reason}: events the recorder did not write — `queue_full` when its
 * bounded queue had no room (an event storm), `rate_limited` when the per-object spam filter
 * had no token left. client-go drops the same events without counting them; a counter makes a
 * storm visible on a dashboard instead of only in the logs.
 */

import { Counter, type Registry } from './prom.js';

export type EventDropReason = 'queue_full' | 'rate_limited';

export class EventMetrics {
  readonly dropped: Counter<'reason'>;

  constructor(reg: Registry) {
    this.dropped = new Counter({
      name: 'tsop_events_dropped_total',
      help: 'Events not written: queue_full (the recorder queue had no room) or rate_limited (per-object spam filter)',
      labelNames: ['reason'] as const,
      registers: [reg],
    });
  }

  drop(reason: EventDropReason): void {
    this.dropped.inc({ reason });
  }
}
