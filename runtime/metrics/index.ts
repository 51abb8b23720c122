/**
 * metrics: the Prometheus registry served on /metrics, with controller-runtime's and client-go's
 * metric names, plus the implementations of the queue's and the client's metrics hooks.
 */

export { registry, runtimeMetrics } from './registry.js';
export type { RuntimeMetrics } from './registry.js';
export { ControllerMetrics } from './controller-metrics.js';
export type { ControllerMetricsRecorder } from './controller-metrics.js';
export { WorkqueueMetricsProvider } from './workqueue-metrics.js';
export { RestClientMetrics } from './rest-client-metrics.js';
export { LeaderElectionMetrics } from './leader-election-metrics.js';
