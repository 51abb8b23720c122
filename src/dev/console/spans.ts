/**
 * The operator's spans as the console shows them: a batch from the runtime's dev tracer
 * (runtime/tracing/dev-console.ts) or an OTLP/HTTP JSON export (what an operator whose runtime
 * predates it sends, through runtime/tracing/otlp.ts) read into reconciles (runtime/tracing/reconcile-span.ts)
 * and the API calls made inside them (runtime/tracing/client-spans.ts). Pure functions.
 */

/** One span of an export, its attributes flattened. */
export interface FlatSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  error?: string;
  stack?: string;
}

export interface ApiCall {
  spanId: string;
  /** k8s.Get, k8s.Status.Update, … */
  name: string;
  method: string;
  path: string;
  objectKey?: string;
  resource?: string;
  /** HTTP status when the call failed (a success records none). */
  status?: number;
  error?: string;
  startMs: number;
  durationMs: number;
}

export interface ReconcileRecord {
  spanId: string;
  traceId: string;
  controller: string;
  /** namespace/name */
  object: string;
  reconcileID: string;
  trigger: TriggerInfo;
  result: string;
  requeueAfterMs?: number;
  error?: string;
  stack?: string;
  startMs: number;
  durationMs: number;
  calls: ApiCall[];
}

/** What queued a reconcile, from the span's tsop.trigger.* attributes. */
export interface TriggerInfo {
  reason: string;
  watch?: string;
  kind?: string;
  event?: string;
  object?: string;
  folded: number;
  /** The runtime's own phrase (describeTrigger). */
  phrase: string;
  /** Set by the console when it asked for this reconcile itself. */
  manual?: boolean;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
  events?: Array<{ name?: string; attributes?: OtlpAttribute[] }>;
}
interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

const ms = (nanos: string | number | undefined): number =>
  nanos === undefined ? 0 : Number(BigInt(nanos) / 1_000_000n);

function attributeValue(v: OtlpValue | undefined): string | number | boolean | undefined {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return undefined;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const a of list ?? []) {
    const v = attributeValue(a.value);
    if (v !== undefined) out[a.key] = v;
  }
  return out;
}

/** Every span of an OTLP/HTTP JSON export body; a body of another shape gives none. */
export function spansOf(body: unknown): FlatSpan[] {
  const out: FlatSpan[] = [];
  for (const rs of (body as OtlpExport | null)?.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? []) {
        if (!s.spanId || !s.traceId) continue;
        const exception = s.events?.find((e) => e.name === 'exception');
        const ex = attributesOf(exception?.attributes);
        const span: FlatSpan = {
          traceId: s.traceId,
          spanId: s.spanId,
          name: s.name ?? '',
          startMs: ms(s.startTimeUnixNano),
          endMs: ms(s.endTimeUnixNano),
          attributes: attributesOf(s.attributes),
        };
        if (s.parentSpanId) span.parentSpanId = s.parentSpanId;
        if (s.status?.code === 2) span.error = s.status.message ?? String(ex['exception.message'] ?? 'error');
        if (typeof ex['exception.stacktrace'] === 'string') span.stack = ex['exception.stacktrace'];
        out.push(span);
      }
  return out;
}

/**
 * The spans of a batch the runtime's dev tracer posts to /dev/spans (runtime/tracing/dev-console.ts),
 * already in this shape; entries of another shape are passed over.
 */
