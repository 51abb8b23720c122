import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log/index.js';
import { memoryDestination } from '../log/memory.js';
import { endReconcileSpan, startReconcileSpan, withSpan } from './reconcile-span.js';
import { OTLP_PACKAGES, startOtlpTracing } from './otlp.js';
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
    expect(lines[0]).toMatchObject({ level: 'warn', endpoint: 'http://127.0.0.1:4318' });
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
      load: async (s) => (s.endsWith('otlp-http') ? { OTLPTraceExporter: function () { return exporter; } } : import(s)),
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
    expect(spans.map((s) => s.name).sort()).toEqual(['GET', 'reconcile widget']);
    const child = spans.find((s) => s.name === 'GET')!;
    expect(child.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    // After shutdown the API is back to its no-op.
    expect(runtimeTracer().startSpan('x').isRecording()).toBe(false);
  });
});
