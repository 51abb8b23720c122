import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  errorFromResponse,
  GoneError,
  ignoreNotFound,
  InvalidError,
  isAlreadyExists,
  isConflict,
  isNotFound,
  NotFoundError,
} from './errors.js';

const req = { method: 'POST', path: '/api/v1/namespaces/a/configmaps' };
const status = (code: number, reason: string, extra: object = {}): string =>
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    code,
    reason,
    message: `m-${reason}`,
    ...extra,
  });

describe('errorFromResponse', () => {
  it('tells the two kinds of 409 apart by reason', () => {
    const conflict = errorFromResponse(409, status(409, 'Conflict'), req);
    const exists = errorFromResponse(409, status(409, 'AlreadyExists'), req);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(exists).toBeInstanceOf(AlreadyExistsError);
    expect(isConflict(exists)).toBe(false);
    expect(isAlreadyExists(exists)).toBe(true);
  });

  it('keeps code, reason, message and the field causes of a 422', () => {
    const causes = [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.x' }];
    const err = errorFromResponse(422, status(422, 'Invalid', { details: { name: 'a', kind: 'Foo', causes } }), req);
    expect(err).toBeInstanceOf(InvalidError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.statusCode).toBe(422);
    expect(err.reason).toBe('Invalid');
    expect(err.message).toBe('m-Invalid');
    expect((err as InvalidError).causes).toEqual(causes);
    expect(err.name).toBe('InvalidError');
  });

  it('falls back to the status code when the body is not a Status', () => {
    const err = errorFromResponse(404, '404 page not found', req);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('404 page not found');
    expect(errorFromResponse(410, '', req)).toBeInstanceOf(GoneError);
    const other = errorFromResponse(418, '', req);
    expect(other.constructor).toBe(ApiError);
    expect(other.message).toContain('HTTP 418');
  });

  it('ignoreNotFound swallows only NotFound', () => {
    expect(ignoreNotFound(errorFromResponse(404, status(404, 'NotFound'), req))).toBeUndefined();
    const conflict = errorFromResponse(409, status(409, 'Conflict'), req);
    expect(() => ignoreNotFound(conflict)).toThrow(conflict);
    expect(isNotFound(new Error('x'))).toBe(false);
  });
});
