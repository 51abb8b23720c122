/**
 * The manager's client under sharding: what a reconcile creates for an object of its shard
 * carries that shard's label from the first write, so it is in this replica's cache at once (a
 * created Deployment is seen by the next reconcile instead of failing it with AlreadyExists),
 * and a write that replaces an object's labels keeps its shard and drain labels. Everything
 * else passes through unchanged.
 */
import type { KubeObject, ObjectKey } from '../apimachinery/model.js';
import type {
  Client,
  ClientObject,
  DeleteAllOfOptions,
  DeleteOptions,
  GetOptions,
  KindRef,
  ListOptions,
  ObjectList,
  Patch,
  PatchOptions,
  Reader,
  StatusWriter,
  WriteOptions,
} from '../client/index.js';

/** Returns the object to send: `obj` itself, or a copy carrying the labels it should keep or get. */
export type Stamp = <T extends ClientObject>(obj: T, verb: 'create' | 'update' | 'apply') => T;

export class StampingClient implements Client {
  constructor(
    private readonly inner: Client,
    private readonly stamp: Stamp,
  ) {}

  get<T extends ClientObject = KubeObject>(kind: KindRef, key: ObjectKey, opts?: GetOptions): Promise<T> {
    return this.inner.get<T>(kind, key, opts);
  }

  list<T extends ClientObject = KubeObject>(kind: KindRef, opts?: ListOptions): Promise<ObjectList<T>> {
    return this.inner.list<T>(kind, opts);
  }

  create<T extends ClientObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.inner.create(this.stamp(obj, 'create'), opts);
  }

  update<T extends ClientObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.inner.update(this.stamp(obj, 'update'), opts);
  }

  patch<T extends ClientObject>(obj: T, patch: Patch, opts?: PatchOptions): Promise<T> {
    return this.inner.patch(obj, patch, opts);
  }

  apply<T extends ClientObject>(obj: T, opts?: PatchOptions): Promise<T> {
    return this.inner.apply(this.stamp(obj, 'apply'), opts);
  }

  delete(obj: ClientObject, opts?: DeleteOptions): Promise<void> {
    return this.inner.delete(obj, opts);
  }

  deleteAllOf(kind: KindRef, opts?: DeleteAllOfOptions): Promise<void> {
    return this.inner.deleteAllOf(kind, opts);
  }

  status(): StatusWriter {
    return this.inner.status();
  }

  apiReader(): Reader {
    return this.inner.apiReader();
  }

  isNamespaced(kind: KindRef): Promise<boolean> {
    return this.inner.isNamespaced(kind);
  }
}
