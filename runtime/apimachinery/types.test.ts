import { describe, expect, it } from 'vitest';
import {
  apiVersionOf,
  gvkFromApiVersion,
  gvkString,
  InvalidObjectError,
  keyString,
  objectKey,
  parseKey,
} from './index.js';

describe('keys', () => {
  it('round-trips namespaced and cluster-scoped keys', () => {
    expect(keyString({ namespace: 'ns', name: 'a' })).toBe('ns/a');
    expect(keyString({ name: 'node-1' })).toBe('node-1');
    expect(parseKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(parseKey('node-1')).toEqual({ name: 'node-1' });
  });

  it('rejects malformed keys', () => {
    expect(() => parseKey('')).toThrow(InvalidObjectError);
    expect(() => parseKey('ns/')).toThrow(InvalidObjectError);
    expect(() => parseKey('a/b/c')).toThrow(InvalidObjectError);
  });

  it('reads the key of an object and refuses one without a name', () => {
    expect(objectKey({ metadata: { name: 'x', namespace: 'y' } })).toEqual({ namespace: 'y', name: 'x' });
    expect(objectKey({ metadata: { name: 'x' } })).toEqual({ name: 'x' });
    expect(() => objectKey({ metadata: {} })).toThrow(InvalidObjectError);
  });
});

describe('apiVersion', () => {
  it('parses core and grouped versions', () => {
    expect(gvkFromApiVersion('v1', 'Pod')).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(gvkFromApiVersion('apps/v1', 'Deployment')).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(() => gvkFromApiVersion('a/b/c', 'X')).toThrow(InvalidObjectError);
    expect(() => gvkFromApiVersion('', 'X')).toThrow(InvalidObjectError);
  });

  it('formats apiVersion and a printable GVK', () => {
    expect(apiVersionOf({ group: '', version: 'v1' })).toBe('v1');
    expect(apiVersionOf({ group: 'batch', version: 'v1' })).toBe('batch/v1');
    expect(gvkString({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe('apps/v1, Kind=Deployment');
  });
});
