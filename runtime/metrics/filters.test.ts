import { describe, expect, it } from 'vitest';
import { bearerToken } from './index.js';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, whatever the scheme case and surrounding spaces', () => {
    expect(bearerToken('Bearer abc.def-ghi')).toBe('abc.def-ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('BEARER  abc ')).toBe('abc');
    expect(bearerToken('  Bearer\tabc')).toBe('abc');
  });

  it('finds no token in other headers', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerToken('Bearerabc')).toBeUndefined();
    expect(bearerToken('Bearer two words')).toBeUndefined();
    expect(bearerToken(['Bearer a', 'Bearer b'])).toBeUndefined();
  });
});
