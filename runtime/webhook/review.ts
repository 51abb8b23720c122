/**
 * The wire shapes of admission.k8s.io/v1 AdmissionReview and apiextensions.k8s.io/v1
 * ConversionReview, and the checks that turn a request body into one (a malformed review is a
 * MalformedReviewError, answered 400).
 */
import type { KubeObject } from '../apimachinery/model.js';

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** The admission request fields a defaulter or validator reads (AdmissionRequest minus the objects). */
export interface AdmissionRequestInfo {
  readonly uid: string;
  readonly operation: Operation;
  readonly kind: { group: string; version: string; kind: string };
  readonly resource: { group: string; version: string; resource: string };
  readonly subResource?: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly userInfo: UserInfo;
  readonly dryRun: boolean;
}

export interface AdmissionRequest extends AdmissionRequestInfo {
  readonly object?: KubeObject | null;
  readonly oldObject?: KubeObject | null;
}

/** metav1.Status as a webhook answers it. */
export interface Status {
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason: string; message: string; field: string }[];
  };
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
}

export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}

export interface ConversionResponse {
  uid: string;
  convertedObjects: KubeObject[];
  result: Status;
}

/** The request body is not a review this endpoint can answer. */
export class MalformedReviewError extends Error {
  override readonly name = 'MalformedReviewError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const OPERATIONS = new Set<string>(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/** Checks an AdmissionReview v1 body and returns its request; throws MalformedReviewError. */
export function parseAdmissionReview(body: unknown): AdmissionRequest {
  if (!isRecord(body)) throw new MalformedReviewError('the body is not a JSON object');
  if (body['apiVersion'] !== 'admission.k8s.io/v1' || body['kind'] !== 'AdmissionReview') {
    throw new MalformedReviewError(
      `expected an admission.k8s.io/v1 AdmissionReview, got apiVersion ${JSON.stringify(body['apiVersion'])} kind ${JSON.stringify(body['kind'])}`,
    );
  }
  const req = body['request'];
  if (!isRecord(req)) throw new MalformedReviewError('the AdmissionReview has no request');
  if (typeof req['uid'] !== 'string' || req['uid'] === '') throw new MalformedReviewError('request.uid is missing');
  if (typeof req['operation'] !== 'string' || !OPERATIONS.has(req['operation'])) {
    throw new MalformedReviewError(
      `request.operation ${JSON.stringify(req['operation'])} is not CREATE, UPDATE, DELETE or CONNECT`,
    );
  }
  for (const field of ['object', 'oldObject'] as const) {
    if (req[field] !== undefined && req[field] !== null && !isRecord(req[field]))
      throw new MalformedReviewError(`request.${field} is not an object`);
  }
  return {
    ...(req as unknown as AdmissionRequest),
    kind: isRecord(req['kind'])
      ? (req['kind'] as unknown as AdmissionRequest['kind'])
      : { group: '', version: '', kind: '' },
    resource: isRecord(req['resource'])
      ? (req['resource'] as unknown as AdmissionRequest['resource'])
      : { group: '', version: '', resource: '' },
    userInfo: isRecord(req['userInfo']) ? (req['userInfo'] as UserInfo) : {},
    dryRun: req['dryRun'] === true,
  };
}

/** Checks a ConversionReview v1 body and returns its request; throws MalformedReviewError. */
export function parseConversionReview(body: unknown): ConversionRequest {
  if (!isRecord(body)) throw new MalformedReviewError('the body is not a JSON object');
  if (body['apiVersion'] !== 'apiextensions.k8s.io/v1' || body['kind'] !== 'ConversionReview') {
    throw new MalformedReviewError(
      `expected an apiextensions.k8s.io/v1 ConversionReview, got apiVersion ${JSON.stringify(body['apiVersion'])} kind ${JSON.stringify(body['kind'])}`,
    );
  }
  const req = body['request'];
  if (!isRecord(req)) throw new MalformedReviewError('the ConversionReview has no request');
  if (typeof req['uid'] !== 'string' || req['uid'] === '') throw new MalformedReviewError('request.uid is missing');
  if (typeof req['desiredAPIVersion'] !== 'string')
    throw new MalformedReviewError('request.desiredAPIVersion is missing');
  if (!Array.isArray(req['objects']) || !req['objects'].every(isRecord))
    throw new MalformedReviewError('request.objects is not a list of objects');
  return { uid: req['uid'], desiredAPIVersion: req['desiredAPIVersion'], objects: req['objects'] as KubeObject[] };
}

export function admissionReview(response: AdmissionResponse): unknown {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}

export function conversionReview(response: ConversionResponse): unknown {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response };
}
