import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log/index.js';
import { memoryDestination } from '../log/memory.js';
import { endReconcileSpan, startReconcileSpan, withSpan } from './reconcile-span.js';
import { OTLP_PACKAGES, resourceAttributes, startOtlpTracing } from './otlp.js';
import { otlpReceiver } from '../test-fixtures/otlp-receiver.js';
import { runtimeTracer } from './index.js';

describe('OTLP export (opt-in)', () => {
  it('does nothing, and loads nothing, without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const loaded: string[] = [];
    const t = await startOtlpTracing({ env: {}, load: async (s) => void loaded.push(s) });
    expect(t).toBeUndefined();
    expect(loaded).toEqual([]);
  });

  it('with the endpoint set but the SDK missing: one warning naming the packages to install, tracing stays off', async () => {
    const logs = memoryDestination();
    const t = await startOtlpTracing({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
      log: createLogger({ destination: logs }),
      load: (s) => import(`${s}-not-installed`),
    });
    expect(t).toBeUndefined();
    const lines = logs.records();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', endpoint: 'http://127.0.0.1:4318/v1/traces' });
    for (const p of OTLP_PACKAGES) expect(String(lines[0]!['msg'])).toContain(p);
    expect(runtimeTracer().startSpan('x').isRecording()).toBe(false);
  });

  it('with the SDK present: reconcile spans and their children go through a batch processor to the exporter, flushed on shutdown', async () => {
    // The in-memory exporter forgets its spans on shutdown; this one keeps them to be read after.
    const exporter = new (class extends InMemorySpanExporter {
      override shutdown(): Promise<void> {
        return Promise.resolve();
      }
    })();
    const t = await startOtlpTracing({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
      // The real SDK and context manager; the exporter is the SDK's in-memory one instead of OTLP/HTTP.
      load: async (s) =>
        s.endsWith('otlp-http')
          ? {
              // biome-ignore lint/complexity/useArrowFunction: the loader constructs it with new, which an arrow cannot serve
              OTLPTraceExporter: function () {
                return exporter;
              },
            }
          : import(s),
    });
    expect(t).toBeDefined();
    const span = startReconcileSpan('widget', { namespace: 'ns', name: 'w' }, 'id-1', { reason: 'requeue', folded: 0 });
    await withSpan(span, async () => {
      await new Promise((r) => setTimeout(r, 1));
      runtimeTracer().startSpan('GET').end();
    });
    endReconcileSpan(span, { result: 'success' });
    await t!.shutdown();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['GET', 'Reconcile']);
    const child = spans.find((s) => s.name === 'GET')!;
    expect(child.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    // After shutdown the API is back to its no-op.
    expect(runtimeTracer().startSpan('x').isRecording()).toBe(false);
  });

  it('over OTLP/HTTP for real: the installed SDK and exporter send the reconcile span to OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const receiver = await otlpReceiver();
    try {
      const t = await startOtlpTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
      expect(t).toBeDefined();
      const span = startReconcileSpan('gadget', { namespace: 'ns', name: 'g' }, 'id-otlp', {
        reason: 'requeueAfter',
        delayMs: 5,
        folded: 1,
      });
      endReconcileSpan(span, { result: 'success' });
      await t!.shutdown();
      expect(receiver.batches().flatMap((b) => b.spans)).toEqual([
        { name: 'Reconcile', attributes: expect.objectContaining({ controller: 'gadget', reconcileID: 'id-otlp' }) },
      ]);
    } finally {
      await receiver.close();
    }
  }, 20_000);

  it('names the service as OTEL_SERVICE_NAME says: a local OTLP receiver gets service.name from it, other resource attributes from OTEL_RESOURCE_ATTRIBUTES', async () => {
    const receiver = await otlpReceiver();
    try {
      const env = {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'memcached-operator-staging',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=ignored,deployment.environment.name=staging,team=cache%2Cops',
      };
      const t = await startOtlpTracing({ env, serviceName: 'memcached-operator' });
      endReconcileSpan(
        startReconcileSpan('memcached', { namespace: 'shop', name: 'm1' }, 'id-svc', { reason: 'requeue', folded: 0 }),
        { result: 'success' },
      );
      await t!.shutdown();
      const [batch] = receiver.batches();
      expect(batch?.resource).toMatchObject({
        'service.name': 'memcached-operator-staging',
        'deployment.environment.name': 'staging',
        team: 'cache,ops',
        'telemetry.sdk.language': 'nodejs',
      });
      expect(batch?.spans).toEqual([
        {
          name: 'Reconcile',
          attributes: expect.objectContaining({ controller: 'memcached', objectKey: 'shop/m1', reconcileID: 'id-svc' }),
        },
      ]);
    } finally {
      await receiver.close();
    }
  }, 20_000);

  it('without OTEL_SERVICE_NAME: service.name from OTEL_RESOURCE_ATTRIBUTES, else the name the operator passes (its project), never unknown_service', async () => {
    for (const [extra, expected] of [
      [{ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes' }, 'from-attributes'],
      [{}, 'memcached-operator'],
    ] as const) {
      const receiver = await otlpReceiver();
      try {
        const t = await startOtlpTracing({
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...extra },
          serviceName: 'memcached-operator',
        });
        endReconcileSpan(startReconcileSpan('memcached', { name: 'm1' }, 'id', { reason: 'requeue', folded: 0 }), {
          result: 'success',
        });
        await t!.shutdown();
        expect(receiver.batches()[0]?.resource['service.name']).toBe(expected);
      } finally {
        await receiver.close();
      }
    }
  }, 20_000);

  it('OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none keeps tracing off even with an endpoint', async () => {
    for (const off of [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_TRACES_EXPORTER: 'none' }]) {
      const loaded: string[] = [];
      expect(
        await startOtlpTracing({
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', ...off },
          load: async (p) => void loaded.push(p),
        }),
      ).toBeUndefined();
      expect(loaded).toEqual([]);
    }
  });

  it('reads OTEL_RESOURCE_ATTRIBUTES as the specification writes it: percent-encoded values, entries that do not parse left out', () => {
    expect(
      resourceAttributes({ OTEL_RESOURCE_ATTRIBUTES: ' a = 1 ,b=x%3Dy,broken,=novalue,c=%E0%A4%A' }, 'svc'),
    ).toEqual({ 'service.name': 'svc', a: '1', b: 'x=y' });
    expect(resourceAttributes({ OTEL_SERVICE_NAME: ' named ', OTEL_RESOURCE_ATTRIBUTES: 'service.name=attr' })).toEqual(
      { 'service.name': 'named' },
    );
    expect(resourceAttributes({})).toEqual({});
  });
});
