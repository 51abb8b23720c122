/**
 * The client: reads from the informer cache for kinds it watches (direct reads otherwise, or an
 * error by policy), writes always go to the API server. Paths come from the RESTMapper; every
 * failure is a typed ApiError (see errors.ts).
 */
import type { KubeConfigSource } from '../kubeconfig/index.js';
import {
  apiVersionOf,
  gvkFromApiVersion,
  isMetadataOnly,
  gvkString,
  type GroupVersionKind,
  type KubeObject,
  type ObjectKey,
} from '../apimachinery/model.js';
import { METADATA_ACCEPT, type ApiConnection } from '../rest/index.js';
import { RESTMapper, resourcePath, type ResourceMapping } from '../restmapper/index.js';
import { rootLogger, type Logger } from '../log/index.js';
import { NotFoundError } from './errors.js';
import { applyPatch, type Patch } from './patch.js';
import { Transport, type HttpRequest, type RequestMetrics } from './transport.js';
import { traceRequests } from '../tracing/index.js';
import type {
  CacheReader,
  Client,
  ClientObject,
  DeleteAllOfOptions,
  DeleteOptions,
  GetOptions,
  KindRef,
  ListOptions,
  ObjectList,
  PatchOptions,
  Reader,
  StatusWriter,
  WriteOptions,
} from './types.js';

export interface ClientOptions {
  /** Served from for every kind it `has()`; it must return copies the caller may mutate. */
  reader?: CacheReader;
  /** What to do when the reader does not watch a kind: read from the API (default) or throw. */
  cacheMissPolicy?: 'direct' | 'error';
  metrics?: RequestMetrics;
  /** Default fieldManager for every write (controller-runtime's WithFieldOwner). */
  fieldOwner?: string;
  /**
   * The HTTP connection to send through; default: the one every part of the process shares for
   * this KubeConfig (rest's connectionFor).
   */
  connection?: ApiConnection;
  /** Share one discovery cache with the rest of the manager. */
  restMapper?: RESTMapper;
  timeoutMs?: number;
  /** Once aborted, every call fails at once without sending anything (see TransportOptions.fence). */
  fence?: AbortSignal;
  /** API server warnings (deprecated APIs, unknown fields dropped) are logged here, once each. */
  logger?: Logger;
}

/** The client was called in a way that can never succeed (missing name, apiVersion, …). */
export class ClientUsageError extends Error {
  override readonly name = 'ClientUsageError';
}

/** Raised under cacheMissPolicy 'error' for a kind the cache does not watch. */
export class CacheMissError extends Error {
  override readonly name = 'CacheMissError';
  constructor(readonly gvk: GroupVersionKind) {
    super(`kind ${gvkString(gvk)} is not watched by the cache and direct reads are disabled`);
  }
}

export function toGVK(kind: KindRef): GroupVersionKind {
  return 'apiVersion' in kind ? gvkFromApiVersion(kind.apiVersion, kind.kind) : kind;
}

export function createClient(kc: KubeConfigSource, opts: ClientOptions = {}): Client & { close(): void } {
  return new KubeClient(kc, opts);
}

type Subresource = 'status' | undefined;

class KubeClient implements Client {
  private readonly transport: Transport;
  private readonly mapper: RESTMapper;
  private readonly direct: Reader;

  constructor(
    kc: KubeConfigSource,
    private readonly opts: ClientOptions,
  ) {
    const log = (opts.logger ?? rootLogger()).child({ component: 'client' });
    const warned = new Set<string>();
    const onWarning = (text: string): void => {
      // Once per text: a reconcile loop would otherwise repeat the same warning forever.
      if (warned.has(text) || warned.size >= 1000) return;
      warned.add(text);
      log.warn({ warning: text }, 'API server warning');
    };
    // Each API call is a span under the active one (a reconcile's); a no-op without an OpenTelemetry SDK.
    this.transport = traceRequests(
      new Transport(opts.connection ?? kc, {
        metrics: opts.metrics,
        timeoutMs: opts.timeoutMs,
        onWarning,
        fence: opts.fence,
      }),
    );
    this.mapper = opts.restMapper ?? new RESTMapper(opts.connection ?? kc, { metrics: opts.metrics });
    this.direct = { get: (k, key, o) => this.getDirect(k, key, o), list: (k, o) => this.listDirect(k, o) };
  }

  close(): void {
    this.transport.close();
  }

  apiReader(): Reader {
    return this.direct;
  }

  async isNamespaced(kind: KindRef): Promise<boolean> {
    return (await this.mapper.mapping(toGVK(kind))).namespaced;
  }

