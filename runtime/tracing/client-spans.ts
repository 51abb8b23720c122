/**
 * Child spans for the client's API calls: wraps a transport's `request` so each call to the API
 * server is a CLIENT span under whatever span is active — a reconcile's, when the call is made from
 * one. Spans are named as controller-runtime's tracing proposal names the client's calls (`k8s.Get`,
 * `k8s.List`, `k8s.Create`, `k8s.Update`, `k8s.Patch`, `k8s.Delete`, `k8s.DeleteAllOf`,
 * `k8s.Status.Update`, `k8s.Status.Patch`), read from the request's method and path, with its
 * `objectKey` (namespace/name) and the resource as `objectResource` ("apps/v1, Resource=deployments"),
 * plus OpenTelemetry's HTTP attributes. Without an SDK the API's no-op tracer makes this a pass-through.
 */

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { runtimeTracer } from './reconcile-span.js';

/** The one method of a transport this wraps. */
interface Requester<R extends { method: string; path: string }> {
  request<T>(req: R): Promise<T>;
}

/** Attribute names of the client spans. */
export const ClientAttributes = {
  objectKey: 'objectKey',
  objectResource: 'objectResource',
  subresource: 'subresource',
  method: 'http.request.method',
  path: 'url.path',
  statusCode: 'http.response.status_code',
} as const;

/** Replaces `transport.request` with a traced one and returns the same transport. */
export function traceRequests<R extends { method: string; path: string }, X extends Requester<R>>(transport: X): X {
  const send = transport.request.bind(transport);
  transport.request = async <T>(req: R): Promise<T> => {
    const op = operationOf(req.method, req.path);
    const span = runtimeTracer().startSpan(op.name, { kind: SpanKind.CLIENT });
    if (!span.isRecording()) {
      span.end();
      return send<T>(req);
    }
    const a = ClientAttributes;
    span.setAttribute(a.method, req.method);
    span.setAttribute(a.path, op.path);
    if (op.key) span.setAttribute(a.objectKey, op.key);
    if (op.resource) span.setAttribute(a.objectResource, op.resource);
    if (op.subresource) span.setAttribute(a.subresource, op.subresource);
    try {
      const out = await send<T>(req);
      return out;
    } catch (err) {
      const status = typeof err === 'object' && err !== null ? (err as { statusCode?: unknown }).statusCode : undefined;
      if (typeof status === 'number') span.setAttribute(a.statusCode, status);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  };
  return transport;
}

export interface ApiOperation {
  /** `k8s.Get` and the like; the HTTP method for a path that names no resource (discovery). */
  name: string;
  /** The path without its query. */
  path: string;
  key?: string;
  resource?: string;
  subresource?: string;
}

const RESOURCE_PATH =
  /^\/(?:api\/(?<core>[^/]+)|apis\/(?<group>[^/]+)\/(?<version>[^/]+))(?:\/namespaces\/(?<ns>[^/]+))?\/(?<resource>[^/]+)(?:\/(?<name>[^/]+))?(?:\/(?<sub>[^/]+))?$/;
const VERBS: Readonly<Record<string, [one: string, all: string]>> = {
  GET: ['Get', 'List'],
  POST: ['Create', 'Create'],
  PUT: ['Update', 'Update'],
  PATCH: ['Patch', 'Patch'],
  DELETE: ['Delete', 'DeleteAllOf'],
};

/** What a request does, from its method and path (a pure function, so it is tested on its own). */
export function operationOf(method: string, fullPath: string): ApiOperation {
  const [path = '', query = ''] = fullPath.split('?', 2);
  const m = RESOURCE_PATH.exec(path);
  const verbs = VERBS[method.toUpperCase()];
  if (!m?.groups || !verbs) return { name: method, path };
  const { core, group, version, ns, resource, name, sub } = m.groups;
  const watch = /(^|&)watch=(true|1)(&|$)/.test(query);
  const verb = watch ? 'Watch' : name ? verbs[0] : verbs[1];
  const prefix = sub === 'status' ? 'Status.' : '';
  const gv = core ?? `${group}/${version}`;
  return {
    name: `k8s.${prefix}${verb}`,
    path,
    ...(name ? { key: ns ? `${ns}/${name}` : name } : {}),
    resource: `${gv}, Resource=${resource}`,
    ...(sub && sub !== 'status' ? { subresource: sub } : {}),
  };
}
