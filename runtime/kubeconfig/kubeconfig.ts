/**
 * loadKubeConfig: where the operator finds its API server and credentials, read the way
 * @kubernetes/client-node's `KubeConfig.loadFromDefault()` reads them — the files of $KUBECONFIG
 * (merged, a later file's current-context winning), else ~/.kube/config, else the in-cluster
 * ServiceAccount, else http://localhost:8080 — with the same clusters, users and contexts.
 *
 * Why not client-node's class: importing it evaluates all of client-node's generated API models
 * (about 70 MiB of RSS, half an operator's peak, for three methods). The runtime needs only the
 * current cluster and user (rest/connection.ts, credentials.ts); what only client-node knows — auth
 * providers (oidc, azure, gcp), proxy-url agents — loads it on first use (`applyToHTTPSOptions`),
 * and `toClientNode()` hands its full KubeConfig to code that wants client-node's API clients.
 */
import { accessSync, readFileSync } from 'node:fs';
import type * as https from 'node:https';
import { isIPv6 } from 'node:net';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { Cluster, Context, KubeConfig, User } from '@kubernetes/client-node';
import { parseYaml } from './yaml.js';

/** What the runtime reads from a kubeconfig; client-node's KubeConfig and loadKubeConfig()'s both have it. */
export interface KubeConfigSource {
  getCurrentCluster(): Cluster | null;
  getCurrentUser(): User | null;
  /** Sets the credential (headers, or a proxy agent) of the current user and cluster on `opts`. */
  applyToHTTPSOptions(opts: https.RequestOptions): Promise<void>;
}

/** A kubeconfig file could not be read or names something incomplete. */
export class KubeConfigError extends Error {
  override readonly name = 'KubeConfigError';
}

/** The ServiceAccount files a pod gets (client-go's in-cluster config). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface LoadKubeConfigOptions {
  /** Where the in-cluster ServiceAccount files are; default SERVICE_ACCOUNT_DIR. */
  serviceAccountDir?: string;
}

/** A loaded kubeconfig: its clusters, users, contexts and current context, as client-node models them. */
export class LoadedKubeConfig implements KubeConfigSource {
  private full: Promise<KubeConfig> | undefined;

  constructor(
    readonly clusters: Cluster[],
    readonly users: User[],
    readonly contexts: Context[],
    readonly currentContext: string,
  ) {}

  getCurrentContext(): string {
    return this.currentContext;
  }

  getContextObject(name: string): Context | null {
    return this.contexts.find((c) => c.name === name) ?? null;
  }

  getCurrentCluster(): Cluster | null {
    const ctx = this.getContextObject(this.currentContext);
    return ctx ? (this.clusters.find((c) => c.name === ctx.cluster) ?? null) : null;
  }

  getCurrentUser(): User | null {
    const ctx = this.getContextObject(this.currentContext);
    return ctx ? (this.users.find((u) => u.name === ctx.user) ?? null) : null;
  }

  async applyToHTTPSOptions(opts: https.RequestOptions): Promise<void> {
    await (await this.toClientNode()).applyToHTTPSOptions(opts);
  }

  /** client-node's KubeConfig with the same contents (loads client-node, once). */
  toClientNode(): Promise<KubeConfig> {
    this.full ??= import('@kubernetes/client-node').then(({ KubeConfig }) => {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: this.clusters,
        users: this.users,
        contexts: this.contexts,
        currentContext: this.currentContext,
      });
      return kc;
    });
    return this.full;
  }
}

/** Loads the kubeconfig as client-node's `loadFromDefault()` does (see the module comment). */
export function loadKubeConfig(opts: LoadKubeConfigOptions = {}): LoadedKubeConfig {
  const env = process.env['KUBECONFIG'];
  if (env) {
    const files = env.split(delimiter).filter(Boolean);
    const first = loadKubeConfigFile(files[0]!);
    let { currentContext } = first;
    const merged = { clusters: [...first.clusters], users: [...first.users], contexts: [...first.contexts] };
    for (const file of files.slice(1)) {
      const next = loadKubeConfigFile(file);
      if (next.currentContext) currentContext = next.currentContext;
      addAll(file, 'cluster', merged.clusters, next.clusters);
      addAll(file, 'user', merged.users, next.users);
      addAll(file, 'context', merged.contexts, next.contexts);
    }
    return new LoadedKubeConfig(merged.clusters, merged.users, merged.contexts, currentContext);
  }
  // client-node also tries %HOMEDRIVE%%HOMEPATH% and WSL on Windows; HOME, then USERPROFILE, here.
  const home = process.env['HOME'] || (process.platform === 'win32' ? process.env['USERPROFILE'] : undefined);
  if (home && exists(home) && exists(join(home, '.kube', 'config')))
    return loadKubeConfigFile(join(home, '.kube', 'config'));
  const sa = opts.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  if (exists(join(sa, 'token'))) return inCluster(sa);
  // client-node leaves skipTLSVerify out here (read as false).
  const local = { name: 'cluster', server: 'http://localhost:8080' } as Cluster;
  return new LoadedKubeConfig(
    [local],
    [{ name: 'user' }],
    [{ name: 'loaded-context', cluster: 'cluster', user: 'user' }],
    'loaded-context',
  );
}

