/**
 * Kind → resource mapping from API discovery, plus `resourcePath`, which builds the URL path
 * of a collection, an object or a subresource. Discovery answers are cached per group version;
 * a kind that is not found triggers one fresh lookup, so CRDs installed later are still found.
 */
// From apimachinery's file, not its index: until 0.3.0 the index re-exports this module (deprecated), so it would import itself.
import { apiVersionOf, type GroupVersionKind } from '../apimachinery/model.js';
import { HttpStatusError, requestJSON, type ConnectionSource, type RequestMetrics } from '../rest/index.js';

export interface ResourceMapping {
  gvk: GroupVersionKind;
  /** lower-case plural resource name ('deployments') */
  plural: string;
  namespaced: boolean;
}

/** The API server does not serve this kind (client-go's NoKindMatchError). */
export class NoKindMatchError extends Error {
  override readonly name = 'NoKindMatchError';
  constructor(readonly gvk: GroupVersionKind) {
    super(`no matches for kind "${gvk.kind}" in version "${apiVersionOf(gvk)}"`);
  }
}

interface APIResource {
  name: string;
  kind: string;
  namespaced: boolean;
}
interface APIResourceList {
  resources?: APIResource[];
}

type KindTable = Map<string, { plural: string; namespaced: boolean }>;

/** Base path of a group version: '/api/v1' for core, '/apis/<group>/<version>' otherwise. */
export function groupVersionPath(gv: Pick<GroupVersionKind, 'group' | 'version'>): string {
  return gv.group ? `/apis/${gv.group}/${gv.version}` : `/api/${gv.version}`;
}

export interface PathOptions {
  /** omit for cluster-scoped kinds, or for a list across all namespaces */
  namespace?: string;
  name?: string;
  /** 'status', 'scale', … — needs `name` */
  subresource?: string;
}

/** '/apis/apps/v1/namespaces/ns/deployments/name/status' and every shorter form. */
export function resourcePath(m: ResourceMapping, opts: PathOptions = {}): string {
  let path = groupVersionPath(m.gvk);
  if (m.namespaced && opts.namespace) path += `/namespaces/${encodeURIComponent(opts.namespace)}`;
  path += `/${m.plural}`;
  if (opts.name) {
    path += `/${encodeURIComponent(opts.name)}`;
    if (opts.subresource) path += `/${opts.subresource}`;
  } else if (opts.subresource) {
    throw new Error(`subresource "${opts.subresource}" needs an object name`);
  }
  return path;
}

export class RESTMapper {
  // Promises, not tables, so concurrent lookups of one group version share one request.
  private readonly tables = new Map<string, Promise<KindTable>>();

  /** `metrics` counts discovery requests in rest_client_requests_total, as client-go does. */
  constructor(
    private readonly source: ConnectionSource,
    private readonly opts: { metrics?: RequestMetrics } = {},
  ) {}

  /** Resolves the plural and scope of `gvk`; throws `NoKindMatchError` when it is not served. */
  async mapping(gvk: GroupVersionKind): Promise<ResourceMapping> {
    let found = (await this.table(gvk)).get(gvk.kind);
    if (!found) {
      // A miss may be a CRD installed after the last lookup: forget this group version, ask again.
      this.tables.delete(apiVersionOf(gvk));
      found = (await this.table(gvk)).get(gvk.kind);
    }
    if (!found) throw new NoKindMatchError(gvk);
    return { gvk: { ...gvk }, plural: found.plural, namespaced: found.namespaced };
  }

  /** Forgets every cached discovery answer. */
  reset(): void {
    this.tables.clear();
  }

  private table(gvk: GroupVersionKind): Promise<KindTable> {
    const gv = apiVersionOf(gvk);
    let table = this.tables.get(gv);
    if (!table) {
      table = this.discover(gvk);
      this.tables.set(gv, table);
      // Failed lookups are not cached, so the next call retries.
      table.catch(() => {
        if (this.tables.get(gv) === table) this.tables.delete(gv);
      });
    }
    return table;
  }

  private async discover(gvk: GroupVersionKind): Promise<KindTable> {
    const table: KindTable = new Map();
    let list: APIResourceList;
    try {
      list = await requestJSON<APIResourceList>(this.source, {
        path: groupVersionPath(gvk),
        metrics: this.opts.metrics,
      });
    } catch (err) {
      // An unknown group version is an empty table; the caller reports NoKindMatchError.
      if (err instanceof HttpStatusError && err.code === 404) return table;
      throw err;
    }
    for (const r of list.resources ?? []) {
      if (r.name.includes('/')) continue; // subresources ('deployments/status') share the kind
      table.set(r.kind, { plural: r.name, namespaced: r.namespaced });
    }
    return table;
  }
}
