/**
 * The runtime's spans for `tsop dev`'s console, and only there: when TSOP_DEV_CONSOLE_URL names a
 * loopback URL (only `tsop dev` sets it) and no OpenTelemetry SDK is registered, the manager makes
 * this small tracer the global one (manager/dev-console.ts). Every span the runtime or the reconciler starts through
 * `@opentelemetry/api` — one per reconcile, one per API call — is kept as a plain record and
 * posted every 100 ms to <url>/dev/spans. The SDK's batch processor and OTLP export did the same at
 * several times the cost per span, on the operator's own event loop, and needed the SDK packages
 * installed. Unset, as in a deployed operator, nothing is registered.
 *
 * Parents follow the active context (AsyncLocalStorage, as the SDK's context manager does), so the
 * API calls a reconcile makes are its children.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  context as contextApi,
  ROOT_CONTEXT,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Context,
  type ContextManager,
  type Exception,
  type Span,
  type SpanAttributes,
  type SpanAttributeValue,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

/** How often ended spans are sent: a reconcile is on the console's screen well within a second. */
const FLUSH_MS = 100;
/** Spans waiting past this are dropped (a console that is gone, or far behind): memory stays bounded. */
const MAX_PENDING = 20_000;

/** One ended span as the console reads it (src/dev/console/spans.ts, FlatSpan). */
export interface DevSpanRecord {
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

/** The context manager the SDK's Node packages provide, on AsyncLocalStorage. */
class LocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.apply(thisArg, args));
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.with(ctx, fn, undefined, ...args)) as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** Ids unique in this process, in the formats W3C trace context requires (hex, not all zero). */
class Ids {
  private readonly prefix = randomBytes(8).toString('hex');
  private next = 1;

  spanId(): string {
    return (this.next++).toString(16).padStart(16, '0');
  }

  traceId(): string {
    return this.prefix + this.spanId();
  }
}

function msOf(time: TimeInput | undefined): number {
  if (time === undefined) return performance.timeOrigin + performance.now();
  if (typeof time === 'number') return time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

class DevSpan implements Span {
  private readonly record: DevSpanRecord;
  private ended = false;

  constructor(
    private readonly ctx: SpanContext,
    name: string,
    parentSpanId: string | undefined,
    options: SpanOptions,
    private readonly sink: (r: DevSpanRecord) => void,
  ) {
    this.record = {
      traceId: ctx.traceId,
      spanId: ctx.spanId,
      ...(parentSpanId ? { parentSpanId } : {}),
      name,
      startMs: msOf(options.startTime),
      endMs: 0,
      attributes: {},
    };
    if (options.attributes) this.setAttributes(options.attributes);
  }

  spanContext(): SpanContext {
    return this.ctx;
  }

  setAttribute(key: string, value: SpanAttributeValue): this {
    // The console shows scalars; an array attribute is shown as its items joined.
    if (!this.ended && value !== undefined && value !== null)
      this.record.attributes[key] = Array.isArray(value) ? value.join(',') : value;
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    for (const [k, v] of Object.entries(attributes)) if (v !== undefined) this.setAttribute(k, v);
    return this;
  }

  addEvent(): this {
    return this;
  }

  addLink(): this {
    return this;
  }

  addLinks(): this {
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (!this.ended && status.code === SpanStatusCode.ERROR) this.record.error = status.message ?? 'error';
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.record.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.record.endMs = msOf(endTime);
    this.sink(this.record);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception): void {
    if (this.ended) return;
    if (typeof exception === 'string') {
      this.record.error ??= exception;
      return;
    }
    const message = exception.message ?? exception.name ?? String(exception.code ?? 'error');
    this.record.error ??= message;
    if (exception.stack) this.record.stack = exception.stack;
  }
}

class DevTracer implements Tracer {
  constructor(
    private readonly ids: Ids,
    private readonly sink: (r: DevSpanRecord) => void,
  ) {}

  startSpan(name: string, options: SpanOptions = {}, ctx: Context = contextApi.active()): Span {
    const parent = options.root ? undefined : trace.getSpanContext(ctx);
    const traceId = parent && trace.isSpanContextValid(parent) ? parent.traceId : this.ids.traceId();
    const spanContext: SpanContext = { traceId, spanId: this.ids.spanId(), traceFlags: TraceFlags.SAMPLED };
    return new DevSpan(spanContext, name, parent?.spanId, options, this.sink);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    ctx: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    a?: SpanOptions | F,
    b?: Context | F,
    c?: F,
  ): ReturnType<F> {
    const fn = (c ?? (typeof b === 'function' ? b : a)) as F;
    const options = typeof a === 'object' ? a : {};
    const parent = typeof b === 'object' ? b : contextApi.active();
    const span = this.startSpan(name, options, parent);
    return contextApi.with(trace.setSpan(parent, span), () => fn(span)) as ReturnType<F>;
  }
}

/** Sends ended spans to the console in batches. */
class DevSpanExporter {
  private pending: DevSpanRecord[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly send: (body: string) => void) {}

  readonly add = (record: DevSpanRecord): void => {
    if (this.pending.length >= MAX_PENDING) return;
    this.pending.push(record);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), FLUSH_MS);
    // A batch never keeps the process alive.
    this.timer.unref();
  };

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const spans = this.pending;
    this.pending = [];
    this.send(JSON.stringify({ spans }));
  }
}

/** The registered dev tracing; `shutdown` sends what is waiting and unregisters it. */
export interface DevConsoleTracing {
  shutdown(): void;
}

/**
 * Registers the dev console's tracer, whose batches go to `send` (the manager posts them to
 * <console>/dev/spans), unless an SDK is registered already (a project's own export wins):
 * undefined then.
 */
export function startDevConsoleTracing(send: (body: string) => void): DevConsoleTracing | undefined {
  const exporter = new DevSpanExporter(send);
  const tracer = new DevTracer(new Ids(), exporter.add);
  const provider: TracerProvider = { getTracer: () => tracer };
  // Each returns false when something is registered already: then this one stays out entirely.
  if (!trace.setGlobalTracerProvider(provider)) return undefined;
  if (!contextApi.setGlobalContextManager(new LocalContextManager())) {
    trace.disable();
    return undefined;
  }
  return {
    shutdown() {
      exporter.flush();
      trace.disable();
      contextApi.disable();
    },
  };
}
