/**
 * Reconnect backoff for watches: 0.8 s doubling to 30 s, with up to 25 % jitter so that many
 * informers reconnecting after an API server restart do not arrive in lock-step.
 */

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** fraction of the delay added at random (0 = none) */
  jitter: number;
}

export const watchBackoff: BackoffPolicy = { initialMs: 800, maxMs: 30_000, jitter: 0.25 };

/** Delay before attempt number `failures` + 1; `rand` in [0, 1). 0 when nothing failed yet. */
export function backoffDelay(failures: number, rand: number, policy: BackoffPolicy = watchBackoff): number {
  if (failures <= 0) return 0;
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(failures - 1, 30));
  return Math.min(policy.maxMs, base * (1 + policy.jitter * rand));
}
