/**
 * ReconcileContext: what each reconcile call gets besides its Request — a logger already
 * carrying controller, namespace, name and reconcileID, and an AbortSignal (Go's ctx) that fires
 * when the manager shuts down or the reconciliationTimeout passes. Pass it to every client call
 * (`{ signal: ctx.signal }`) and long wait, so a hung call cannot hold a worker forever.
 * `trigger` says why this reconcile ran — for logs and debugging only: a reconciler must still
 * read the current state and act on it, whatever the trigger (level-triggered).
 */

import type { Logger } from '../log/index.js';
import type { Trigger } from './trigger.js';

export interface ReconcileContext {
  /** Child logger with `controller`, `namespace`, `name`, `reconcileID` and `trigger` bound. */
  readonly log: Logger;
  /**
   * Aborted when the controller is stopping, the reconcile's timeout passes (reason: a
   * TimeoutError), or the lease this replica reconciles under (leader or shard) may be another's.
   * Reading `aborted` or calling `throwIfAborted()` checks the lease's deadline on the spot, so a
   * reconcile resuming after a blocked event loop finds it aborted before its next side effect.
   */
  readonly signal: AbortSignal;
  /** A fresh UUID per reconcile call, also on every log line. */
  readonly reconcileID: string;
  /** Name of the controller running this reconcile. */
  readonly controller: string;
  /**
   * What queued this run: a watch event (`reason: 'event'`, with the watch — for, owns, watches,
   * source —, its kind, the event type and the object) or a requeue (requeueAfter, backoff,
   * requeue), and `folded`: how many more events joined the queued item while it waited.
   * The controller always sets it; it is optional so contexts built by hand in tests stay valid.
   */
  readonly trigger?: Trigger;
}
