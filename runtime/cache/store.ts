/**
 * The informer's store: objects by key ('ns/name'), with secondary indexes (the namespace index
 * is built in; `addIndex` adds field indexes). Readers get the `Store` view; only the informer
 * holds the `StoreWriter`, which applies single changes and swaps in a relist atomically,
 * answering with the difference so the informer can emit add/update/delete.
 */
import { objectKeyString, type ClientObject, type KubeObject } from '../apimachinery/index.js';

/** Values an object is indexed under; an empty array leaves it out of the index. */
export type IndexFunc<T> = (obj: T) => string[];

export const NAMESPACE_INDEX = 'namespace';

/** Read-only view of a store. Returned arrays are fresh; the objects are shared, do not mutate. */
export interface Store<T extends ClientObject = KubeObject> {
  get(key: string): T | undefined;
  list(): T[];
  listKeys(): string[];
  /** objects whose index `name` contains `value`; throws for an unknown index */
  byIndex(name: string, value: string): T[];
  hasIndex(name: string): boolean;
  readonly size: number;
}

/** What a relist changed, in store terms. */
export interface ReplaceDiff<T> {
  added: T[];
  updated: Array<{ oldObj: T; newObj: T }>;
  deleted: T[];
}

export class UnknownIndexError extends Error {
  override readonly name = 'UnknownIndexError';
}

/** The maps behind one generation of the store; a relist builds a new one and swaps it in. */
class Contents<T extends ClientObject = KubeObject> {
  readonly objects = new Map<string, T>();
  /** index name → value → keys */
  readonly indexes = new Map<string, Map<string, Set<string>>>();
  /** index name → key → values it was indexed under (to unindex on change) */
  readonly indexed = new Map<string, Map<string, string[]>>();

  constructor(readonly funcs: Map<string, IndexFunc<T>>) {
    for (const name of funcs.keys()) this.initIndex(name);
  }

  initIndex(name: string): void {
    this.indexes.set(name, new Map());
    this.indexed.set(name, new Map());
  }

  put(key: string, obj: T): T | undefined {
    const old = this.objects.get(key);
    if (old) this.unindex(key);
    this.objects.set(key, obj);
    for (const [name, fn] of this.funcs) this.indexOne(name, fn, key, obj);
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.unindex(key);
    this.objects.delete(key);
    return old;
  }

  indexOne(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    const values = [...new Set(fn(obj))];
    if (values.length === 0) return;
    const index = this.indexes.get(name)!;
    this.indexed.get(name)!.set(key, values);
    for (const v of values) {
      let keys = index.get(v);
      if (!keys) index.set(v, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string): void {
    for (const [name, byKey] of this.indexed) {
      const values = byKey.get(key);
      if (!values) continue;
      byKey.delete(key);
      const index = this.indexes.get(name)!;
      for (const v of values) {
        const keys = index.get(v);
        keys?.delete(key);
        if (keys && keys.size === 0) index.delete(v);
      }
    }
  }
}

const namespaceOf: IndexFunc<ClientObject> = (obj) => [obj.metadata?.namespace ?? ''];

class StoreView<T extends ClientObject = KubeObject> implements Store<T> {
  constructor(private readonly source: () => Contents<T>) {}

  get size(): number {
    return this.source().objects.size;
  }

  get(key: string): T | undefined {
    return this.source().objects.get(key);
  }

  list(): T[] {
    return [...this.source().objects.values()];
  }

  listKeys(): string[] {
    return [...this.source().objects.keys()];
  }

  hasIndex(name: string): boolean {
    return this.source().indexes.has(name);
  }

  byIndex(name: string, value: string): T[] {
    const c = this.source();
    const index = c.indexes.get(name);
    if (!index) throw new UnknownIndexError(`no index named "${name}"`);
    const out: T[] = [];
    for (const key of index.get(value) ?? []) out.push(c.objects.get(key)!);
    return out;
  }
}

export class StoreWriter<T extends ClientObject = KubeObject> {
  private readonly funcs = new Map<string, IndexFunc<T>>([[NAMESPACE_INDEX, namespaceOf]]);
  private contents = new Contents<T>(this.funcs);
  readonly store: Store<T> = new StoreView(() => this.contents);

  /** Adds an index and indexes what is already stored. Re-adding a name is an error. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.funcs.has(name)) throw new Error(`index "${name}" already exists`);
    this.funcs.set(name, fn);
    this.contents.initIndex(name);
    for (const [key, obj] of this.contents.objects) this.contents.indexOne(name, fn, key, obj);
  }

  /** Inserts or replaces one object; returns the previous one. */
  upsert(obj: T): T | undefined {
    return this.contents.put(objectKeyString(obj), obj);
  }

  /** Removes the object with `obj`'s key; returns what was stored. */
  remove(obj: T): T | undefined {
    return this.contents.remove(objectKeyString(obj));
  }

  /**
   * Makes `objects` the whole content in one swap and reports the difference. An object whose
   * resourceVersion did not change is not reported as updated.
   */
  replace(objects: T[]): ReplaceDiff<T> {
    const previous = this.contents;
    const next = new Contents<T>(this.funcs);
    const diff: ReplaceDiff<T> = { added: [], updated: [], deleted: [] };
    for (const obj of objects) {
      const key = objectKeyString(obj);
      next.put(key, obj);
      const old = previous.objects.get(key);
      if (!old) diff.added.push(obj);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        diff.updated.push({ oldObj: old, newObj: obj });
    }
    for (const [key, old] of previous.objects) if (!next.objects.has(key)) diff.deleted.push(old);
    this.contents = next;
    return diff;
  }
}
