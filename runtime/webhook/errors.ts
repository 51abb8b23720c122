/**
 * Denials a validator or defaulter throws. ValidationError is apimachinery's NewInvalid: the
 * webhook answers allowed=false, reason Invalid, code 422, one cause per field, and a message
 * shaped like the API server's own (`Kind.group "name" is invalid: spec.size: Invalid value: 11:
 * must be at most 10`). Anything else thrown is denied with code 403 and its message only.
 */

/** One invalid field: a dotted path (`spec.containers[0].image`), what is wrong, and the value. */
export class FieldError {
  constructor(
    readonly field: string,
    readonly detail: string,
    readonly value?: unknown,
  ) {}

  /** `Invalid value: 11: must be at most 10`, or just the detail when no value was given. */
  get message(): string {
    return this.value === undefined ? this.detail : `Invalid value: ${formatValue(this.value)}: ${this.detail}`;
  }

  toString(): string {
    return `${this.field}: ${this.message}`;
  }
}

function formatValue(v: unknown): string {
  return typeof v === 'string'
    ? JSON.stringify(v)
    : typeof v === 'object' && v !== null
      ? JSON.stringify(v)
      : String(v);
}

/** A group and kind, or the kind alone (core group). */
export type GroupKindRef = string | { group: string; kind: string };

/** The object is invalid: answered as the API server answers an invalid object (422). */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly group: string;
  readonly kind: string;

  constructor(
    kind: GroupKindRef,
    readonly objectName: string,
    readonly errors: readonly FieldError[],
    readonly warnings: readonly string[] = [],
  ) {
    const gk = typeof kind === 'string' ? { group: '', kind } : kind;
    const qualified = gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
    const causes = errors.map(String);
    const list = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
    super(`${qualified} "${objectName}" is invalid: ${list ?? 'no field errors given'}`);
    this.group = gk.group;
    this.kind = gk.kind;
  }
}
