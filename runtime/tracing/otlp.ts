/**
 * OTLP export, opt-in: when OTEL_EXPORTER_OTLP_ENDPOINT is set, registers an OpenTelemetry SDK
 * that batches the runtime's spans to that endpoint over OTLP/HTTP. The SDK packages are loaded
 * with a dynamic import, so a project that never traces does not need them installed; one that
 * sets the variable without them gets one warning line naming what to install, and runs on.
 *
 *   npm install @opentelemetry/sdk-trace-base @opentelemetry/context-async-hooks @opentelemetry/exporter-trace-otlp-http
 *
 * The endpoint is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces;
 * the exporter reads the other OTEL_EXPORTER_OTLP_* variables (headers, timeout) itself.
 */

import { context, trace } from '@opentelemetry/api';
import type { Logger } from '../log/index.js';

/** The packages the OTLP export needs beside @opentelemetry/api. */
export const OTLP_PACKAGES = ['@opentelemetry/sdk-trace-base', '@opentelemetry/context-async-hooks', '@opentelemetry/exporter-trace-otlp-http'] as const;

/** The part of each SDK package used here (typed by hand: the packages are optional). */
interface SdkTraceBase {
  BasicTracerProvider: new (config: { spanProcessors: unknown[]; resource?: unknown }) => { shutdown(): Promise<void> };
  BatchSpanProcessor: new (exporter: unknown) => unknown;
}
interface ContextAsyncHooks {
  AsyncLocalStorageContextManager: new () => { enable(): unknown };
}
interface OtlpHttpExporter {
  OTLPTraceExporter: new (config: { url: string }) => unknown;
}

export interface OtlpTracingOptions {
  /** Where warnings go; the manager's logger. */
  log?: Logger;
  /** The environment to read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Imports a package by name (default: `import()` from this module, i.e. the project's node_modules). */
  load?: (specifier: string) => Promise<unknown>;
}

/** A running OTLP export; `shutdown` flushes spans still in its batch. */
export interface OtlpTracing {
  shutdown(): Promise<void>;
}

/** Starts OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) is set; undefined otherwise. */
export async function startOtlpTracing(opts: OtlpTracingOptions = {}): Promise<OtlpTracing | undefined> {
  const env = opts.env ?? process.env;
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (!traces && !base) return undefined;
  // The spec's rule: the signal's own variable is the full URL; the base one gets /v1/traces.
  const endpoint = traces || `${base!.replace(/\/+$/, '')}/v1/traces`;
  // A variable specifier: TypeScript does not look for the optional packages at compile time.
  const load = opts.load ?? ((specifier: string) => import(specifier) as Promise<unknown>);
  let mods: [SdkTraceBase, ContextAsyncHooks, OtlpHttpExporter];
  try {
    mods = (await Promise.all(OTLP_PACKAGES.map((p) => load(p)))) as [SdkTraceBase, ContextAsyncHooks, OtlpHttpExporter];
  } catch {
    opts.log?.warn(
      { endpoint },
      `OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry SDK is not installed; run: npm install ${OTLP_PACKAGES.join(' ')} (tracing stays off)`,
    );
    return undefined;
  }
  const [sdk, hooks, otlp] = mods;
  const provider = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url: endpoint }))] });
  // The context manager makes the client's calls children of the reconcile that made them.
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable() as Parameters<typeof context.setGlobalContextManager>[0]);
  trace.setGlobalTracerProvider(provider as unknown as Parameters<typeof trace.setGlobalTracerProvider>[0]);
  opts.log?.info({ endpoint }, 'exporting traces over OTLP');
  return {
    async shutdown() {
      try {
        await provider.shutdown();
      } catch (err) {
        // The last batch could not be sent; the process is stopping anyway.
        opts.log?.warn({ endpoint, error: err instanceof Error ? err.message : String(err) }, 'could not send the last spans');
      } finally {
        trace.disable();
        context.disable();
      }
    },
  };
}
