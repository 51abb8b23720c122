import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { Informer, stripManagedFields } from './index.js';
import { dropDecodedManagedFields } from './informer.js';

describe('informer (no server)', () => {
  it('waitForSync answers false when aborted before any list', async () => {
    const informer = new Informer({
      kubeConfig: new KubeConfig(),
      gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
    });
    const ac = new AbortController();
    const waiting = informer.waitForSync(ac.signal);
    ac.abort();
    expect(await waiting).toBe(false);
    expect(informer.hasSynced()).toBe(false);
    expect(await informer.waitForSync(ac.signal)).toBe(false);
  });

  it('returns at once from run when aborted before it starts, and refuses a second run', async () => {
    const informer = new Informer({
      kubeConfig: new KubeConfig(),
      gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
    });
    const ac = new AbortController();
    ac.abort();
    await informer.run(ac.signal);
    await expect(informer.run(ac.signal)).rejects.toThrow(/already started/);
  });

  it('stripManagedFields drops only managedFields and leaves its input alone', () => {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', labels: { x: 'y' }, managedFields: [{ manager: 'kubectl' }] },
      data: { k: 'v' },
    };
    const out = stripManagedFields(obj);
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', labels: { x: 'y' } },
      data: { k: 'v' },
    });
    expect(obj.metadata?.managedFields).toHaveLength(1);
    const plain: KubeObject = { metadata: { name: 'b' } };
    expect(stripManagedFields(plain)).toBe(plain);
  });

  it('the default drops managedFields in place when the API server wrote it last, and copies otherwise', () => {
    const decoded = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n","uid":"u","resourceVersion":"1",' +
        '"managedFields":[{"manager":"kubectl"}]},"data":{"k":"v"}}',
    ) as KubeObject;
    const metadata = decoded.metadata;
    const out = dropDecodedManagedFields(decoded);
    expect(out).toBe(decoded);
    expect(out.metadata).toBe(metadata);
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'n', uid: 'u', resourceVersion: '1' },
      data: { k: 'v' },
    });
    expect(Object.keys(out.metadata ?? {})).not.toContain('managedFields');

    // Keys in another order (a custom resource's metadata, written sorted): a copy, its input untouched.
    const sorted = JSON.parse('{"metadata":{"managedFields":[{"manager":"kubectl"}],"name":"b"}}') as KubeObject;
    const copied = dropDecodedManagedFields(sorted);
    expect(copied).not.toBe(sorted);
    expect(copied).toEqual({ metadata: { name: 'b' } });
    expect(sorted.metadata?.managedFields).toHaveLength(1);

    const plain: KubeObject = { metadata: { name: 'c' } };
    expect(dropDecodedManagedFields(plain)).toBe(plain);
  });
});
