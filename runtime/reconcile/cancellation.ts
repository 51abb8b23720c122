/**
 * Cancellation: the reason a manager gives the signal of in-flight reconciles when it ends them
 * on purpose, not because anything in them went wrong — a lost lease. A reconcile that fails
 * once its signal carries one was cut off (its API calls cancelled or refused), so the worker
 * logs it as one info line, "reconcile cancelled: <why>", instead of an error with a stack.
 */

export class Cancellation extends Error {
  /** @param why how the log line names the cause, e.g. 'lost leadership' */
  constructor(
    message: string,
    readonly why: string,
  ) {
    super(message);
  }
}

/** The Cancellation `signal` was aborted with, if any. */
export function cancellationOf(signal: AbortSignal): Cancellation | undefined {
  return signal.aborted && signal.reason instanceof Cancellation ? signal.reason : undefined;
}
