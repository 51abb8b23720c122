/**
 * queue: the de-duplicating, rate-limited work queue controllers pull keys from, its rate
 * limiters, the metrics hooks it calls, and the injectable clock it reads time through.
 */
export {
  type WorkQueue,
  type WorkQueueOptions,
  type QueueSnapshot,
  RateLimitingQueue,
  newWorkQueue,
  LOW_PRIORITY,
} from './queue.js';
export {
  type RateLimiter,
  ItemExponentialRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './ratelimiter.js';
export { type QueueMetrics, type UnfinishedWork, noopQueueMetrics } from './metrics.js';
export { type Clock, type TimerHandle, RealClock, FakeClock, realClock, sleep } from './clock.js';
export { Fifo } from './fifo.js';
