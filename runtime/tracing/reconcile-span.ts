/**
 * One OpenTelemetry span per reconcile, through `@opentelemetry/api` only: without a registered
 * SDK every call below is the API's no-op, so an operator that does not trace pays nothing but
 * a few function calls. With an SDK (and a context manager, which the Node SDKs register) the
 * client's API calls made during the reconcile become child spans of it.
 *
 * Names follow controller-runtime: the span is `Reconcile` (its tracing proposal's operation name)
 * and carries the keys controller-runtime's reconcile log lines carry (`controller`, `namespace`,
 * `name`, `reconcileID`) and the proposal's `objectKey`; what queued it and how it ended are tsop's
 * own (`tsop.trigger…`, `tsop.result`).
 */

import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { describeTrigger, type Request, type Trigger } from '../reconcile/index.js';

/** The instrumentation scope every runtime span is created under. */
export const TRACER_NAME = 'tsop.runtime';

/** The name of every reconcile span. */
export const RECONCILE_SPAN = 'Reconcile';

/** Span attributes a reconcile carries, one place so docs and tests agree. */
export const ReconcileAttributes = {
  controller: 'controller',
  namespace: 'namespace',
  name: 'name',
  objectKey: 'objectKey',
  reconcileID: 'reconcileID',
  trigger: 'tsop.trigger',
  triggerReason: 'tsop.trigger.reason',
  triggerWatch: 'tsop.trigger.watch',
  triggerKind: 'tsop.trigger.kind',
  triggerEvent: 'tsop.trigger.event',
  triggerObject: 'tsop.trigger.object',
  triggerFolded: 'tsop.trigger.folded',
  result: 'tsop.result',
  requeueAfterMs: 'tsop.requeue_after_ms',
} as const;

// A tracer from the global provider follows an SDK registered later, but keeps the first one it
// saw; `trace.disable()` installs a new global provider, so the tracer is cached per provider.
let tracerOf: { provider: TracerProvider; tracer: Tracer } | undefined;
export function runtimeTracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer(TRACER_NAME) };
  return tracerOf.tracer;
}

/** Starts the span of one reconcile; attributes are only computed when the span records. */
export function startReconcileSpan(controller: string, req: Request, reconcileID: string, trigger: Trigger): Span {
  const span = runtimeTracer().startSpan(RECONCILE_SPAN, { kind: SpanKind.INTERNAL });
  if (!span.isRecording()) return span;
  const a = ReconcileAttributes;
  span.setAttribute(a.controller, controller);
  if (req.namespace) span.setAttribute(a.namespace, req.namespace);
  span.setAttribute(a.name, req.name);
  span.setAttribute(a.objectKey, keyOf(req));
  span.setAttribute(a.reconcileID, reconcileID);
  span.setAttribute(a.trigger, describeTrigger(trigger));
  span.setAttribute(a.triggerReason, trigger.reason);
  span.setAttribute(a.triggerFolded, trigger.folded);
  if (trigger.reason === 'event') {
    span.setAttribute(a.triggerWatch, trigger.watch);
    span.setAttribute(a.triggerKind, trigger.kind);
    span.setAttribute(a.triggerEvent, trigger.event);
    if (trigger.object) span.setAttribute(a.triggerObject, keyOf(trigger.object));
  }
  return span;
}

/** Runs `fn` with `span` as the active span, so spans started inside (client calls) are its children. */
export function withSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  if (!span.isRecording()) return fn();
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** Ends a reconcile's span with its outcome: result label, requeue delay, error. */
export function endReconcileSpan(
  span: Span,
  outcome: { result: string; requeueAfterMs?: number; err?: unknown },
): void {
  if (span.isRecording()) {
    span.setAttribute(ReconcileAttributes.result, outcome.result);
    if (outcome.requeueAfterMs !== undefined)
      span.setAttribute(ReconcileAttributes.requeueAfterMs, outcome.requeueAfterMs);
    if (outcome.err !== undefined) {
      const err = outcome.err instanceof Error ? outcome.err : new Error(String(outcome.err));
      span.recordException(err);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
    }
  }
  span.end();
}

function keyOf(o: { namespace?: string; name: string }): string {
  return o.namespace ? `${o.namespace}/${o.name}` : o.name;
}
