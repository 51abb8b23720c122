/**
 * Errors a user can fix. The CLI prints `message` as one line (no stack) and exits 1; everything
 * else is a bug and keeps its stack.
 */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  constructor(message: string) {
    super(message);
  }
}

/**
 * The command cannot run here at all (e.g. `manifests --check` outside a project): exit 2, as a
 * usage error, so a CI step can never read it as a pass (0) or as a problem found (1).
 */
export class UsageError extends UserError {
  override readonly name = 'UsageError';
}

/** A problem located in user source, reported as `file:line: message`. */
export class SourceError extends UserError {
  override readonly name = 'SourceError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
  }
}

/** Several user errors found in one pass; reported together, one per line. */
export class UserErrors extends UserError {
  override readonly name = 'UserErrors';
  constructor(readonly errors: readonly UserError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }
}
