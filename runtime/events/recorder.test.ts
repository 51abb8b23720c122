import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeClient } from '../client/fake/index.js';
import { createLogger } from '../log/index.js';
import { createEventRecorder, type EventObject } from './index.js';

const EVENT = { apiVersion: 'events.k8s.io/v1', kind: 'Event' } as const;
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', uid: 'u1' } };
const quiet = createLogger({ level: 'silent' });

describe('Recorder series on the fake client', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-06-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('creates once, then patches the series count at most once per flush interval', async () => {
    const client = createFakeClient();
    const rec = createEventRecorder(client, { reportingController: 'c', logger: quiet, seriesFlushMs: 30_000 });
    rec.event(cm, 'Warning', 'BackOff', 'Reconcile', 'first');
    await vi.advanceTimersByTimeAsync(1_000);
    for (let i = 0; i < 3; i++) rec.event(cm, 'Warning', 'BackOff', 'Reconcile', `again ${i}`);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(client.actions.map((a) => a.verb)).toEqual(['create']);

    await vi.advanceTimersByTimeAsync(30_000);
    expect(client.actions.map((a) => a.verb)).toEqual(['create', 'patch']);
    const [ev] = (await client.list<EventObject>(EVENT, { namespace: 'ns' })).items;
    expect(ev?.series?.count).toBe(4);
    expect(ev?.series?.lastObservedTime).toBe('2026-06-01T00:00:01.000000Z');
  });

  it('starts a new Event when the same event recurs after the series window', async () => {
    const client = createFakeClient();
    const rec = createEventRecorder(client, { reportingController: 'c', logger: quiet, seriesWindowMs: 60_000 });
    rec.event(cm, 'Normal', 'Synced', 'Reconcile', 'ok');
    await vi.advanceTimersByTimeAsync(61_000);
    rec.event(cm, 'Normal', 'Synced', 'Reconcile', 'ok');
    await rec.flush();
    const events = (await client.list<EventObject>(EVENT, { namespace: 'ns' })).items;
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.series === undefined)).toBe(true);
  });

  it('flush writes a pending series update at once', async () => {
    const client = createFakeClient();
    const rec = createEventRecorder(client, { reportingController: 'c', logger: quiet });
    rec.event(cm, 'Normal', 'Synced', 'Reconcile', 'ok');
    rec.event(cm, 'Normal', 'Synced', 'Reconcile', 'ok');
    await rec.flush();
    const [ev] = (await client.list<EventObject>(EVENT, { namespace: 'ns' })).items;
    expect(ev?.series?.count).toBe(2);
  });
});
