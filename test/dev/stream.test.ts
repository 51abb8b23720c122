/** The `tsop dev` stream: source prefixes, the operator's JSON log shortened, the status line. */
import { describe, expect, it } from 'vitest';
import { formatOperatorLine, prefixed, statusLine } from '../../src/dev/stream.js';

const log = (fields: Record<string, unknown>): string =>
  JSON.stringify({ level: 'info', time: '2026-01-01T00:00:00.000Z', ...fields });

describe('tsop dev stream', () => {
  it('prefixes every non-empty line with its source, aligned', () => {
    expect(prefixed('api', 'wrote a\n\nwrote b\n')).toBe('api      | wrote a\napi      | wrote b\n');
    expect(prefixed('operator', 'x')).toBe('operator | x\n');
  });

  it('turns a Reconciled debug record into a reconcile line with its result and trigger', () => {
    const line = formatOperatorLine(
      log({
        level: 'debug',
        controller: 'memcached',
        namespace: 'default',
        name: 'm1',
        msg: 'Reconciled',
        result: 'requeue_after',
        requeueAfterMs: 5000,
        durationMs: 12,
        trigger: 'Deployment update default/m1',
      }),
    );
    expect(line.text).toBe(
      'reconciled memcached default/m1: requeue_after after 5000 ms in 12 ms (Deployment update default/m1)',
    );
    expect(line.reconcile).toEqual({ controller: 'memcached', object: 'default/m1', result: 'requeue_after' });
  });

  it('keeps a failed reconcile as the last result, with the first line of its error', () => {
    const line = formatOperatorLine(
      log({
        level: 'error',
        controller: 'fleet',
        name: 'f',
        msg: 'Reconciler error',
        err: { message: 'boom\n  at x' },
      }),
    );
    expect(line.text).toBe('ERROR fleet f: Reconciler error: boom');
    expect(line.reconcile).toEqual({ controller: 'fleet', object: 'f', result: 'error', error: 'boom' });
  });

  it('drops other debug records and passes non-JSON output through', () => {
    expect(formatOperatorLine(log({ level: 'debug', msg: 'watch event' }))).toEqual({});
    expect(formatOperatorLine('plain text from console.log')).toEqual({ text: 'plain text from console.log' });
    expect(formatOperatorLine('[1,2]')).toEqual({ text: '[1,2]' });
    expect(formatOperatorLine(log({ component: 'manager', msg: 'caches synced' }))).toEqual({ text: 'caches synced' });
  });

  it("reads the health-probe port from the manager's record, whatever its address", () => {
    const line = formatOperatorLine(log({ component: 'manager', msg: 'serving health probes', port: 40123 }));
    expect(line).toEqual({ text: 'serving health probes', healthProbePort: 40123 });
    expect(formatOperatorLine(log({ msg: 'serving health probes' })).healthProbePort).toBeUndefined();
    expect(formatOperatorLine(log({ msg: 'serving metrics', port: 8080 })).healthProbePort).toBeUndefined();
  });

  it('writes the status line', () => {
    expect(statusLine({ plane: 'control plane up', crds: 1, objects: 2, operator: 'operator running (pid 7)' })).toBe(
      'status: control plane up · 1 CRD · 2 objects · operator running (pid 7) · no reconcile yet',
    );
    expect(
      statusLine({
        plane: 'control plane up',
        crds: 0,
        objects: 1,
        operator: 'operator running (pid 7)',
        last: { controller: 'c', object: 'o', result: 'error', error: 'e' },
      }),
    ).toMatch(/0 CRDs · 1 object · .* · last reconcile c o: error \(e\)$/);
  });
});
