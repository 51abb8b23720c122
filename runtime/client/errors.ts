/**
 * Typed errors for API responses.
 *
 * The API server answers failures with a `Status` object (code, reason, message, details).
 * Each well-known reason gets its own class so reconcilers can branch with `instanceof` or the
 * `isX` helpers; anything else is a plain ApiError carrying the same data.
 */

/** One field-level cause of a failure (e.g. a 422 validation error). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The metav1.Status body of a failed request (the fields this runtime reads). */
export interface Status {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** Base class: any non-2xx answer from the API server. */
export class ApiError extends Error {
  readonly statusCode: number;
  /** The machine-readable reason, e.g. `NotFound`, `Conflict`, `Invalid`; '' when unknown. */
  readonly reason: string;
  readonly details: StatusDetails | undefined;
  readonly method: string;
  readonly path: string;

  constructor(statusCode: number, status: Status, request: { method: string; path: string }) {
    super(status.message || `${request.method} ${request.path}: HTTP ${statusCode}`);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.reason = status.reason ?? '';
    this.details = status.details;
    this.method = request.method;
    this.path = request.path;
  }
}

export class BadRequestError extends ApiError {}
export class UnauthorizedError extends ApiError {}
export class ForbiddenError extends ApiError {}
export class NotFoundError extends ApiError {}
export class MethodNotAllowedError extends ApiError {}
/** 409 with reason Conflict: the object changed since it was read (stale resourceVersion). */
export class ConflictError extends ApiError {}
/** 409 with reason AlreadyExists: create of a name that is taken. */
export class AlreadyExistsError extends ApiError {}
/** 410: the requested resourceVersion is too old (expired). */
export class GoneError extends ApiError {}
/** 422: validation failed; `causes` lists each offending field. */
export class InvalidError extends ApiError {
  get causes(): StatusCause[] {
    return this.details?.causes ?? [];
  }
}
export class TooManyRequestsError extends ApiError {}
export class InternalError extends ApiError {}
export class ServiceUnavailableError extends ApiError {}
export class TimeoutError extends ApiError {}

type ApiErrorClass = new (code: number, status: Status, req: { method: string; path: string }) => ApiError;

// Reason first (it is more specific than the code: 409 may be Conflict or AlreadyExists).
const BY_REASON: Record<string, ApiErrorClass> = {
  NotFound: NotFoundError,
  AlreadyExists: AlreadyExistsError,
  Conflict: ConflictError,
  Invalid: InvalidError,
  Forbidden: ForbiddenError,
  Unauthorized: UnauthorizedError,
  Gone: GoneError,
  Expired: GoneError,
  BadRequest: BadRequestError,
  MethodNotAllowed: MethodNotAllowedError,
  TooManyRequests: TooManyRequestsError,
  InternalError: InternalError,
  ServiceUnavailable: ServiceUnavailableError,
  Timeout: TimeoutError,
  ServerTimeout: TimeoutError,
};

const BY_CODE: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  410: GoneError,
  422: InvalidError,
  429: TooManyRequestsError,
  500: InternalError,
  503: ServiceUnavailableError,
  504: TimeoutError,
};

/** Parses a response body as a Status when it is one; otherwise keeps the text as message. */
export function parseStatus(body: string): Status {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && (parsed as Status).kind === 'Status') return parsed as Status;
  } catch {
    // not JSON: fall through
  }
  const text = body.trim();
  return text ? { message: text.slice(0, 1024) } : {};
}

/** Builds the most specific error class for an HTTP failure. */
export function errorFromResponse(statusCode: number, body: string, req: { method: string; path: string }): ApiError {
  const status = parseStatus(body);
  const cls = (status.reason && BY_REASON[status.reason]) || BY_CODE[statusCode] || ApiError;
  return new cls(statusCode, status, req);
}

export const isNotFound = (err: unknown): err is NotFoundError => err instanceof NotFoundError;
export const isConflict = (err: unknown): err is ConflictError => err instanceof ConflictError;
export const isAlreadyExists = (err: unknown): err is AlreadyExistsError => err instanceof AlreadyExistsError;
export const isInvalid = (err: unknown): err is InvalidError => err instanceof InvalidError;
export const isForbidden = (err: unknown): err is ForbiddenError => err instanceof ForbiddenError;
export const isGone = (err: unknown): err is GoneError => err instanceof GoneError;

/** Returns undefined for a NotFoundError and rethrows anything else (Go's client.IgnoreNotFound). */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}
