import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apimachinery/index.js';
import { clientContract } from '../client.contract.js';
import { ConflictError, isConflict } from '../errors.js';
import { applyJsonPatch, applyMergePatch, createFakeClient, PatchApplyError } from './index.js';

describe('fake client', () => {
  describe('shared client contract', () => {
    clientContract(() => createFakeClient());
  });

  it('starts with seeded objects and records actions', async () => {
    const c = createFakeClient({
      objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n' }, data: { k: 'v' } }],
    });
    const got = await c.get<KubeObject & { data: Record<string, string> }>(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { namespace: 'n', name: 'a' },
    );
    expect(got.data).toEqual({ k: 'v' });
    expect(c.actions.map((a) => a.verb)).toEqual(['get']);
  });

  it('lets a test inject failures, e.g. a conflict on status writes', async () => {
    const c = createFakeClient({
      intercept: (verb) => {
        if (verb === 'status.update')
          throw new ConflictError(409, { reason: 'Conflict', message: 'injected' }, { method: 'PUT', path: 'x' });
      },
    });
    const g = await c.create({ apiVersion: 'x.dev/v1', kind: 'Thing', metadata: { name: 't', namespace: 'n' } });
    const err = await c
      .status()
      .update({ ...g, status: { ok: true } })
      .catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
  });

  it('treats cluster-scoped kinds without namespace', async () => {
    const c = createFakeClient();
    await c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
    expect(await c.isNamespaced({ apiVersion: 'v1', kind: 'Namespace' })).toBe(false);
    await expect(c.get({ apiVersion: 'v1', kind: 'Namespace' }, { name: 'ns1' })).resolves.toMatchObject({
      metadata: { name: 'ns1' },
    });
  });
});

describe('applyMergePatch / applyJsonPatch', () => {
  it('merge: nested merge, null deletes, arrays replaced, input untouched', () => {
    const doc = { a: { b: 1, c: [1, 2] }, d: 'x' };
    expect(applyMergePatch(doc, { a: { b: null, c: [3] }, e: { f: 1 } })).toEqual({
      a: { c: [3] },
      d: 'x',
      e: { f: 1 },
    });
    expect(doc).toEqual({ a: { b: 1, c: [1, 2] }, d: 'x' });
  });

  it('json: all six operations and escaped pointers', () => {
    const doc = { a: [1, 2], 'b/c': { '~d': 1 } };
    expect(
      applyJsonPatch(doc, [
        { op: 'add', path: '/a/1', value: 9 },
        { op: 'replace', path: '/b~1c/~0d', value: 2 },
        { op: 'copy', from: '/a/0', path: '/first' },
        { op: 'move', from: '/a/2', path: '/last' },
        { op: 'test', path: '/first', value: 1 },
        { op: 'remove', path: '/a/0' },
      ]),
    ).toEqual({ a: [9], 'b/c': { '~d': 2 }, first: 1, last: 2 });
  });

  it('json: a failed test or a missing path throws', () => {
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow(PatchApplyError);
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }])).toThrow(/does not exist/);
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/b/c', value: 1 }])).toThrow(PatchApplyError);
  });
});
