/**
 * ReconcileContext: what each reconcile call gets besides its Request — a logger already
 * carrying controller, namespace, name and reconcileID, and an AbortSignal (Go's ctx) that fires
 * when the manager shuts down or the reconciliationTimeout passes. Pass it to every client call
 * (`{ signal: ctx.signal }`) and long wait, so a hung call cannot hold a worker forever.
 */

import type { Logger } from '../log/index.js';

export interface ReconcileContext {
  /** Child logger with `controller`, `namespace`, `name` and `reconcileID` bound. */
  readonly log: Logger;
  /** Aborted when the controller is stopping or the reconcile's timeout passes (reason: a TimeoutError). */
  readonly signal: AbortSignal;
  /** A fresh UUID per reconcile call, also on every log line. */
  readonly reconcileID: string;
  /** Name of the controller running this reconcile. */
  readonly controller: string;
}
