/**
 * An in-memory Client for pure unit tests of a reconciler (controller-runtime's fake client).
 *
 * It keeps the API server's bookkeeping that reconcilers depend on: resourceVersion checks
 * (ConflictError), AlreadyExists / NotFound, uid and generation, the status subresource split,
 * finalizers holding a deleted object, merge / JSON patches. It does not model schema
 * validation, admission, server-side-apply field ownership (apply merges and never conflicts)
 * or garbage collection. The shared contract suite (client.contract.ts) runs against both this
 * and the real API server, so the two stay alike where it matters.
 */
import { randomUUID } from 'node:crypto';
import {
  gvkString,
  keyString,
  type GroupVersionKind,
  type KubeObject,
  type ObjectKey,
} from '../../apimachinery/model.js';
import { matchesLabels, parseLabelSelector } from '../../cache/index.js';
import { ClientUsageError, toGVK } from '../client.js';
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  type ApiError,
  type Status,
} from '../errors.js';
import { applyPatch, jsonEqual, type Patch } from '../patch.js';
import type {
  Client,
  ClientObject,
  DeleteAllOfOptions,
  DeleteOptions,
  KindRef,
  ListOptions,
  ObjectList,
  PatchOptions,
  Reader,
  StatusWriter,
  WriteOptions,
} from '../types.js';
import { applyJsonPatch, applyMergePatch, PatchApplyError } from './apply-patch.js';

export type Verb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete' | 'status.update' | 'status.patch';

/** One call as the fake saw it (for assertions like "the reconciler wrote status once"). */
export interface Action {
  verb: Verb;
  gvk: GroupVersionKind;
  key: ObjectKey | { namespace?: string };
}

export interface FakeClientOptions {
  /** Objects present from the start. */
  objects?: ReadonlyArray<ClientObject | KubeObject>;
  /** Kinds that are cluster-scoped; by default the common built-in ones. */
  clusterScoped?: KindRef[];
  /** Kinds without a status subresource (their status is written by update like any field). */
  withoutStatusSubresource?: KindRef[];
  /** Runs before every call; throw from it to inject failures. */
  intercept?: (verb: Verb, gvk: GroupVersionKind, obj: ClientObject | ObjectKey) => void;
}

const DEFAULT_CLUSTER_SCOPED = [
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
  'PriorityClass',
];
const NO_STATUS = [
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'Event',
  'Lease',
];

function status(code: number, reason: string, message: string, gvk: GroupVersionKind, name: string): Status {
  return {
    kind: 'Status',
    status: 'Failure',
    code,
    reason,
    message,
    details: { name, group: gvk.group, kind: gvk.kind },
  };
}

export class FakeClient implements Client {
  private readonly store = new Map<string, KubeObject>();
  private readonly clusterScoped: Set<string>;
  private readonly noStatus: Set<string>;
  private rv = 0;
  readonly actions: Action[] = [];

  constructor(private readonly opts: FakeClientOptions = {}) {
    this.clusterScoped = new Set(
      opts.clusterScoped ? opts.clusterScoped.map((k) => toGVK(k).kind) : DEFAULT_CLUSTER_SCOPED,
    );
    this.noStatus = new Set(
      opts.withoutStatusSubresource ? opts.withoutStatusSubresource.map((k) => toGVK(k).kind) : NO_STATUS,
    );
    for (const o of opts.objects ?? [])
      this.store.set(this.id(this.gvkOf(o), this.keyOf(o)), this.stamp(asKube(structuredClone(o))));
  }

  apiReader(): Reader {
    return this;
  }

  async isNamespaced(kind: KindRef): Promise<boolean> {
    return !this.clusterScoped.has(toGVK(kind).kind);
  }

  async get<T extends ClientObject>(kind: KindRef, key: ObjectKey): Promise<T> {
    const gvk = toGVK(kind);
    this.record('get', gvk, key);
    return structuredClone(this.existing(gvk, this.scoped(gvk, key))) as unknown as T;
  }

  async list<T extends ClientObject>(kind: KindRef, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const gvk = toGVK(kind);
    this.record('list', gvk, { namespace: opts.namespace });
    if (opts.field) throw new ClientUsageError(`field index "${opts.field.index}" can only be listed from a cache`);
    const prefix = `${gvkString(gvk)}|`;
    const reqs = opts.labelSelector ? parseLabelSelector(opts.labelSelector) : [];
    const fields = (opts.fieldSelector ?? '')
      .split(',')
      .filter(Boolean)
      .map((t) => t.split('=') as [string, string]);
    const items = [...this.store.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .map(([, o]) => o)
      .filter((o) => !opts.namespace || o.metadata?.namespace === opts.namespace)
      .filter((o) => matchesLabels(reqs, o.metadata?.labels))
      .filter((o) => fields.every(([f, v]) => fieldValue(o, f) === v));
    return { items: structuredClone(items) as unknown as T[], metadata: { resourceVersion: String(this.rv) } };
  }

  async create<T extends ClientObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    const gvk = this.gvkOf(obj);
    const key = this.keyOf(obj);
    this.record('create', gvk, key, obj);
    if (obj.metadata?.resourceVersion)
      throw this.error(
        BadRequestError,
        400,
        'BadRequest',
        'resourceVersion should not be set on objects to be created',
        gvk,
        key.name,
      );
    if (this.store.has(this.id(gvk, key)))
      throw this.error(
        AlreadyExistsError,
        409,
        'AlreadyExists',
        `${gvk.kind} "${key.name}" already exists`,
        gvk,
        key.name,
      );
    const created = this.stamp(asKube(structuredClone(obj)));
    if (opts.dryRun) return created as unknown as T;
    this.store.set(this.id(gvk, key), created);
    return structuredClone(created) as unknown as T;
  }