export function devSpansOf(body: unknown): FlatSpan[] {
  const spans = (body as { spans?: unknown } | null)?.spans;
  if (!Array.isArray(spans)) return [];
  const out: FlatSpan[] = [];
  for (const s of spans as Array<Partial<FlatSpan> | null>) {
    if (!s || typeof s.traceId !== 'string' || typeof s.spanId !== 'string' || typeof s.name !== 'string') continue;
    if (typeof s.startMs !== 'number' || typeof s.endMs !== 'number') continue;
    const span: FlatSpan = {
      traceId: s.traceId,
      spanId: s.spanId,
      name: s.name,
      startMs: s.startMs,
      endMs: s.endMs,
      attributes: typeof s.attributes === 'object' && s.attributes !== null ? s.attributes : {},
    };
    if (typeof s.parentSpanId === 'string') span.parentSpanId = s.parentSpanId;
    if (typeof s.error === 'string') span.error = s.error;
    if (typeof s.stack === 'string') span.stack = s.stack;
    out.push(span);
  }
  return out;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A reconcile span read as a record (its calls arrive as spans of their own); undefined for any other span. */
export function reconcileOf(span: FlatSpan): ReconcileRecord | undefined {
  if (span.name !== 'Reconcile') return undefined;
  const a = span.attributes;
  const controller = text(a['controller']);
  if (!controller) return undefined;
  const trigger: TriggerInfo = {
    reason: text(a['tsop.trigger.reason']) ?? 'unknown',
    folded: typeof a['tsop.trigger.folded'] === 'number' ? a['tsop.trigger.folded'] : 0,
    phrase: text(a['tsop.trigger']) ?? '',
  };
  for (const [key, attr] of [
    ['watch', 'tsop.trigger.watch'],
    ['kind', 'tsop.trigger.kind'],
    ['event', 'tsop.trigger.event'],
    ['object', 'tsop.trigger.object'],
  ] as const) {
    const v = text(a[attr]);
    if (v) trigger[key] = v;
  }
  const record: ReconcileRecord = {
    spanId: span.spanId,
    traceId: span.traceId,
    controller,
    object: text(a['objectKey']) ?? text(a['name']) ?? '',
    reconcileID: text(a['reconcileID']) ?? '',
    trigger,
    result: text(a['tsop.result']) ?? (span.error ? 'error' : 'success'),
    startMs: span.startMs,
    durationMs: Math.max(0, span.endMs - span.startMs),
    calls: [],
  };
  if (typeof a['tsop.requeue_after_ms'] === 'number') record.requeueAfterMs = a['tsop.requeue_after_ms'];
  if (span.error) record.error = span.error;
  if (span.stack) record.stack = span.stack;
  return record;
}

/** A client span (one API call) read as a call; undefined for any other span. */
export function callOf(span: FlatSpan): ApiCall | undefined {
  const a = span.attributes;
  const method = text(a['http.request.method']);
  if (!method) return undefined;
  const call: ApiCall = {
    spanId: span.spanId,
    name: span.name,
    method,
    path: text(a['url.path']) ?? '',
    startMs: span.startMs,
    durationMs: Math.max(0, span.endMs - span.startMs),
  };
  const key = text(a['objectKey']);
  if (key) call.objectKey = key;
  const resource = text(a['objectResource']);
  if (resource) call.resource = resource;
  if (typeof a['http.response.status_code'] === 'number') call.status = a['http.response.status_code'];
  if (span.error) call.error = span.error;
  return call;
}

/** The kind's short name from 'apps/v1/Deployment' or 'cache.example.com/v1alpha1/Memcached'. */
const shortKind = (kind: string): string => kind.split('/').pop() ?? kind;

/** What queued a reconcile, in words: 'Deployment default/web updated (owned)', 'requeue after 5 s', 'manual trigger'. */
export function formatTrigger(t: TriggerInfo): string {
  const fold = t.folded > 0 ? ` (+${t.folded} folded)` : '';
  if (t.manual) return `manual trigger${fold}`;
  if (t.reason === 'event') {
    const verb =
      { add: 'added', update: 'updated', delete: 'deleted', generic: 'event' }[t.event ?? ''] ?? t.event ?? 'event';
    const whose = t.watch === 'owns' ? ' (owned)' : t.watch === 'watches' ? ' (watched)' : '';
    return `${shortKind(t.kind ?? '?')}${t.object ? ` ${t.object}` : ''} ${verb}${whose}${fold}`;
  }
  if (t.reason === 'requeueAfter' || t.reason === 'backoff' || t.reason === 'requeue') {
    const name = { requeueAfter: 'requeue after', backoff: 'backoff after error', requeue: 'requeue' }[t.reason];
    const delay = /(\d+)ms/.exec(t.phrase)?.[1];
    return `${name}${delay !== undefined ? ` ${formatMs(Number(delay))}` : ''}${fold}`;
  }
  if (t.reason === 'direct') return `queued by the controller's code${fold}`;
  return t.phrase || t.reason;
}

/** 1200 → '1.2 s', 45 → '45 ms'. */
export function formatMs(n: number): string {
  if (n < 1000) return `${Math.round(n)} ms`;
  if (n < 60_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} s`;
  return `${(n / 60_000).toFixed(1)} min`;
}
