/**
 * Reconciler: the one method an operator author writes — bring the world in line with the
 * object named by the request. A thrown error is retried with backoff; a TerminalError is not.
 */

import type { ReconcileContext } from './context.js';
import type { Request } from './request.js';
import type { Result } from './result.js';

export interface Reconciler {
  reconcile(req: Request, ctx: ReconcileContext): Promise<Result>;
}

/** A plain async function standing in for a Reconciler. */
export type ReconcileFunc = (req: Request, ctx: ReconcileContext) => Promise<Result>;

/** Adapts a function into a Reconciler. */
export function reconcilerFunc(fn: ReconcileFunc): Reconciler {
  return { reconcile: fn };
}
