/**
 * OTLP export, on by one variable: when OTEL_EXPORTER_OTLP_ENDPOINT is set, registers an
 * OpenTelemetry SDK that batches the runtime's spans to that endpoint over OTLP/HTTP. A generated
 * project lists the SDK packages in its dependencies (so its image has them); they are loaded with
 * a dynamic import all the same, so a project that removed them runs on with one warning line
 * naming what to install.
 *
 * The endpoint is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces;
 * the exporter reads the other OTEL_EXPORTER_OTLP_* variables (headers, timeout) itself. The
 * spans' resource follows the SDK specification: OTEL_SERVICE_NAME, else service.name from
 * OTEL_RESOURCE_ATTRIBUTES (`key=value,…`, values percent-encoded), else the `serviceName` the
 * operator passes (its project name); OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off.
 */

import { context, trace } from '@opentelemetry/api';
import type { Logger } from '../log/index.js';

/** The packages the OTLP export needs beside @opentelemetry/api. */
export const OTLP_PACKAGES = [
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
] as const;

/** The part of each SDK package used here (typed by hand: the packages are optional). */
interface SdkTraceBase {
  BasicTracerProvider: new (config: { spanProcessors: unknown[]; resource?: unknown }) => { shutdown(): Promise<void> };
  BatchSpanProcessor: new (exporter: unknown) => unknown;
}
interface Resource {
  merge(other: Resource): Resource;
}
interface Resources {
  /** service.name = unknown_service:<process>, and the SDK's telemetry.sdk.* attributes. */
  defaultResource(): Resource;
  resourceFromAttributes(attributes: Record<string, string>): Resource;
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
  /** service.name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one (main.ts passes the project's name). */
  serviceName?: string;
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
  if (
    env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true' ||
    env['OTEL_TRACES_EXPORTER']?.trim().toLowerCase() === 'none'
  )
    return undefined;
  // The spec's rule: the signal's own variable is the full URL; the base one gets /v1/traces.
  const endpoint = traces || `${base!.replace(/\/+$/, '')}/v1/traces`;
  // A variable specifier: TypeScript does not look for the optional packages at compile time.
  const load = opts.load ?? ((specifier: string) => import(specifier) as Promise<unknown>);
  let mods: [SdkTraceBase, ContextAsyncHooks, OtlpHttpExporter, Resources];
  try {
    mods = (await Promise.all(OTLP_PACKAGES.map((p) => load(p)))) as [
      SdkTraceBase,
      ContextAsyncHooks,
      OtlpHttpExporter,
      Resources,
    ];
  } catch {
    opts.log?.warn(
      { endpoint },
      `OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry SDK is not installed; run: npm install ${OTLP_PACKAGES.join(' ')} (tracing stays off)`,
    );
    return undefined;
  }
  const [sdk, hooks, otlp, resources] = mods;
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes(resourceAttributes(env, opts.serviceName)));
  const provider = new sdk.BasicTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url: endpoint }))],
  });
  // The context manager makes the client's calls children of the reconcile that made them.
  context.setGlobalContextManager(
    new hooks.AsyncLocalStorageContextManager().enable() as Parameters<typeof context.setGlobalContextManager>[0],
  );
  trace.setGlobalTracerProvider(provider as unknown as Parameters<typeof trace.setGlobalTracerProvider>[0]);
  opts.log?.info(
    { endpoint, service: resourceAttributes(env, opts.serviceName)['service.name'] },
    'exporting traces over OTLP',
  );
  return {
    async shutdown() {
      try {
        await provider.shutdown();
      } catch (err) {
        // The last batch could not be sent; the process is stopping anyway.
        opts.log?.warn(
          { endpoint, error: err instanceof Error ? err.message : String(err) },
          'could not send the last spans',
        );
      } finally {
        trace.disable();
        context.disable();
      }
    },
  };
}

/**
 * The resource attributes the environment and the operator ask for, in the specification's order
 * of precedence: OTEL_SERVICE_NAME over OTEL_RESOURCE_ATTRIBUTES over `serviceName`. Entries of
 * OTEL_RESOURCE_ATTRIBUTES that do not parse are left out, as the SDKs do.
 */
export function resourceAttributes(env: NodeJS.ProcessEnv, serviceName?: string): Record<string, string> {
  const out: Record<string, string> = serviceName ? { 'service.name': serviceName } : {};
  for (const entry of (env['OTEL_RESOURCE_ATTRIBUTES'] ?? '').split(',')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    try {
      const key = decodeURIComponent(entry.slice(0, eq).trim());
      const value = decodeURIComponent(entry.slice(eq + 1).trim());
      if (key !== '') out[key] = value;
    } catch {
      // A malformed percent-escape: that entry is dropped.
    }
  }
  const name = env['OTEL_SERVICE_NAME']?.trim();
  if (name) out['service.name'] = name;
  return out;
}
