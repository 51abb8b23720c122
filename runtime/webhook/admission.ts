/**
 * Admission: controller-runtime's CustomDefaulter and CustomValidator behind AdmissionReview v1.
 * A defaulter mutates a copy of the object and the answer is the JSON patch of what it changed;
 * a validator is asked about create, update (with the old object) and delete, and its warnings
 * travel back to the client. A thrown ValidationError is answered 422 Invalid with one cause per
 * field; any other error is denied 403 with its message (never its stack).
 */
import type { ClientObject, KubeObject } from '../apimachinery/model.js';
import type { Logger } from '../log/index.js';
import { ValidationError } from './errors.js';
import { createPatch } from './jsonpatch.js';
import {
  admissionReview,
  MalformedReviewError,
  parseAdmissionReview,
  type AdmissionRequest,
  type AdmissionRequestInfo,
  type AdmissionResponse,
  type Status,
} from './review.js';
import type { WebhookHandler, WebhookReply } from './server.js';

export interface AdmissionContext {
  readonly request: AdmissionRequestInfo;
  readonly log: Logger;
  /** Aborted when the API server gives up on the call or the server stops. */
  readonly signal: AbortSignal;
}

/** Zero or more warnings for the client (kubectl prints each as `Warning: …`). */
export type Warnings = string[] | void;

export interface CustomDefaulter<T> {
  /** Fills in defaults by mutating `obj`; the webhook answers the patch of what changed. */
  default(obj: T, ctx: AdmissionContext): void | Promise<void>;
}

export interface CustomValidator<T> {
  validateCreate(obj: T, ctx: AdmissionContext): Warnings | Promise<Warnings>;
  validateUpdate(oldObj: T, newObj: T, ctx: AdmissionContext): Warnings | Promise<Warnings>;
  validateDelete(obj: T, ctx: AdmissionContext): Warnings | Promise<Warnings>;
}

function requestInfo(req: AdmissionRequest): AdmissionRequestInfo {
  const { object: _o, oldObject: _old, ...info } = req;
  return info;
}

function allowed(uid: string, warnings?: Warnings): AdmissionResponse {
  return { uid, allowed: true, status: { code: 200 }, ...(warnings && warnings.length > 0 ? { warnings } : {}) };
}

/** The denial for a thrown error: ValidationError → 422 with causes, anything else → 403. */
export function denial(uid: string, err: unknown): AdmissionResponse {
  if (err instanceof ValidationError) {
    const status: Status = {
      status: 'Failure',
      message: err.message,
      reason: 'Invalid',
      code: 422,
      details: {
        name: err.objectName,
        group: err.group,
        kind: err.kind,
        causes: err.errors.map((e) => ({ reason: 'FieldValueInvalid', message: e.message, field: e.field })),
      },
    };
    return { uid, allowed: false, status, ...(err.warnings.length > 0 ? { warnings: [...err.warnings] } : {}) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { uid, allowed: false, status: { status: 'Failure', message, reason: 'Forbidden', code: 403 } };
}

/** The object a review must carry for its operation (as the type the webhook is registered for); a review without it is malformed (400). */
function required<T extends ClientObject>(obj: KubeObject | null | undefined, what: string, req: AdmissionRequest): T {
  if (!obj) throw new MalformedReviewError(`request.${what} is missing from the ${req.operation} review`);
  // The API server sends objects of the kind the webhook was registered for, which the caller typed as T.
  return obj as unknown as T;
}

/** The AdmissionReview handler of a defaulter (served at /mutate-…). */
export function defaultingHandler<T extends ClientObject = KubeObject>(defaulter: CustomDefaulter<T>): WebhookHandler {
  return async (body, ctx) => {
    const req = parseAdmissionReview(body);
    // Defaults apply to what is being written; deletes and connects pass untouched.
    if ((req.operation !== 'CREATE' && req.operation !== 'UPDATE') || !req.object) return ok(allowed(req.uid));
    const original = req.object;
    const copy = structuredClone(original) as unknown as T;
    try {
      await defaulter.default(copy, { request: requestInfo(req), log: ctx.log, signal: ctx.signal });
    } catch (err) {
      ctx.log.info(
        { uid: req.uid, err: err instanceof Error ? err.message : String(err) },
        'defaulter refused the object',
      );
      return ok(denial(req.uid, err));
    }
    const ops = createPatch(original, copy);
    if (ops.length === 0) return ok(allowed(req.uid));
    return ok({
      ...allowed(req.uid),
      patchType: 'JSONPatch',
      patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
    });
  };
}

/** The AdmissionReview handler of a validator (served at /validate-…). */
export function validatingHandler<T extends ClientObject = KubeObject>(validator: CustomValidator<T>): WebhookHandler {
  return async (body, ctx) => {
    const req = parseAdmissionReview(body);
    const actx: AdmissionContext = { request: requestInfo(req), log: ctx.log, signal: ctx.signal };
    // Checked before the validator runs, so a malformed review is a 400, not a denial.
    const obj =
      req.operation === 'CREATE' || req.operation === 'UPDATE' ? required<T>(req.object, 'object', req) : undefined;
    // On delete the API server sends the object being deleted as oldObject.
    const old =
      req.operation === 'UPDATE' || req.operation === 'DELETE'
        ? required<T>(req.oldObject, 'oldObject', req)
        : undefined;
    try {
      let warnings: Warnings | undefined;
      if (req.operation === 'CREATE' && obj) warnings = await validator.validateCreate(obj, actx);
      else if (req.operation === 'UPDATE' && obj && old) warnings = await validator.validateUpdate(old, obj, actx);
      else if (req.operation === 'DELETE' && old) warnings = await validator.validateDelete(old, actx);
      return ok(allowed(req.uid, warnings));
    } catch (err) {
      return ok(denial(req.uid, err));
    }
  };
}

// The review travels with HTTP 200 even when it denies: the verdict is inside it.
function ok(response: AdmissionResponse): WebhookReply {
  return { status: 200, body: admissionReview(response) };
}
