import { describe, expect, it } from 'vitest';
import { buildEvent, eventName, InvalidEventError, seriesKey } from './index.js';

const source = { reportingController: 'example.com/memcached', reportingInstance: 'memcached-host1' };
const cr = {
  apiVersion: 'cache.example.com/v1',
  kind: 'Memcached',
  metadata: { name: 'm1', namespace: 'ns', uid: 'u1', resourceVersion: '42' },
};
const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'u2' } };
const now = new Date('2026-05-05T10:00:00.123Z');

describe('buildEvent', () => {
  it('fills the events.k8s.io/v1 fields from the object and source', () => {
    const ev = buildEvent(
      source,
      { regarding: cr, type: 'Normal', reason: 'Created', action: 'CreateDeployment', note: 'made it' },
      now,
    );
    expect(ev).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { namespace: 'ns' },
      eventTime: '2026-05-05T10:00:00.123000Z',
      reportingController: 'example.com/memcached',
      reportingInstance: 'memcached-host1',
      action: 'CreateDeployment',
      reason: 'Created',
      type: 'Normal',
      note: 'made it',
      regarding: {
        apiVersion: 'cache.example.com/v1',
        kind: 'Memcached',
        name: 'm1',
        namespace: 'ns',
        uid: 'u1',
        resourceVersion: '42',
      },
    });
    expect(ev.metadata?.name).toMatch(/^m1\.[0-9a-f]+$/);
    expect(ev).not.toHaveProperty('related');
  });

  it('puts events about cluster-scoped objects in "default" and keeps the related object', () => {
    const ev = buildEvent(
      source,
      { regarding: node, related: cr, type: 'Warning', reason: 'R', action: 'A', note: '' },
      now,
    );
    expect(ev.metadata?.namespace).toBe('default');
    expect(ev.regarding).not.toHaveProperty('namespace');
    expect(ev.related).toMatchObject({ kind: 'Memcached', name: 'm1' });
  });

  it('truncates the note to 1024 bytes on a character boundary', () => {
    const ev = buildEvent(
      source,
      { regarding: cr, type: 'Normal', reason: 'R', action: 'A', note: 'é'.repeat(600) },
      now,
    );
    expect(Buffer.byteLength(ev.note ?? '')).toBe(1024);
    expect(ev.note).toBe('é'.repeat(512));
  });

  it('rejects what the API server would reject', () => {
    const base = { regarding: cr, type: 'Normal' as const, reason: 'R', action: 'A', note: '' };
    expect(() => buildEvent(source, { ...base, reason: '' }, now)).toThrow(InvalidEventError);
    expect(() => buildEvent(source, { ...base, action: 'x'.repeat(129) }, now)).toThrow(/action/);
    expect(() => buildEvent(source, { ...base, regarding: { kind: 'X' } }, now)).toThrow(/name/);
  });

  it('gives distinct names to events built in the same millisecond', () => {
    expect(eventName('a', now)).not.toBe(eventName('a', now));
  });
});

describe('seriesKey', () => {
  const make = (over: object = {}) =>
    buildEvent(source, { regarding: cr, type: 'Normal', reason: 'Scaled', action: 'Scale', note: 'n1', ...over }, now);

  it('ignores the note, so notes that vary still fold into one series', () => {
    expect(seriesKey(make())).toBe(seriesKey(make({ note: 'different' })));
  });

  it('separates by reason, type, action, regarding and related object', () => {
    const k = seriesKey(make());
    expect(seriesKey(make({ reason: 'Other' }))).not.toBe(k);
    expect(seriesKey(make({ type: 'Warning' }))).not.toBe(k);
    expect(seriesKey(make({ action: 'Other' }))).not.toBe(k);
    expect(seriesKey(make({ regarding: { ...cr, metadata: { ...cr.metadata, name: 'm2' } } }))).not.toBe(k);
    expect(seriesKey(make({ related: node }))).not.toBe(k);
  });
});
