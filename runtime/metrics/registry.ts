/**
 * The Prometheus registry the runtime reports into. Like controller-runtime's `metrics.Registry`
 * there is one process-wide default that operator authors add their own metrics to; the
 * runtime's metric families are created once per registry, so several managers in one process
 * (tests) share them instead of failing on duplicate registration.
 */

import { Registry } from './prom.js';
import { ControllerMetrics } from './controller-metrics.js';
import { EventMetrics } from './event-metrics.js';
import { LeaderElectionMetrics } from './leader-election-metrics.js';
import { RestClientMetrics } from './rest-client-metrics.js';
import { WorkqueueMetricsProvider } from './workqueue-metrics.js';

/** The process-wide default registry served on /metrics. */
export const registry = new Registry();

/** Every metric family the runtime exports, bound to one registry. */
export interface RuntimeMetrics {
  readonly registry: Registry;
  readonly controller: ControllerMetrics;
  readonly workqueue: WorkqueueMetricsProvider;
  readonly restClient: RestClientMetrics;
  readonly leaderElection: LeaderElectionMetrics;
  readonly events: EventMetrics;
}

const byRegistry = new WeakMap<Registry, RuntimeMetrics>();

/** The runtime's metric families on `reg` (default: the process-wide registry), created on first use. */
export function runtimeMetrics(reg: Registry = registry): RuntimeMetrics {
  let m = byRegistry.get(reg);
  if (!m) {
    m = {
      registry: reg,
      controller: new ControllerMetrics(reg),
      workqueue: new WorkqueueMetricsProvider(reg),
      restClient: new RestClientMetrics(reg),
      leaderElection: new LeaderElectionMetrics(reg),
      events: new EventMetrics(reg),
    };
    byRegistry.set(reg, m);
  }
  return m;
}
