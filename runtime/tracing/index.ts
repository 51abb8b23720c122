/** tracing: OpenTelemetry spans for reconciles and the client's API calls (no-op without an SDK). */

export {
  TRACER_NAME,
  RECONCILE_SPAN,
  ReconcileAttributes,
  runtimeTracer,
  startReconcileSpan,
  endReconcileSpan,
  withSpan,
} from './reconcile-span.js';
export { traceRequests, operationOf, ClientAttributes, type ApiOperation } from './client-spans.js';
export { startOtlpTracing, resourceAttributes, OTLP_PACKAGES } from './otlp.js';
export type { OtlpTracing, OtlpTracingOptions } from './otlp.js';
export { startDevConsoleTracing, type DevConsoleTracing, type DevSpanRecord } from './dev-console.js';
