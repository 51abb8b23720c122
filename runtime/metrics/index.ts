/**
 * metrics: the Prometheus registry served on /metrics, with controller-runtime's and client-go's
 * metric names, the implementations of the queue's and the client's metrics hooks, and the
 * filters that guard the endpoint (authentication and authorization through the API server).
 */

export { registry, runtimeMetrics } from './registry.js';
export type { RuntimeMetrics } from './registry.js';
export { ControllerMetrics } from './controller-metrics.js';
export type { ControllerMetricsRecorder } from './controller-metrics.js';
export { WorkqueueMetricsProvider } from './workqueue-metrics.js';
export { RestClientMetrics } from './rest-client-metrics.js';
export { LeaderElectionMetrics } from './leader-election-metrics.js';
export { EventMetrics, type EventDropReason } from './event-metrics.js';
export {
  withAuthenticationAndAuthorization,
  authenticationAndAuthorization,
  bearerToken,
  DEFAULT_AUTH_FILTER_OPTIONS,
  type AuthFilterOptions,
  type FilterContext,
  type FilterProvider,
  type FilterResponse,
  type MetricsFilter,
  type UserInfo,
} from './filters.js';
export { TtlCache } from './ttl-cache.js';
