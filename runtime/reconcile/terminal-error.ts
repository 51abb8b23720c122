/**
 * TerminalError: a reconcile failure that retrying cannot fix (invalid spec, missing permission
 * the user must grant). The controller logs and counts it but does not requeue the key; the
 * next watch event for the object triggers a fresh reconcile.
 */

export class TerminalError extends Error {
  override readonly name = 'TerminalError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** True for a TerminalError, or an error whose `cause` chain contains one. */
export function isTerminalError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}
