/**
 * rest_client_requests_total{code,method,host} and rest_client_request_duration_seconds{verb,host}:
 * client-go's request metrics, which controller-runtime re-registers. This is the implementation
 * of the client module's `RequestMetrics` hook; the client calls `observe` and `duration` once
 * per HTTP response (or failure, with code '<error>' as client-go does).
 */

import { Counter, Histogram, type Registry } from './prom.js';

// client-go's buckets for rest_client_request_duration_seconds.
const DURATION_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

export class RestClientMetrics {
  readonly requests: Counter<'code' | 'method' | 'host'>;
  readonly requestDuration: Histogram<'verb' | 'host'>;

  constructor(reg: Registry) {
    this.requests = new Counter({
      name: 'rest_client_requests_total',
      help: 'HTTP requests to the API server, by status code, method and host',
      labelNames: ['code', 'method', 'host'] as const,
      registers: [reg],
    });
    this.requestDuration = new Histogram({
      name: 'rest_client_request_duration_seconds',
      help: 'HTTP request latency to the API server, by verb and host',
      labelNames: ['verb', 'host'] as const,
      buckets: DURATION_BUCKETS,
      registers: [reg],
    });
  }

  duration(seconds: number, method: string, host: string): void {
    this.requestDuration.observe({ verb: method.toUpperCase(), host }, seconds);
  }

  observe(code: string, method: string, host: string): void {
    this.requests.inc({ code, method: method.toUpperCase(), host });
  }
}
