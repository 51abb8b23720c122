import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { NAMESPACE_INDEX, StoreWriter, UnknownIndexError } from './store.js';

const obj = (ns: string, name: string, rv: string, node?: string): KubeObject => ({
  metadata: { namespace: ns, name, resourceVersion: rv },
  ...(node ? { spec: { nodeName: node } } : {}),
});
const names = (objs: KubeObject[]): string[] => objs.map((o) => o.metadata!.name!).sort();
const nodeOf = (o: KubeObject): string[] => {
  const n = (o['spec'] as { nodeName?: string } | undefined)?.nodeName;
  return n ? [n] : [];
};

describe('store', () => {
  it('keeps objects by key and indexes them by namespace', () => {
    const w = new StoreWriter<KubeObject>();
    expect(w.upsert(obj('a', 'x', '1'))).toBeUndefined();
    w.upsert(obj('b', 'y', '1'));
    const old = w.upsert(obj('a', 'x', '2'));
    expect(old?.metadata?.resourceVersion).toBe('1');
    expect(w.store.size).toBe(2);
    expect(w.store.get('a/x')?.metadata?.resourceVersion).toBe('2');
    expect(names(w.store.byIndex(NAMESPACE_INDEX, 'a'))).toEqual(['x']);
    w.remove(obj('a', 'x', '3'));
    expect(w.store.byIndex(NAMESPACE_INDEX, 'a')).toEqual([]);
    expect(w.store.listKeys()).toEqual(['b/y']);
  });

  it('maintains field indexes across updates, and indexes what is stored when added late', () => {
    const w = new StoreWriter<KubeObject>();
    w.upsert(obj('ns', 'p1', '1', 'n1'));
    w.addIndex('node', nodeOf); // added after objects exist
    w.upsert(obj('ns', 'p2', '1', 'n1'));
    w.upsert(obj('ns', 'p3', '1'));
    expect(names(w.store.byIndex('node', 'n1'))).toEqual(['p1', 'p2']);
    w.upsert(obj('ns', 'p1', '2', 'n2')); // moves to another node
    expect(names(w.store.byIndex('node', 'n1'))).toEqual(['p2']);
    expect(names(w.store.byIndex('node', 'n2'))).toEqual(['p1']);
    expect(() => w.store.byIndex('nope', 'x')).toThrow(UnknownIndexError);
    expect(() => w.addIndex('node', nodeOf)).toThrow();
  });

  it('replaces the whole content at once and reports only what changed', () => {
    const w = new StoreWriter<KubeObject>();
    w.addIndex('node', nodeOf);
    for (const o of [obj('ns', 'keep', '1', 'n1'), obj('ns', 'change', '1', 'n1'), obj('ns', 'gone', '1', 'n1')])
      w.upsert(o);
    const reader = w.store;
    const diff = w.replace([obj('ns', 'keep', '1', 'n1'), obj('ns', 'change', '5', 'n2'), obj('ns', 'new', '6', 'n1')]);
    expect(names(diff.added)).toEqual(['new']);
    expect(diff.updated.map((u) => [u.oldObj.metadata!.resourceVersion, u.newObj.metadata!.resourceVersion])).toEqual([
      ['1', '5'],
    ]);
    expect(names(diff.deleted)).toEqual(['gone']);
    // a reader handle taken before the swap sees the new content, indexes included
    expect(names(reader.list())).toEqual(['change', 'keep', 'new']);
    expect(names(reader.byIndex('node', 'n1'))).toEqual(['keep', 'new']);
    expect(names(reader.byIndex('node', 'n2'))).toEqual(['change']);
  });

  it('keys cluster-scoped objects by name alone', () => {
    const w = new StoreWriter<KubeObject>();
    w.upsert({ metadata: { name: 'node-1' } });
    expect(w.store.get('node-1')).toBeDefined();
    expect(w.store.byIndex(NAMESPACE_INDEX, '')).toHaveLength(1);
  });

  it('leaves the indexes of an object removed, replaced or relisted away', () => {
    const w = new StoreWriter<KubeObject>();
    w.addIndex('node', nodeOf);
    w.upsert(obj('a', 'p1', '1', 'n1'));
    w.upsert(obj('b', 'p2', '1', 'n1'));
    w.remove(obj('a', 'p1', '2'));
    expect(w.store.size).toBe(1);
    expect(w.store.byIndex(NAMESPACE_INDEX, 'a')).toEqual([]);
    expect(names(w.store.byIndex('node', 'n1'))).toEqual(['p2']);
    w.upsert(obj('b', 'p2', '2'));
    expect(w.store.byIndex('node', 'n1')).toEqual([]);
    w.replace([obj('c', 'p3', '1', 'n3')]);
    expect(w.store.listKeys()).toEqual(['c/p3']);
    expect(names(w.store.byIndex('node', 'n3'))).toEqual(['p3']);
    expect(w.store.get('b/p2')).toBeUndefined();
  });
});
