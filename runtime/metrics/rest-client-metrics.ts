/**
 * rest_client_requests_total{code,method,host}: client-go's request counter, which
 * controller-runtime re-registers. This is the implementation of the client module's
 * `RequestMetrics` hook; the client calls `observe` once per HTTP response (or failure, with
 * code '<error>' as client-go does).
 */

import { Counter, type Registry } from 'prom-client';

export class RestClientMetrics {
  readonly requests: Counter<'code' | 'method' | 'host'>;

  constructor(reg: Registry) {
    this.requests = new Counter({
      name: 'rest_client_requests_total',
      help: 'HTTP requests to the API server, by status code, method and host',
      labelNames: ['code', 'method', 'host'] as const,
      registers: [reg],
    });
  }

  observe(code: string, method: string, host: string): void {
    this.requests.inc({ code, method: method.toUpperCase(), host });
  }
}