  async get<T extends ClientObject>(kind: KindRef, key: ObjectKey, opts: GetOptions = {}): Promise<T> {
    const gvk = toGVK(kind);
    const cache = this.cacheFor(gvk);
    if (!cache) return this.getDirect(kind, key, opts);
    // Before the first list a miss would deny an object that exists: wait for it instead.
    await cache.waitForKind?.(gvk, opts.signal, key);
    const found = cache.get(gvk, key) as T | undefined;
    if (!found) {
      throw new NotFoundError(
        404,
        {
          reason: 'NotFound',
          message: `${gvk.kind} "${key.name}" not found in cache`,
          details: { name: key.name, group: gvk.group, kind: gvk.kind },
        },
        { method: 'GET', path: '(cache)' },
      );
    }
    // The reader hands out copies (the cache deep-copies unless told not to), so no copy here.
    return withTypeMeta(found, gvk);
  }

  async list<T extends ClientObject>(kind: KindRef, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const gvk = toGVK(kind);
    const serverOnly = opts.fieldSelector !== undefined || opts.limit !== undefined || opts.continue !== undefined;
    const cache = serverOnly ? undefined : this.cacheFor(gvk);
    if (!cache) {
      if (opts.field) throw new ClientUsageError(`field index "${opts.field.index}" can only be listed from the cache`);
      return this.listDirect(kind, opts);
    }
    await cache.waitForKind?.(gvk, opts.signal);
    const items = cache.list(gvk, {
      namespace: opts.namespace,
      labelSelector: opts.labelSelector,
      field: opts.field,
    });
    return { items: items.map((o) => withTypeMeta(o as unknown as T, gvk)), metadata: {} };
  }