/** One kubeconfig file; relative certificate and key paths are taken from its folder. */
export function loadKubeConfigFile(file: string): LoadedKubeConfig {
  let doc: Record<string, unknown> | null;
  try {
    // js-yaml's default schema, as client-node reads it: timestamps become Dates, `<<` merges.
    doc = parseYaml(readFileSync(file, 'utf8'), { customTags: ['timestamp'], merge: true }) as Record<
      string,
      unknown
    > | null;
  } catch (err) {
    throw new KubeConfigError(
      `kubeconfig ${file}: ${(err as Error).message.split('\n')[0]!.replace(/:$/, '')}; point KUBECONFIG at a readable kubeconfig file`,
    );
  }
  const where = (what: string) => new KubeConfigError(`kubeconfig ${file}: ${what} is missing; every entry needs it`);
  const list = (key: string): Array<Record<string, unknown>> =>
    Array.isArray(doc?.[key]) ? (doc[key] as Array<Record<string, unknown>>) : [];
  const root = dirname(file);
  const clusters = list('clusters').map((e, i): Cluster => {
    const c = e['cluster'] as Record<string, string | boolean | undefined> | undefined;
    if (!e['name']) throw where(`clusters[${i}].name`);
    if (!c) throw where(`clusters[${i}].cluster`);
    if (!c['server']) throw where(`clusters[${i}].cluster.server`);
    const caFile = c['certificate-authority'] as string | undefined;
    return {
      caData: c['certificate-authority-data'] as string | undefined,
      caFile: caFile ? absolute(root, caFile) : caFile,
      name: e['name'] as string,
      server: String(c['server']).replace(/\/$/, ''),
      skipTLSVerify: c['insecure-skip-tls-verify'] === true,
      tlsServerName: c['tls-server-name'] as string | undefined,
      proxyUrl: c['proxy-url'] as string | undefined,
    };
  });
  const contexts = list('contexts').map((e, i): Context => {
    const c = e['context'] as Record<string, string | undefined> | undefined;
    if (!e['name']) throw where(`contexts[${i}].name`);
    if (!c) throw where(`contexts[${i}].context`);
    if (!c['cluster']) throw where(`contexts[${i}].context.cluster`);
    return {
      cluster: c['cluster'],
      name: e['name'] as string,
      user: c['user'] || (undefined as unknown as string),
      namespace: c['namespace'] || undefined,
    };
  });
  const users = list('users').map((e, i): User => {
    if (!e['name']) throw where(`users[${i}].name`);
    const u = e['user'] as Record<string, unknown> | undefined;
    // client-node's shape: a user without a `user` map gets nulls.
    const field = <T>(key: string): T => (u ? u[key] : null) as T;
    const certFile = field<string | undefined>('client-certificate');
    const keyFile = field<string | undefined>('client-key');
    return {
      authProvider: field('auth-provider'),
      certData: field('client-certificate-data'),
      certFile: certFile ? absolute(root, certFile) : certFile,
      exec: field('exec'),
      keyData: field('client-key-data'),
      keyFile: keyFile ? absolute(root, keyFile) : keyFile,
      name: e['name'] as string,
      token: tokenOf(file, u),
      password: field('password'),
      username: field('username'),
      impersonateUser: field('as'),
    };
  });
  return new LoadedKubeConfig(clusters, users, contexts, doc?.['current-context'] as string);
}

/** client-go's in-cluster config: the service's host and port, the ServiceAccount's CA, token and namespace. */
function inCluster(dir: string): LoadedKubeConfig {
  const host = process.env['KUBERNETES_SERVICE_HOST'];
  const port = process.env['KUBERNETES_SERVICE_PORT'];
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const server = `${scheme}://${host && isIPv6(host) ? `[${host}]` : host}:${port}`;
  const nsFile = join(dir, 'namespace');
  const namespace = exists(nsFile) ? readFileSync(nsFile, 'utf8') : undefined;
  return new LoadedKubeConfig(
    [{ name: 'inCluster', caFile: join(dir, 'ca.crt'), server, skipTLSVerify: false }],
    [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } } }],
    [{ cluster: 'inCluster', name: 'inClusterContext', user: 'inClusterUser', namespace }],
    'inClusterContext',
  );
}

/** A user's token, or its token-file read once (relative to the working directory, as client-node reads it). */
function tokenOf(file: string, u: Record<string, unknown> | undefined): string | undefined {
  if (!u) return undefined;
  if (u['token']) return u['token'] as string;
  const path = u['token-file'];
  if (!path) return undefined;
  try {
    return readFileSync(String(path), 'utf8');
  } catch (err) {
    throw new KubeConfigError(
      `kubeconfig ${file}: token-file ${String(path)} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); fix the path or the file`,
    );
  }
}

function addAll<T extends { name: string }>(file: string, what: string, into: T[], from: T[]): void {
  for (const item of from) {
    if (into.some((x) => x.name === item.name)) {
      throw new KubeConfigError(
        `kubeconfig ${file}: ${what} "${item.name}" is also in an earlier file of KUBECONFIG; give it another name in one of them`,
      );
    }
    into.push(item);
  }
}

const absolute = (root: string, file: string) => (isAbsolute(file) ? file : join(root, file));

function exists(path: string): boolean {
  try {
    accessSync(path);
    return true;
  } catch {
    return false;
  }
}
