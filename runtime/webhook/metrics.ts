/**
 * controller-runtime's webhook metrics, per webhook path: requests by HTTP code, latency, and
 * requests in flight. Created once per registry, like the rest of the runtime's metrics.
 */
import { Counter, Gauge, Histogram, type Registry } from '../metrics/prom.js';

export class WebhookMetrics {
  readonly requests: Counter<'webhook' | 'code'>;
  readonly latency: Histogram<'webhook'>;
  readonly inFlight: Gauge<'webhook'>;

  private constructor(reg: Registry) {
    this.requests = new Counter({
      name: 'controller_runtime_webhook_requests_total',
      help: 'Webhook requests answered, by webhook path and HTTP status code',
      labelNames: ['webhook', 'code'] as const,
      registers: [reg],
    });
    this.latency = new Histogram({
      name: 'controller_runtime_webhook_latency_seconds',
      help: 'Time from reading a webhook request to answering it, by webhook path',
      labelNames: ['webhook'] as const,
      registers: [reg],
    });
    this.inFlight = new Gauge({
      name: 'controller_runtime_webhook_requests_in_flight',
      help: 'Webhook requests being answered right now, by webhook path',
      labelNames: ['webhook'] as const,
      registers: [reg],
    });
  }

  private static readonly byRegistry = new WeakMap<Registry, WebhookMetrics>();

  static of(reg: Registry): WebhookMetrics {
    let m = WebhookMetrics.byRegistry.get(reg);
    if (!m) {
      m = new WebhookMetrics(reg);
      WebhookMetrics.byRegistry.set(reg, m);
    }
    return m;
  }
}
