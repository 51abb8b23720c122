/**
 * What a user can get wrong when starting an operator, found before anything runs: a kubeconfig
 * whose current context names nothing usable, an API server that does not answer, a watched
 * kind that is not served (its CRD not installed), a leader-election namespace that does not
 * exist, a port in use. Each is a StartupError whose message is one line: what, which value,
 * and how to fix it. Without these checks the same mistakes show up as retries until the cache
 * sync timeout (two minutes) or, for the Lease, forever.
 */
import { apiVersionOf, type GroupVersionKind } from '../apimachinery/model.js';
import type { KubeConfigSource } from '../kubeconfig/index.js';
import { HttpStatusError, requestJSON, TransportError } from '../rest/index.js';
import { NoKindMatchError, type RESTMapper } from '../restmapper/index.js';
import { CertificateLoadError } from '../certs/index.js';

/** A start-up failure the user can fix; the message says how. */
export class StartupError extends Error {
  override readonly name: string = 'StartupError';
}

/** The kubeconfig's current context is missing or names a cluster or user it does not define. */
export class KubeConfigContextError extends StartupError {
  override readonly name = 'KubeConfigContextError';
}

/** The API server did not answer at all (refused, unknown host, TLS failure). */
export class ApiServerUnreachableError extends StartupError {
  override readonly name = 'ApiServerUnreachableError';
}

/** The API server answered with an error status to a start-up check (401, 403, …). */
export class ApiServerRefusedError extends StartupError {
  override readonly name = 'ApiServerRefusedError';
}

/** A kind the operator watches is not served by the API server. */
export class KindNotServedError extends StartupError {
  override readonly name = 'KindNotServedError';
}

/** The namespace of the leader-election Lease does not exist. */
export class LeaseNamespaceError extends StartupError {
  override readonly name = 'LeaseNamespaceError';
}

/** A server of the manager could not listen on its address. */
export class ListenError extends StartupError {
  override readonly name = 'ListenError';
}

/** The optional parts of a kubeconfig both client-node's KubeConfig and LoadedKubeConfig have. */
interface ContextLookup {
  getCurrentContext?(): string;
  getContextObject?(name: string): { cluster: string; user: string } | null;
}

/**
 * Throws KubeConfigContextError unless the current context names a cluster (and the user it
 * names, if any) the kubeconfig defines, as client-go's ConfirmUsable does.
 */
export function checkKubeConfig(source: KubeConfigSource): void {
  if (source.getCurrentCluster() && (source.getCurrentUser() || !namedUser(source))) return;
  const where = origin();
  const lookup = source as KubeConfigSource & ContextLookup;
  const current = lookup.getCurrentContext?.() ?? '';
  if (!current)
    throw new KubeConfigContextError(
      `kubeconfig${where} has no current-context; choose one with 'kubectl config use-context <name>'`,
    );
  const ctx = lookup.getContextObject?.(current);
  if (!ctx)
    throw new KubeConfigContextError(
      `kubeconfig${where}: current-context "${current}" is not defined under contexts; add it or choose another with 'kubectl config use-context <name>'`,
    );
  if (!source.getCurrentCluster()) {
    throw new KubeConfigContextError(
      `kubeconfig${where}: context "${current}" names cluster "${ctx.cluster}", which is not defined under clusters; add it or point the context at a defined cluster`,
    );
  }
  throw new KubeConfigContextError(
    `kubeconfig${where}: context "${current}" names user "${ctx.user}", which is not defined under users; add it or point the context at a defined user`,
  );
}

function namedUser(source: KubeConfigSource): boolean {
  const lookup = source as KubeConfigSource & ContextLookup;
  const current = lookup.getCurrentContext?.();
  return Boolean(current && lookup.getContextObject?.(current)?.user);
}

/** ' (KUBECONFIG=…)' when the variable chose the file, as loadKubeConfig reads it first. */
function origin(): string {
  const env = process.env['KUBECONFIG'];
  return env ? ` (KUBECONFIG=${env})` : '';
}

export interface StartupChecks {
  kubeConfig: KubeConfigSource;
  mapper: RESTMapper;
  /** Every kind the cache will list and watch. */
  kinds: readonly GroupVersionKind[];
  /** The leader-election Lease, when leader election is on. */
  lease?: { namespace: string; name: string };
  signal?: AbortSignal;
  /** Waits between attempts while the server does not answer or a kind is not served yet (default about 5 s in all). */
  retryDelaysMs?: readonly number[];
}

