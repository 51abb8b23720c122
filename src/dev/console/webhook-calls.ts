/**
 * One admission or conversion call as the console shows it, read from what the operator's webhook
 * server reports in `tsop dev` (runtime/webhook/dev-console.ts): the request, the patch (decoded)
 * or the denial with each field path and message, and how long the operator took. Pure.
 */

/** What the runtime posts: the review it got, the answer it gave, and the time taken. */
export interface ReportedWebhookCall {
  path: string;
  at: number;
  durationMs: number;
  status: number;
  request: unknown;
  response: unknown;
}

export interface FieldDenial {
  field?: string;
  message: string;
}

export interface WebhookCall {
  at: number;
  path: string;
  type: 'admission' | 'conversion' | 'other';
  durationMs: number;
  /** CREATE, UPDATE … for admission; the desired apiVersion for conversion. */
  operation: string;
  kind: string;
  /** namespace/name of the object (admission), or the count converted. */
  object: string;
  allowed: boolean;
  patch?: unknown[];
  denial?: { message: string; code?: number; causes: FieldDenial[] };
  warnings?: string[];
  request: unknown;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function webhookCallOf(r: ReportedWebhookCall): WebhookCall {
  const body = obj(r.request);
  const answer = obj(r.response);
  const base = { at: r.at, path: r.path, durationMs: r.durationMs, request: r.request };
  if (body['kind'] === 'ConversionReview') {
    const req = obj(body['request']);
    const res = obj(answer['response']);
    const result = obj(res['result']);
    const objects = Array.isArray(req['objects']) ? req['objects'] : [];
    const failed = result['status'] === 'Failure';
    return {
      ...base,
      type: 'conversion',
      operation: `to ${str(req['desiredAPIVersion'])}`,
      kind: str(obj(objects[0])['kind']),
      object: objects.map((o) => str(obj(obj(o)['metadata'])['name'])).join(', '),
      allowed: !failed,
      ...(failed ? { denial: { message: str(result['message']), causes: [] } } : {}),
    };
  }
  if (body['kind'] === 'AdmissionReview') {
    const req = obj(body['request']);
    const res = obj(answer['response']);
    const allowed = res['allowed'] === true;
    const call: WebhookCall = {
      ...base,
      type: 'admission',
      operation: str(req['operation']),
      kind: str(obj(req['kind'])['kind']),
      object: [str(req['namespace']), str(req['name']) || str(obj(obj(req['object'])['metadata'])['name'])]
        .filter(Boolean)
        .join('/'),
      allowed,
    };
    if (typeof res['patch'] === 'string') {
      try {
        const ops: unknown = JSON.parse(Buffer.from(res['patch'], 'base64').toString('utf8'));
        if (Array.isArray(ops)) call.patch = ops;
      } catch {
        // A patch that does not decode is shown as absent; the API server would refuse it anyway.
      }
    }
    if (!allowed) {
      const status = obj(res['status']);
      const causes = Array.isArray(obj(status['details'])['causes'])
        ? (obj(status['details'])['causes'] as unknown[])
        : [];
      call.denial = {
        message: str(status['message']),
        ...(typeof status['code'] === 'number' ? { code: status['code'] } : {}),
        causes: causes.map((c) => ({
          ...(str(obj(c)['field']) ? { field: str(obj(c)['field']) } : {}),
          message: str(obj(c)['message']),
        })),
      };
    }
    if (Array.isArray(res['warnings'])) call.warnings = res['warnings'].map(String);
    return call;
  }
  return { ...base, type: 'other', operation: '', kind: '', object: '', allowed: r.status < 400 };
}
