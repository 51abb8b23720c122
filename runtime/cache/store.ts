/**
 * The informer's store: objects by key ('ns/name'), with secondary indexes (the namespace index
 * is built in; `addIndex` adds field indexes). Readers get the `Store` view; only the informer
 * holds the `StoreWriter`, which applies single changes and swaps in a relist atomically,
 * answering with the difference so the informer can emit add/update/delete.
 */
import { objectKey, objectKeyString, type ClientObject, type KubeObject } from '../apimachinery/model.js';

/**
 * Values an object is indexed under; an empty array leaves it out of the index. It must depend on
 * the object alone: the values are computed again when the object leaves the index.
 */
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

/** The object's namespace ('' when cluster-scoped) and name; throws without a name. */
function placeOf(obj: ClientObject): { namespace: string; name: string } {
  const { namespace = '', name } = objectKey(obj);
  return { namespace, name };
}

/**
 * The maps behind one generation of the store; a relist builds a new one and swaps it in.
 *
 * Memory is what this shape is for (an informer may hold 100,000 objects): objects sit under
 * namespace → name, so the name key is the object's own string and the namespace index costs
 * nothing; a field index holds the objects themselves (no key strings), and an object's index
 * values are computed again from the stored object when it leaves, as client-go's indexer does,
 * instead of being kept beside it. Index functions must therefore be pure.
 */
class Contents<T extends ClientObject = KubeObject> {
  /** namespace ('' for cluster-scoped objects) → name → object */
  readonly byNamespace = new Map<string, Map<string, T>>();
  /** field index name → value → objects */
  readonly indexes = new Map<string, Map<string, Set<T>>>();
  size = 0;

  constructor(readonly funcs: Map<string, IndexFunc<T>>) {
    for (const name of funcs.keys()) if (name !== NAMESPACE_INDEX) this.indexes.set(name, new Map());
  }

  get(key: string): T | undefined {
    const slash = key.indexOf('/');
    return slash < 0
      ? this.byNamespace.get('')?.get(key)
      : this.byNamespace.get(key.slice(0, slash))?.get(key.slice(slash + 1));
  }

  *values(): IterableIterator<T> {
    for (const names of this.byNamespace.values()) yield* names.values();
  }

  put(obj: T): T | undefined {
    const { namespace, name } = placeOf(obj);
    let names = this.byNamespace.get(namespace);
    if (!names) this.byNamespace.set(namespace, (names = new Map()));
    const old = names.get(name);
    names.set(name, obj);
    if (old) this.unindex(old);
    else this.size++;
    for (const [index, fn] of this.funcs) if (index !== NAMESPACE_INDEX) this.indexOne(index, fn, obj);
    return old;
  }

  remove(obj: ClientObject): T | undefined {
    const { namespace, name } = placeOf(obj);
    const names = this.byNamespace.get(namespace);
    const old = names?.get(name);
    if (!names || !old) return undefined;
    names.delete(name);
    if (names.size === 0) this.byNamespace.delete(namespace);
    this.size--;
    this.unindex(old);
    return old;
  }

  indexOne(index: string, fn: IndexFunc<T>, obj: T): void {
    const values = fn(obj);
    if (values.length === 0) return;
    const byValue = this.indexes.get(index)!;
    for (const v of values) {
      let objs = byValue.get(v);
      if (!objs) byValue.set(v, (objs = new Set()));
      objs.add(obj);
    }
  }

  private unindex(obj: T): void {
    for (const [index, byValue] of this.indexes) {
      for (const v of this.funcs.get(index)!(obj)) {
        const objs = byValue.get(v);
        if (!objs) continue;
        objs.delete(obj);
        if (objs.size === 0) byValue.delete(v);
      }
    }
  }
}

const namespaceOf: IndexFunc<ClientObject> = (obj) => [obj.metadata?.namespace ?? ''];

class StoreView<T extends ClientObject = KubeObject> implements Store<T> {
  constructor(private readonly source: () => Contents<T>) {}

  get size(): number {
    return this.source().size;
  }

  get(key: string): T | undefined {
    return this.source().get(key);
  }

  list(): T[] {
    return [...this.source().values()];
  }

  listKeys(): string[] {
    return this.list().map(objectKeyString);
  }

  hasIndex(name: string): boolean {
    return this.source().funcs.has(name);
  }

  byIndex(name: string, value: string): T[] {
    const c = this.source();
    if (name === NAMESPACE_INDEX) return [...(c.byNamespace.get(value)?.values() ?? [])];
    const index = c.indexes.get(name);
    if (!index) throw new UnknownIndexError(`no index named "${name}"`);
    return [...(index.get(value) ?? [])];
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
    this.contents.indexes.set(name, new Map());
    for (const obj of this.contents.values()) this.contents.indexOne(name, fn, obj);
  }

  /** Inserts or replaces one object; returns the previous one. */
  upsert(obj: T): T | undefined {
    return this.contents.put(obj);
  }

  /** Removes the object with `obj`'s key; returns what was stored. */
  remove(obj: T): T | undefined {
    return this.contents.remove(obj);
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
      // A list holds each key once; a repeat replaces the earlier item, as put does.
      next.put(obj);
      const { namespace, name } = placeOf(obj);
      const old = previous.byNamespace.get(namespace)?.get(name);
      if (!old) diff.added.push(obj);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        diff.updated.push({ oldObj: old, newObj: obj });
    }
    for (const [namespace, names] of previous.byNamespace) {
      const kept = next.byNamespace.get(namespace);
      for (const [name, old] of names) if (!kept?.has(name)) diff.deleted.push(old);
    }
    this.contents = next;
    return diff;
  }
}
