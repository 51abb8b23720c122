/**
 * Time for the elector. Expiry and deadlines run on the runtime's monotonic, injectable Clock
 * (queue/), so a wall-clock step (NTP) can neither expire a live lease nor keep a dead one;
 * wall time is used only for the timestamps written into the Lease.
 */
import type { Clock } from '../queue/index.js';

export { realClock, type Clock } from '../queue/index.js';

/** Resolves after `ms` on `clock`, or early (without throwing) when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}
