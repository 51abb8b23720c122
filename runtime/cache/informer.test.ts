import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { Informer, stripManagedFields } from './index.js';

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
});
