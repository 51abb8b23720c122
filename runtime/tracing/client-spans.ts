/**
 * Child spans for the client's API calls: wraps a transport's `request` so each call to the API
 * server is a CLIENT span (method, path, status code) under whatever span is active — a
 * reconcile's, when the call is made from one. Without an SDK the API's no-op tracer makes this
 * a pass-through.
 */

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { runtimeTracer } from './reconcile-span.js';

/** The one method of a transport this wraps. */
interface Requester<R extends { method: string; path: string }> {
  request<T>(req: R): Promise<T>;
}

/** Replaces `transport.request` with a traced one and returns the same transport. */
export function traceRequests<R extends { method: string; path: string }, X extends Requester<R>>(transport: X): X {
  const send = transport.request.bind(transport);
  transport.request = async <T>(req: R): Promise<T> => {
    const span = runtimeTracer().startSpan(req.method, { kind: SpanKind.CLIENT });
    if (!span.isRecording()) {
      span.end();
      return send<T>(req);
    }
    span.setAttribute('http.request.method', req.method);
    span.setAttribute('url.path', req.path);
    try {
      const out = await send<T>(req);
      return out;
    } catch (err) {
      const status = typeof err === 'object' && err !== null ? (err as { statusCode?: unknown }).statusCode : undefined;
      if (typeof status === 'number') span.setAttribute('http.response.status_code', status);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  };
  return transport;
}