  async create<T extends ClientObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    const { mapping, key } = await this.locate(obj);
    return this.sendWrite<T>(mapping, {
      method: 'POST',
      path: resourcePath(mapping, { namespace: key.namespace }),
      query: this.writeQuery(opts),
      body: JSON.stringify(obj),
      signal: opts.signal,
    });
  }

  update<T extends ClientObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.put(obj, undefined, opts);
  }

  patch<T extends ClientObject>(obj: T, patch: Patch, opts: PatchOptions = {}): Promise<T> {
    return this.sendPatch(obj, patch, undefined, opts);
  }

  apply<T extends ClientObject>(obj: T, opts: PatchOptions = {}): Promise<T> {
    return this.sendPatch(obj, applyPatch, undefined, opts);
  }

  async delete(obj: ClientObject, opts: DeleteOptions = {}): Promise<void> {
    const { mapping, key } = await this.locate(obj);
    await this.transport.request({
      method: 'DELETE',
      path: resourcePath(mapping, key),
      body: deleteBody(opts),
      signal: opts.signal,
    });
  }

  async deleteAllOf(kind: KindRef, opts: DeleteAllOfOptions = {}): Promise<void> {
    const mapping = await this.mapper.mapping(toGVK(kind));
    if (mapping.namespaced && !opts.namespace)
      throw new ClientUsageError(`deleteAllOf ${mapping.gvk.kind} needs a namespace`);
    await this.transport.request({
      method: 'DELETE',
      path: resourcePath(mapping, { namespace: opts.namespace }),
      query: { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector },
      body: deleteBody(opts),
      signal: opts.signal,
    });
  }

  status(): StatusWriter {
    return {
      update: (obj, opts = {}) => this.put(obj, 'status', opts),
      patch: (obj, patch, opts = {}) => this.sendPatch(obj, patch, 'status', opts),
    };
  }

  /** The reader to serve `gvk` from, or undefined to go to the API server. */
  private cacheFor(gvk: GroupVersionKind): CacheReader | undefined {
    const reader = this.opts.reader;
    if (reader?.has(gvk)) return reader;
    if (reader && this.opts.cacheMissPolicy === 'error') throw new CacheMissError(gvk);
    return undefined;
  }

  private async getDirect<T extends ClientObject>(kind: KindRef, key: ObjectKey, opts: GetOptions = {}): Promise<T> {
    const gvk = toGVK(kind);
    const mapping = await this.mapper.mapping(gvk);
    requireNamespace(mapping, key);
    const obj = await this.transport.request<T>({
      method: 'GET',
      path: resourcePath(mapping, key),
      signal: opts.signal,
      ...(isMetadataOnly(gvk) ? { accept: METADATA_ACCEPT.object } : {}),
    });
    return isMetadataOnly(gvk) ? asKind(obj, gvk) : withTypeMeta(obj, gvk);
  }

  private async listDirect<T extends ClientObject>(kind: KindRef, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const gvk = toGVK(kind);
    const mapping = await this.mapper.mapping(gvk);
    const list = await this.transport.request<ObjectList<T>>({
      method: 'GET',
      path: resourcePath(mapping, { namespace: opts.namespace }),
      query: {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        limit: opts.limit === undefined ? undefined : String(opts.limit),
        continue: opts.continue,
      },
      signal: opts.signal,
      ...(isMetadataOnly(gvk) ? { accept: METADATA_ACCEPT.list } : {}),
    });
    // Items of a list response carry no apiVersion/kind; put them back so they can be written.
    const typed = isMetadataOnly(gvk) ? asKind : withTypeMeta;
    return { items: (list.items ?? []).map((o) => typed(o, gvk)), metadata: list.metadata ?? {} };
  }

  private async put<T extends ClientObject>(obj: T, sub: Subresource, opts: WriteOptions): Promise<T> {
    const { mapping, key } = await this.locate(obj);
    return this.sendWrite<T>(mapping, {
      method: 'PUT',
      path: resourcePath(mapping, { ...key, subresource: sub }),
      query: this.writeQuery(opts),
      body: JSON.stringify(obj),
      signal: opts.signal,
    });
  }

  private async sendPatch<T extends ClientObject>(
    obj: T,
    patch: Patch,
    sub: Subresource,
    opts: PatchOptions,
  ): Promise<T> {
    const { mapping, key } = await this.locate(obj);
    const query = this.writeQuery(opts);
    if (patch.type === 'apply') {
      if (!query['fieldManager'])
        throw new ClientUsageError('server-side apply needs a fieldManager (or the client fieldOwner)');
      if (opts.force) query['force'] = 'true';
    } else if (opts.force) {
      throw new ClientUsageError('force is only valid for server-side apply');
    }
    return this.sendWrite<T>(mapping, {
      method: 'PATCH',
      path: resourcePath(mapping, { ...key, subresource: sub }),
      query,
      body: patch.body(obj),
      contentType: patch.contentType,
      signal: opts.signal,
    });
  }

  private writeQuery(opts: WriteOptions): Record<string, string | undefined> {
    return { dryRun: opts.dryRun ? 'All' : undefined, fieldManager: opts.fieldManager ?? this.opts.fieldOwner };
  }

  /** Sends a write; the cache, if it holds the kind, is told so reads wait for the write's echo. */
  private async sendWrite<T extends ClientObject>(mapping: ResourceMapping, req: HttpRequest): Promise<T> {
    const written = await this.transport.request<T>(req);
    const reader = this.opts.reader;
    if (written && reader?.observeWrite && reader.has(mapping.gvk))
      reader.observeWrite(mapping.gvk, written as unknown as KubeObject);
    return written;
  }

  /** Mapping and key of an object that must name itself fully. */
  private async locate(obj: ClientObject): Promise<{ mapping: ResourceMapping; key: ObjectKey }> {
    if (!obj.apiVersion || !obj.kind) throw new ClientUsageError('object has no apiVersion/kind');
    const name = obj.metadata?.name;
    if (!name) throw new ClientUsageError(`${obj.kind} has no metadata.name`);
    const mapping = await this.mapper.mapping(gvkFromApiVersion(obj.apiVersion, obj.kind));
    const key: ObjectKey = mapping.namespaced ? { namespace: obj.metadata?.namespace, name } : { name };
    requireNamespace(mapping, key);
    return { mapping, key };
  }
}

function deleteBody(opts: DeleteOptions): string {
  const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
  if (opts.propagationPolicy) body['propagationPolicy'] = opts.propagationPolicy;
  if (opts.preconditions) body['preconditions'] = opts.preconditions;
  if (opts.gracePeriodSeconds !== undefined) body['gracePeriodSeconds'] = opts.gracePeriodSeconds;
  // With a body the server reads DeleteOptions only from it and ignores query parameters.
  if (opts.dryRun) body['dryRun'] = ['All'];
  return JSON.stringify(body);
}

function requireNamespace(mapping: ResourceMapping, key: ObjectKey): void {
  if (mapping.namespaced && !key.namespace) {
    throw new ClientUsageError(`${mapping.gvk.kind} "${key.name}" is namespaced but no namespace was given`);
  }
}

/** A metadata-only answer (PartialObjectMetadata) as an object of the kind that was asked for. */
function asKind<T extends ClientObject>(obj: T, gvk: GroupVersionKind): T {
  return { ...obj, apiVersion: apiVersionOf(gvk), kind: gvk.kind };
}

/** Puts apiVersion/kind on an object that lacks them (list items, cache entries) without mutating it. */
function withTypeMeta<T extends ClientObject>(obj: T, gvk: GroupVersionKind): T {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(gvk), kind: obj.kind ?? gvk.kind };
}
