/**
 * The dev console's tracer: registered only where nothing else is, it keeps each span the runtime
 * starts as a record with its parent from the active context (a reconcile's API calls are its
 * children, across awaits), its attributes, error and stack, and sends them in one batch; after
 * shutdown the API's no-op tracer is back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { startDevConsoleTracing, type DevConsoleTracing, type DevSpanRecord } from './dev-console.js';
import { endReconcileSpan, runtimeTracer, startReconcileSpan, withSpan } from './reconcile-span.js';
import { traceRequests } from './client-spans.js';

const trigger = { reason: 'event', watch: 'for', kind: 'x/v1/Memcached', event: 'add', folded: 0 } as const;

describe('the dev console tracer', () => {
  let tracing: DevConsoleTracing | undefined;
  afterEach(() => {
    tracing?.shutdown();
    tracing = undefined;
    trace.disable();
    context.disable();
  });

  it('sends a reconcile and the API calls made inside it, as its children, in one batch', async () => {
    const batches: Array<{ spans: DevSpanRecord[] }> = [];
    let batched = (): void => undefined;
    const sent = new Promise<void>((r) => (batched = r));
    tracing = startDevConsoleTracing((body) => {
      batches.push(JSON.parse(body) as { spans: DevSpanRecord[] });
      batched();
    });
    expect(tracing).toBeDefined();
    const transport = traceRequests({
      request: async <T>(_req: { method: string; path: string }): Promise<T> => {
        await new Promise((r) => setTimeout(r, 5));
        return {} as T;
      },
    });
    const before = Date.now();
    const span = startReconcileSpan('memcached', { namespace: 'default', name: 'm1' }, 'id-1', trigger);
    await withSpan(span, async () => {
      await transport.request({ method: 'GET', path: '/apis/x/v1/namespaces/default/memcacheds/m1' });
      await new Promise((r) => setTimeout(r, 1));
      await transport.request({ method: 'PUT', path: '/apis/x/v1/namespaces/default/memcacheds/m1/status' });
    });
    endReconcileSpan(span, { result: 'error', err: new TypeError('no spec') });
    // Outside the reconcile, a call has no parent.
    await transport.request({ method: 'GET', path: '/api/v1/namespaces' });
    await sent;
    expect(batches).toHaveLength(1);
    const spans = batches[0]!.spans;
    const reconcile = spans.find((s) => s.name === 'Reconcile')!;
    expect(reconcile).toMatchObject({
      attributes: { controller: 'memcached', objectKey: 'default/m1', reconcileID: 'id-1', 'tsop.result': 'error' },
      error: 'no spec',
    });
    expect(reconcile.stack).toContain('TypeError: no spec');
    expect(reconcile.startMs).toBeGreaterThanOrEqual(before - 1);
    expect(reconcile.endMs).toBeGreaterThan(reconcile.startMs + 10);
    expect(reconcile.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reconcile.spanId).toMatch(/^[0-9a-f]{16}$/);
    const calls = spans.filter((s) => s.parentSpanId === reconcile.spanId);
    expect(calls.map((s) => s.name)).toEqual(['k8s.Get', 'k8s.Status.Update']);
    expect(calls.every((c) => c.traceId === reconcile.traceId)).toBe(true);
    expect(calls[1]?.attributes).toMatchObject({ 'http.request.method': 'PUT', objectKey: 'default/m1' });
    const alone = spans.find((s) => s.name === 'k8s.List')!;
    expect(alone.parentSpanId).toBeUndefined();
    expect(alone.traceId).not.toBe(reconcile.traceId);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });

  it("nests startActiveSpan's spans, and flushes what waits at shutdown, after which spans record nothing", () => {
    const sent: DevSpanRecord[] = [];
    tracing = startDevConsoleTracing((body) => sent.push(...(JSON.parse(body) as { spans: DevSpanRecord[] }).spans));
    const tracer = runtimeTracer();
    tracer.startActiveSpan('outer', (outer) => {
      tracer.startActiveSpan('inner', { attributes: { n: 1, tags: ['a', 'b'] } }, (inner) => inner.end());
      outer.end();
    });
    expect(sent).toEqual([]);
    tracing?.shutdown();
    tracing = undefined;
    const outer = sent.find((s) => s.name === 'outer')!;
    expect(sent.find((s) => s.name === 'inner')).toMatchObject({
      parentSpanId: outer.spanId,
      attributes: { n: 1, tags: 'a,b' },
    });
    expect(runtimeTracer().startSpan('after').isRecording()).toBe(false);
  });

  it('stays out when a tracer provider is registered already (a project exporting its own traces)', () => {
    const own = { getTracer: () => trace.getTracer('own') };
    expect(trace.setGlobalTracerProvider(own)).toBe(true);
    expect(startDevConsoleTracing(() => undefined)).toBeUndefined();
    expect(trace.getTracerProvider()).not.toBeUndefined();
  });
});