/**
 * Resolves each kind through discovery and checks that the Lease's namespace exists (a dry-run
 * create, which the leader-election Role allows). Sends nothing when there is nothing to check.
 */
export async function runStartupChecks(c: StartupChecks): Promise<void> {
  const server = c.kubeConfig.getCurrentCluster()?.server ?? '(no server)';
  const delays = c.retryDelaysMs ?? [250, 500, 1_000, 1_500, 2_000];
  // More tries for a server that may be restarting, and for a CRD applied just before the
  // operator started: the API server serves its kind only once it is Established.
  const attempt = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let i = 0; ; i++) {
      try {
        return await call();
      } catch (err) {
        const transient = err instanceof TransportError || err instanceof NoKindMatchError;
        if (!transient || i >= delays.length || c.signal?.aborted) throw toStartupError(err, server);
        await new Promise((r) => setTimeout(r, delays[i]));
      }
    }
  };
  for (const gvk of c.kinds) {
    try {
      await attempt(() => c.mapper.mapping(gvk));
    } catch (err) {
      if (err instanceof NoKindMatchError) throw notServed(gvk, server);
      throw err;
    }
  }
  if (c.lease) await attempt(() => checkLeaseNamespace(c.kubeConfig, c.lease!, server, c.signal));
}

async function checkLeaseNamespace(
  kubeConfig: KubeConfigSource,
  lease: { namespace: string; name: string },
  server: string,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await requestJSON(kubeConfig, {
      method: 'POST',
      path: `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(lease.namespace)}/leases`,
      query: { dryRun: 'All' },
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: lease.name } },
      signal,
    });
  } catch (err) {
    // 409: the Lease exists, so its namespace does too.
    if (err instanceof HttpStatusError && err.code === 409) return;
    if (err instanceof HttpStatusError && err.code === 404) {
      throw new LeaseNamespaceError(
        `leader election: namespace "${lease.namespace}" of the Lease ${lease.name} does not exist ` +
          `on ${server}; create it (kubectl create namespace ${lease.namespace}) or run with ` +
          `POD_NAMESPACE set to an existing namespace`,
      );
    }
    throw err;
  }
}

function notServed(gvk: GroupVersionKind, server: string): KindNotServedError {
  const what = `kind ${gvk.kind} (${apiVersionOf(gvk)}) is not served by the API server at ${server}`;
  // Built-in groups have no dot or end in .k8s.io; anything else comes from a CRD.
  const builtIn = !gvk.group.includes('.') || gvk.group.endsWith('.k8s.io');
  return new KindNotServedError(
    builtIn
      ? `${what}; the cluster does not enable that API version (check 'kubectl api-versions')`
      : `${what}: its CRD is not installed; install it with 'npm run install-crds' (kubectl apply -k config/crd)`,
  );
}

function toStartupError(err: unknown, server: string): unknown {
  if (err instanceof TransportError) {
    const cause = err.message.replace(/^[A-Z]+ \S+: /, '');
    return new ApiServerUnreachableError(
      `cannot reach the API server at ${server} (${cause}); start the cluster, or point the kubeconfig at one that runs`,
    );
  }
  if (err instanceof HttpStatusError && (err.code === 401 || err.code === 403)) {
    const fix =
      err.code === 401
        ? 'renew the credentials of the kubeconfig user'
        : 'grant the operator that permission (config/rbac)';
    return new ApiServerRefusedError(`the API server at ${server} answered ${err.code}: ${err.message}; ${fix}`);
  }
  return err;
}

/**
 * A listen failure of the server `what` on `address`, with the flag that sets it; a certificate
 * that cannot be read names the flags that say where it is (`certFlags`).
 */
export function listenError(err: unknown, what: string, address: string, flag: string, certFlags?: string): unknown {
  if (err instanceof CertificateLoadError && certFlags)
    return new CertificateLoadError(`${what} certificate: ${err.message}; check ${certFlags}`);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'EADDRINUSE'
      ? 'the address is already in use; stop what listens there or'
      : code === 'EACCES'
        ? 'permission denied (ports below 1024 need privileges);'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? 'this host has no such address;'
          : undefined;
  if (!why) return err;
  return new ListenError(`cannot serve ${what} on ${address}: ${why} choose another address with ${flag}`);
}
