import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import {
  AlreadyOwnedError,
  getControllerOf,
  hasOwnerReference,
  InvalidOwnerError,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './index.js';

const owner = (name: string, namespace?: string, apiVersion = 'cache.example.com/v1'): KubeObject => ({
  apiVersion,
  kind: 'Memcached',
  metadata: { name, uid: `uid-${name}`, ...(namespace ? { namespace } : {}) },
});
const child = (namespace?: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'child', ...(namespace ? { namespace } : {}) },
});

describe('setControllerReference', () => {
  it('adds a controller reference with blockOwnerDeletion', () => {
    const obj = child('ns');
    setControllerReference(owner('a', 'ns'), obj);
    expect(obj.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'cache.example.com/v1',
        kind: 'Memcached',
        name: 'a',
        uid: 'uid-a',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('is idempotent for the same owner, also across API versions of its group', () => {
    const obj = child('ns');
    setControllerReference(owner('a', 'ns'), obj);
    setControllerReference(owner('a', 'ns', 'cache.example.com/v2'), obj);
    expect(obj.metadata?.ownerReferences).toHaveLength(1);
    expect(getControllerOf(obj)?.apiVersion).toBe('cache.example.com/v2');
  });

  it('refuses a second controller owner with AlreadyOwnedError, leaving the object unchanged', () => {
    const obj = child('ns');
    setControllerReference(owner('a', 'ns'), obj);
    const before = structuredClone(obj);
    expect(() => setControllerReference(owner('b', 'ns'), obj)).toThrow(AlreadyOwnedError);
    expect(obj).toEqual(before);
  });

  it('refuses cross-namespace owners', () => {
    expect(() => setControllerReference(owner('a', 'ns1'), child('ns2'))).toThrow(/cross-namespace/);
  });

  it('refuses a namespaced owner of a cluster-scoped object', () => {
    expect(() => setControllerReference(owner('a', 'ns'), child())).toThrow(InvalidOwnerError);
  });

  it('allows a cluster-scoped owner of a namespaced object', () => {
    const obj = child('ns');
    setControllerReference(owner('cluster-owner'), obj);
    expect(getControllerOf(obj)?.name).toBe('cluster-owner');
  });

  it('needs the owner uid', () => {
    const o = owner('a', 'ns');
    delete o.metadata!.uid;
    expect(() => setControllerReference(o, child('ns'))).toThrow(/uid/);
  });
});

describe('setOwnerReference / removeOwnerReference', () => {
  it('adds a non-controller reference next to a controller one', () => {
    const obj = child('ns');
    setControllerReference(owner('a', 'ns'), obj);
    setOwnerReference(owner('b', 'ns'), obj);
    expect(obj.metadata?.ownerReferences).toHaveLength(2);
    expect(hasOwnerReference(owner('b', 'ns'), obj)).toBe(true);
    expect(hasOwnerReference(owner('b', 'ns'), obj, true)).toBe(false);
    expect(obj.metadata?.ownerReferences?.[1]).not.toHaveProperty('controller');
  });

  it('removes only the matching reference', () => {
    const obj = child('ns');
    setOwnerReference(owner('a', 'ns'), obj);
    setOwnerReference(owner('b', 'ns'), obj);
    expect(removeOwnerReference(owner('a', 'ns'), obj)).toBe(true);
    expect(removeOwnerReference(owner('a', 'ns'), obj)).toBe(false);
    expect(obj.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['b']);
  });
});
