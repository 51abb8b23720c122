/**
 * The four prom-client classes the runtime uses, required from their own files. The package's
 * index also loads the Pushgateway client (node:http, node:https), the cluster aggregator,
 * summaries (tdigest) and the default process metrics: about 22 ms of every operator's start-up,
 * for nothing the runtime uses. They are the very classes the index exports (Node loads each file
 * once), so metrics made with `import { Counter } from 'prom-client'` still go in the same registry.
 */
import { createRequire } from 'node:module';
import type * as prom from 'prom-client';

const require = createRequire(import.meta.url);

export const Registry = require('prom-client/lib/registry') as typeof prom.Registry;
export const Counter = require('prom-client/lib/counter') as typeof prom.Counter;
export const Gauge = require('prom-client/lib/gauge') as typeof prom.Gauge;
export const Histogram = require('prom-client/lib/histogram') as typeof prom.Histogram;
export type Registry = prom.Registry;
export type Counter<T extends string = string> = prom.Counter<T>;
export type Gauge<T extends string = string> = prom.Gauge<T>;
export type Histogram<T extends string = string> = prom.Histogram<T>;
