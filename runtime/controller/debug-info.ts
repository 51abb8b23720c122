/**
 * What a controller tells about itself when its manager serves /debug/controllers (manager/debug.ts):
 * its queue, and its last results with what triggered them. Declared with the controller, which
 * records them, so the manager's endpoint depends on the controller and not the other way round.
 */

import type { QueueSnapshot } from '../queue/index.js';
import type { Trigger } from '../reconcile/index.js';

/** One finished reconcile as the endpoint shows it. */
export interface DebugResult {
  key: string;
  reconcileID: string;
  trigger: Trigger;
  result: string;
  /** ISO time it finished. */
  finishedAt: string;
  durationMs: number;
  requeueAfterMs?: number;
  error?: string;
}

/** What /debug/controllers shows for one controller. */
export interface ControllerDebugInfo {
  name: string;
  workers: number;
  queue: QueueSnapshot;
  /** Newest first. */
  lastResults: DebugResult[];
}
