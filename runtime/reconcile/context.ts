/**
 * ReconcileContext: what each reconcile call gets besides its Request — a logger already
 * carrying controller, namespace, name and reconcileID, and an AbortSignal that fires when the
 * manager shuts down (pass it to long waits; in-flight API calls are allowed to finish).
 */

import type { Logger } from '../log/index.js';

export interface ReconcileContext {
  /** Child logger with `controller`, `namespace`, `name` and `reconcileID` bound. */
  readonly log: Logger;
  /** Aborted when the controller is stopping. */
  readonly signal: AbortSignal;
  /** A fresh UUID per reconcile call, also on every log line. */
  readonly reconcileID: string;
  /** Name of the controller running this reconcile. */
  readonly controller: string;
}
