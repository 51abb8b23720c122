import { describe, expect, it } from 'vitest';
import { applyPatch, createMergePatch, jsonEqual, jsonPatch, mergeFrom, mergePatch } from './patch.js';

describe('createMergePatch', () => {
  it('returns undefined for equal documents', () => {
    expect(createMergePatch({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBeUndefined();
  });

  it('emits only changed keys, null for removed ones, and whole arrays', () => {
    const from = { spec: { replicas: 1, image: 'a', ports: [80] }, keep: true, gone: 'x' };
    const to = { spec: { replicas: 3, image: 'a', ports: [80, 443] }, keep: true };
    expect(createMergePatch(from, to)).toEqual({ spec: { replicas: 3, ports: [80, 443] }, gone: null });
  });

  it('treats undefined-valued keys as absent', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(createMergePatch({ a: 1 }, { a: 1, b: undefined })).toBeUndefined();
  });
});

describe('patch bodies', () => {
  it('mergeFrom diffs against the snapshot taken at creation, not later mutations of the original', () => {
    const original = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', resourceVersion: '7' },
      data: { x: '1' },
    };
    const patch = mergeFrom(original);
    original.data.x = 'mutated-after';
    const modified = structuredClone(original);
    modified.data.x = '2';
    expect(JSON.parse(patch.body(modified))).toEqual({ data: { x: '2' } });
    expect(patch.contentType).toBe('application/merge-patch+json');
  });

  it('mergeFrom with optimisticLock pins the original resourceVersion', () => {
    const original = { metadata: { name: 'a', resourceVersion: '7' }, data: { x: '1' } };
    const modified = { metadata: { name: 'a', resourceVersion: '9' }, data: { x: '2' } };
    expect(JSON.parse(mergeFrom(original, { optimisticLock: true }).body(modified))).toEqual({
      metadata: { resourceVersion: '7' },
      data: { x: '2' },
    });
  });

  it('apply drops managedFields and resourceVersion but keeps the rest', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'a',
        namespace: 'n',
        resourceVersion: '5',
        managedFields: [{ manager: 'x' }],
        labels: { l: 'v' },
      },
      data: { k: 'v' },
    };
    expect(JSON.parse(applyPatch.body(obj))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'n', labels: { l: 'v' } },
      data: { k: 'v' },
    });
    expect(applyPatch.contentType).toBe('application/apply-patch+yaml');
  });

  it('fixed patches render their data with their own content types', () => {
    expect(mergePatch({ a: null }).body({})).toBe('{"a":null}');
    const jp = jsonPatch([{ op: 'remove', path: '/data/a' }]);
    expect(jp.contentType).toBe('application/json-patch+json');
    expect(JSON.parse(jp.body({}))).toEqual([{ op: 'remove', path: '/data/a' }]);
  });
});
