/**
 * The behaviour every Client implementation shares, as one vitest suite: the real client runs
 * it against kube-apiserver (client.int.test.ts), the fake runs it in memory (fake.test.ts).
 * Register it inside a describe: `clientContract(() => client)`. Needs the Gadget CRD
 * (testdata/gadgets.yaml) when run against a real server.
 */
import { expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { AlreadyExistsError, ConflictError, NotFoundError } from './errors.js';
import { jsonPatch, mergeFrom, mergePatch } from './patch.js';
import type { Client } from './types.js';

// The objects both the contract and the real-server tests work with.
export const NS = 'default';
export const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
export const GADGET = { apiVersion: 'clienttest.tsop.dev/v1', kind: 'Gadget' } as const;

export interface Gadget extends KubeObject {
  spec: { size: number; color?: string; tags?: string[] };
  status?: { phase?: string; observedSize?: number };
}
export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export function clientContract(getClient: () => Client): void {
  let seq = 0;
  const uniq = (p: string): string => `contract-${p}-${++seq}`;
  const gadget = (name: string, size: number, labels?: Record<string, string>): Gadget => ({
    ...GADGET,
    metadata: { name, namespace: NS, ...(labels ? { labels } : {}) },
    spec: { size },
  });

  it('contract: create stamps uid, resourceVersion and generation; duplicates and misses are typed', async () => {
    const c = getClient();
    const name = uniq('g');
    const created = await c.create(gadget(name, 1));
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(created.metadata?.generation).toBe(1);
    expect(await c.get<Gadget>(GADGET, { namespace: NS, name })).toMatchObject({ ...GADGET, spec: { size: 1 } });
    await expect(c.create(gadget(name, 1))).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(c.get(GADGET, { namespace: NS, name: uniq('missing') })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('contract: update checks resourceVersion; generation moves on spec changes only; no-op keeps the version', async () => {
    const c = getClient();
    const created = await c.create(gadget(uniq('g'), 1));
    const labelled = await c.update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(labelled.metadata?.generation).toBe(1);
    const resized = await c.update({ ...labelled, spec: { size: 2 } });
    expect(resized.metadata?.generation).toBe(2);
    await expect(c.update({ ...labelled, spec: { size: 3 } })).rejects.toBeInstanceOf(ConflictError);
    const same = await c.update(resized);
    expect(same.metadata?.resourceVersion).toBe(resized.metadata?.resourceVersion);
  });

  it('contract: the status subresource splits status from the rest', async () => {
    const c = getClient();
    const g = await c.create(gadget(uniq('g'), 1));
    const s = await c.status().update({ ...g, spec: { size: 5 }, status: { phase: 'Ready' } });
    expect(s.spec.size).toBe(1);
    expect(s.status).toEqual({ phase: 'Ready' });
    expect(s.metadata?.generation).toBe(1);
    const u = await c.update({ ...s, spec: { size: 2 }, status: { phase: 'Lost' } });
    expect(u.status).toEqual({ phase: 'Ready' });
    const p = await c.status().patch(u, mergePatch({ status: { observedSize: 2 } }));
    expect(p.status).toEqual({ phase: 'Ready', observedSize: 2 });
    const cm = await c.create<ConfigMap>({ ...CM, metadata: { name: uniq('cm'), namespace: NS } });
    await expect(c.status().update({ ...cm, status: { x: 1 } })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('contract: merge patch (null deletes), JSON patch, and mergeFrom with optimistic lock', async () => {
    const c = getClient();
    const g = await c.create<Gadget>({ ...gadget(uniq('g'), 1), spec: { size: 1, color: 'red', tags: ['a'] } });
    const m = await c.patch(g, mergePatch({ spec: { color: null } }));
    expect(m.spec).toEqual({ size: 1, tags: ['a'] });
    const j = await c.patch(m, jsonPatch([{ op: 'add', path: '/spec/tags/-', value: 'b' }]));
    expect(j.spec.tags).toEqual(['a', 'b']);
    const edited = { ...structuredClone(m), spec: { size: 4, tags: ['a'] } };
    await expect(c.patch(edited, mergeFrom(m, { optimisticLock: true }))).rejects.toBeInstanceOf(ConflictError);
    // Without the lock the diff (size only) lands on the current object, keeping the added tag.
    const unlocked = await c.patch(edited, mergeFrom(m));
    expect(unlocked.spec).toEqual({ size: 4, tags: ['a', 'b'] });
  });

  it('contract: apply creates a missing object and updates it afterwards', async () => {
    const c = getClient();
    const name = uniq('g');
    const first = await c.apply(gadget(name, 2), { fieldManager: 'contract' });
    expect(first.spec.size).toBe(2);
    const second = await c.apply(gadget(name, 3), { fieldManager: 'contract' });
    expect(second.spec.size).toBe(3);
    expect(second.metadata?.uid).toBe(first.metadata?.uid);
  });

  it('contract: list filters by namespace and labels and returns typed items', async () => {
    const c = getClient();
    const tag = uniq('t');
    await c.create(gadget(uniq('g'), 1, { run: tag, tier: 'a' }));
    await c.create(gadget(uniq('g'), 1, { run: tag, tier: 'b' }));
    await c.create(gadget(uniq('g'), 1));
    const all = await c.list<Gadget>(GADGET, { namespace: NS, labelSelector: `run=${tag}` });
    expect(all.items).toHaveLength(2);
    expect(all.items.every((i) => i.kind === 'Gadget' && i.apiVersion === GADGET.apiVersion)).toBe(true);
    const b = await c.list<Gadget>(GADGET, { namespace: NS, labelSelector: `run=${tag},tier!=a` });
    expect(b.items.map((i) => i.metadata?.labels?.['tier'])).toEqual(['b']);
  });

  it('contract: deleteAllOf removes exactly the selected objects', async () => {
    const c = getClient();
    const tag = uniq('t');
    await c.create(gadget(uniq('g'), 1, { sweep: tag }));
    await c.create(gadget(uniq('g'), 1, { sweep: tag }));
    const keep = await c.create(gadget(uniq('g'), 1, { sweep: `${tag}-keep` }));
    await c.deleteAllOf(GADGET, { namespace: NS, labelSelector: `sweep=${tag}` });
    expect((await c.list(GADGET, { namespace: NS, labelSelector: `sweep=${tag}` })).items).toHaveLength(0);
    await expect(c.get(GADGET, { namespace: NS, name: keep.metadata!.name! })).resolves.toBeDefined();
  });

  it('contract: delete checks preconditions; finalizers hold the object until removed', async () => {
    const c = getClient();
    const g = await c.create<Gadget>({
      ...gadget(uniq('g'), 1),
      metadata: { name: uniq('g'), namespace: NS, finalizers: ['tsop.dev/x'] },
    });
    const key = { namespace: NS, name: g.metadata!.name! };
    await expect(
      c.delete(g, { preconditions: { resourceVersion: `${g.metadata!.resourceVersion}0` } }),
    ).rejects.toBeInstanceOf(ConflictError);
    await c.delete(g);
    const held = await c.get<Gadget>(GADGET, key);
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    await c.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    await expect(c.get(GADGET, key)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.delete(g)).rejects.toBeInstanceOf(NotFoundError);
  });
}
