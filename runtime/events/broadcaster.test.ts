import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLogger, memoryDestination } from '../log/index.js';
import { runtimeMetrics } from '../metrics/index.js';
import { EventBroadcaster } from './index.js';

describe('EventBroadcaster', () => {
  it('holds at most queueSize writes, drops and counts the rest with one log line, and writes one at a time', async () => {
    const registry = new Registry();
    const logs = memoryDestination();
    const b = new EventBroadcaster({
      queueSize: 10,
      logger: createLogger({ level: 'info', destination: logs }),
      metrics: runtimeMetrics(registry).events,
    });
    let running = 0;
    let maxRunning = 0;
    let done = 0;
    const write = async (): Promise<void> => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      done++;
    };
    const accepted = Array.from({ length: 50 }, () => b.enqueue(write)).filter(Boolean).length;
    expect(accepted).toBe(10);
    expect(b.queued).toBe(10);
    const dropped = (await registry.getSingleMetric('tsop_events_dropped_total')?.get())?.values;
    expect(dropped).toEqual([expect.objectContaining({ labels: { reason: 'queue_full' }, value: 40 })]);
    const lines = logs.records().filter((r) => String(r['msg']).startsWith('dropping events'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', dropped: 1, queueSize: 10 });
    await b.flush();
    expect(done).toBe(10);
    expect(maxRunning).toBe(1);
    expect(b.queued).toBe(0);
  });

  it('reports the rest of a storm once the log interval is over', async () => {
    const logs = memoryDestination();
    const b = new EventBroadcaster({
      queueSize: 1,
      dropLogIntervalMs: 50,
      logger: createLogger({ level: 'info', destination: logs }),
      metrics: runtimeMetrics(new Registry()).events,
    });
    for (let i = 0; i < 5; i++) b.enqueue(async () => undefined);
    await new Promise((r) => setTimeout(r, 120));
    const counts = logs
      .records()
      .filter((r) => String(r['msg']).startsWith('dropping events'))
      .map((r) => r['dropped']);
    expect(counts).toEqual([1, 3]);
    await b.flush();
  });

  it('keeps sending after a write fails', async () => {
    const b = new EventBroadcaster({
      logger: createLogger({ level: 'silent' }),
      metrics: runtimeMetrics(new Registry()).events,
    });
    const seen: number[] = [];
    b.enqueue(() => Promise.reject(new Error('boom')));
    b.enqueue(async () => void seen.push(2));
    await b.flush();
    expect(seen).toEqual([2]);
  });
});

describe('EventBroadcaster with a signal', () => {
  it('discards what is queued once the signal aborts, refuses more, and says so in one line', async () => {
    const logs = memoryDestination();
    const ac = new AbortController();
    const b = new EventBroadcaster({
      logger: createLogger({ level: 'info', destination: logs }),
      metrics: runtimeMetrics(new Registry()).events,
      signal: ac.signal,
    });
    let written = 0;
    for (let i = 0; i < 5; i++) b.enqueue(async () => void written++);
    ac.abort(new Error('lost the lease ns/id'));
    expect(b.enqueue(async () => void written++)).toBe(false);
    await b.flush();
    expect(written).toBe(0);
    expect(logs.records().map((r) => [r['level'], r['msg'], r['discarded']])).toEqual([
      ['info', 'discarding queued events: lost the lease ns/id', 5],
    ]);
  });
});
