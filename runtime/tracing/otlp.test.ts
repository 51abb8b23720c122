import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('over OTLP/HTTP for real: the installed SDK and exporter send the reconcile span to OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const bodies: Array<{ path: string; body: string }> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        bodies.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const t = await startOtlpTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` } });
      expect(t).toBeDefined();
      const span = startReconcileSpan('gadget', { namespace: 'ns', name: 'g' }, 'id-otlp', { reason: 'requeueAfter', delayMs: 5, folded: 1 });
      endReconcileSpan(span, { result: 'success' });
      await t!.shutdown();
      expect(bodies.map((b) => b.path)).toContain('/v1/traces');
      const sent = bodies.map((b) => b.body).join('\n');
      expect(sent).toContain('reconcile gadget');
      expect(sent).toContain('id-otlp');
    } finally {
      // The exporter keeps its connection alive; close it so the server can stop.
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 20_000);
});