  async update<T extends ClientObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.write(obj, 'update', opts.dryRun, () => asKube(structuredClone(obj)));
  }

  async patch<T extends ClientObject>(obj: T, patch: Patch, opts: PatchOptions = {}): Promise<T> {
    const gvk = this.gvkOf(obj);
    const key = this.keyOf(obj);
    if (patch.type === 'apply' && !this.store.has(this.id(gvk, key))) {
      // Server-side apply creates what does not exist yet.
      return this.create(JSON.parse(applyPatch.body(obj)) as unknown as T, opts);
    }
    return this.write(obj, 'patch', opts.dryRun, (current) => this.applyPatch(current, obj, patch));
  }

  async apply<T extends ClientObject>(obj: T, opts: PatchOptions = {}): Promise<T> {
    return this.patch(obj, applyPatch, opts);
  }

  async delete(obj: ClientObject, opts: DeleteOptions = {}): Promise<void> {
    const gvk = this.gvkOf(obj);
    const key = this.keyOf(obj);
    this.record('delete', gvk, key, obj);
    const current = this.existing(gvk, key);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== current.metadata?.uid)
      throw this.conflict(gvk, key.name, 'the UID in the precondition does not match');
    if (pre?.resourceVersion && pre.resourceVersion !== current.metadata?.resourceVersion) {
      throw this.conflict(gvk, key.name, 'the ResourceVersion in the precondition does not match');
    }
    if (opts.dryRun) return;
    if (current.metadata?.finalizers?.length) {
      // Finalizers hold the object: it only gets a deletionTimestamp.
      if (!current.metadata.deletionTimestamp) {
        current.metadata.deletionTimestamp = nowTime();
        current.metadata.resourceVersion = String(++this.rv);
      }
      return;
    }
    this.store.delete(this.id(gvk, key));
  }

  async deleteAllOf(kind: KindRef, opts: DeleteAllOfOptions = {}): Promise<void> {
    const { items } = await this.list(kind, {
      namespace: opts.namespace,
      labelSelector: opts.labelSelector,
      fieldSelector: opts.fieldSelector,
    });
    for (const item of items) await this.delete(item, opts);
  }

  status(): StatusWriter {
    return {
      update: (obj, opts = {}) => this.write(obj, 'status.update', opts.dryRun, () => asKube(structuredClone(obj))),
      patch: (obj, patch, opts = {}) =>
        this.write(obj, 'status.patch', opts.dryRun, (current) => this.applyPatch(current, obj, patch)),
    };
  }

  /** Shared path of update, patch and the status writes. */
  private async write<T extends ClientObject>(
    obj: T,
    verb: Verb,
    dryRun: boolean | undefined,
    next: (current: KubeObject) => KubeObject,
  ): Promise<T> {
    const gvk = this.gvkOf(obj);
    const key = this.keyOf(obj);
    this.record(verb, gvk, key, obj);
    const current = this.existing(gvk, key);
    const desired = next(structuredClone(current));
    const sentRv = desired.metadata?.resourceVersion;
    if (sentRv && sentRv !== current.metadata?.resourceVersion) {
      throw this.conflict(
        gvk,
        key.name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    const statusVerb = verb.startsWith('status.');
    const hasStatusSub = !this.noStatus.has(gvk.kind);
    if (statusVerb && !hasStatusSub)
      throw this.error(
        NotFoundError,
        404,
        'NotFound',
        'the server could not find the requested resource',
        gvk,
        key.name,
      );
    let result: KubeObject;
    if (statusVerb && hasStatusSub) {
      result = { ...structuredClone(current), status: desired['status'] };
    } else {
      result = { ...desired, metadata: { ...desired.metadata, ...pick(current.metadata ?? {}) } };
      if (hasStatusSub) result['status'] = structuredClone(current['status']);
      if (result['status'] === undefined) delete result['status'];
      const spec = (o: KubeObject): KubeObject => {
        const { metadata: _m, status: _s, ...rest } = o;
        return rest;
      };
      if (!jsonEqual(spec(current), spec(result)))
        result.metadata!.generation = (current.metadata?.generation ?? 1) + 1;
    }
    if (jsonEqual(result, current)) return structuredClone(current) as unknown as T; // no-op writes keep the resourceVersion
    result.metadata!.resourceVersion = String(++this.rv);
    if (dryRun) return result as unknown as T;
    if (result.metadata?.deletionTimestamp && !result.metadata.finalizers?.length) this.store.delete(this.id(gvk, key));
    else this.store.set(this.id(gvk, key), result);
    return structuredClone(result) as unknown as T;
  }

  private applyPatch(current: KubeObject, obj: ClientObject, patch: Patch): KubeObject {
    const body: unknown = JSON.parse(patch.body(obj));
    try {
      const out = patch.type === 'json' ? applyJsonPatch(current, body as never) : applyMergePatch(current, body);
      // A patch that does not name a resourceVersion is unconditional.
      const patched = out as KubeObject;
      const sent = (body as KubeObject).metadata?.resourceVersion;
      if (patch.type !== 'json' && !sent && patched.metadata)
        patched.metadata.resourceVersion = current.metadata?.resourceVersion;
      return patched;
    } catch (err) {
      if (err instanceof PatchApplyError)
        throw this.error(BadRequestError, 422, 'Invalid', err.message, this.gvkOf(obj), this.keyOf(obj).name);
      throw err;
    }
  }

  private stamp(o: KubeObject): KubeObject {
    o.metadata = {
      ...o.metadata,
      uid: o.metadata?.uid ?? randomUUID(),
      resourceVersion: String(++this.rv),
      generation: o.metadata?.generation ?? 1,
      creationTimestamp: o.metadata?.creationTimestamp ?? nowTime(),
    };
    return o;
  }

  private existing(gvk: GroupVersionKind, key: ObjectKey): KubeObject {
    const found = this.store.get(this.id(gvk, key));
    if (!found) throw this.error(NotFoundError, 404, 'NotFound', `${gvk.kind} "${key.name}" not found`, gvk, key.name);
    return found;
  }

  private conflict(gvk: GroupVersionKind, name: string, why: string): ApiError {
    return this.error(
      ConflictError,
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${gvk.kind} "${name}": ${why}`,
      gvk,
      name,
    );
  }

  private error(
    cls: new (code: number, s: Status, r: { method: string; path: string }) => ApiError,
    code: number,
    reason: string,
    message: string,
    gvk: GroupVersionKind,
    name: string,
  ): ApiError {
    return new cls(code, status(code, reason, message, gvk, name), {
      method: 'FAKE',
      path: `${gvkString(gvk)}/${name}`,
    });
  }

  private record(verb: Verb, gvk: GroupVersionKind, key: ObjectKey | { namespace?: string }, obj?: ClientObject): void {
    this.actions.push({ verb, gvk, key });
    this.opts.intercept?.(verb, gvk, obj ?? (key as ObjectKey));
  }

  private gvkOf(obj: ClientObject): GroupVersionKind {
    if (!obj.apiVersion || !obj.kind) throw new Error('object has no apiVersion/kind');
    return toGVK({ apiVersion: obj.apiVersion, kind: obj.kind });
  }

  private keyOf(obj: ClientObject): ObjectKey {
    const name = obj.metadata?.name;
    if (!name) throw new Error('object has no metadata.name');
    return this.scoped(this.gvkOf(obj), { namespace: obj.metadata?.namespace, name });
  }

  private scoped(gvk: GroupVersionKind, key: ObjectKey): ObjectKey {
    if (this.clusterScoped.has(gvk.kind)) return { name: key.name };
    if (!key.namespace) throw new Error(`${gvk.kind} "${key.name}" is namespaced but no namespace was given`);
    return key;
  }

  private id(gvk: GroupVersionKind, key: ObjectKey): string {
    return `${gvkString(gvk)}|${keyString(key)}`;
  }
}

/** The fake stores loose objects; any ClientObject is one. */
function asKube(o: ClientObject): KubeObject {
  return o as KubeObject;
}

/** Metadata the server owns: a write cannot change it. */
function pick(m: NonNullable<KubeObject['metadata']>): Partial<NonNullable<KubeObject['metadata']>> {
  return {
    uid: m.uid,
    creationTimestamp: m.creationTimestamp,
    generation: m.generation,
    deletionTimestamp: m.deletionTimestamp,
    resourceVersion: m.resourceVersion,
  };
}

/** Timestamps travel as RFC 3339 strings, whatever client-node's Date typing says. */
function nowTime(): Date {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') as unknown as Date;
}

function fieldValue(o: KubeObject, field: string): string | undefined {
  if (field === 'metadata.name') return o.metadata?.name;
  if (field === 'metadata.namespace') return o.metadata?.namespace;
  throw new Error(
    `the fake client supports field selectors on metadata.name and metadata.namespace only, not ${field}`,
  );
}

export function createFakeClient(opts: FakeClientOptions = {}): FakeClient {
  return new FakeClient(opts);
}
