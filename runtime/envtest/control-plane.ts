/**
 * A real Kubernetes control plane for tests: etcd and kube-apiserver on loopback, an admin
 * kubeconfig, CRD installation, and a stop that leaves no process, port or directory behind
 * (but a `dataDir`, kept on purpose so that the next plane started on it has the same objects).
 * Several can run at once; each has its own ports, certificates and data. On request it is the
 * fuller plane: kube-controller-manager, kube-scheduler and kwok's fake nodes as well.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiServerExitedError, startApiServer, type ApiServerOptions, type RunningApiServer } from './apiserver.js';
import { ensureAssets, type BinaryAssets } from './assets.js';
import { generateCertificates } from './certs.js';
import {
  componentDir,
  controllerManagerArgs,
  schedulerArgs,
  startComponent,
  waitForNamespaceDefaults,
} from './components.js';
import { installCRDs, readCRDs, waitForCustomResources, waitForEstablished } from './crds.js';
import { compact, EtcdExitedError, etcdDataDir, startEtcd, type RunningEtcd } from './etcd.js';
import type { TlsIdentity } from './http.js';
import { adminKubeconfig } from './kubeconfig.js';
import { createFakeNodes, startKwok } from './kwok.js';
import { freePort } from './ports.js';
import { CleanupScope, type ManagedProcess } from './processes.js';
import {
  installCRDsWithWebhooks,
  installWebhooks,
  type InstalledWebhooks,
  type WebhookInstallOptions,
} from './webhooks.js';

export interface ControlPlaneOptions {
  /** CRD files or directories to install once the API server is ready. */
  crdDirectoryPaths?: string[];
  /**
   * A directory holding etcd and kube-apiserver; otherwise found as envtest does, and downloaded
   * into setup-envtest's cache when missing (see assets.ts).
   */
  binaryAssetsDirectory?: string;
  /** Where download progress goes, one line at a time (default: standard error). */
  progress?: (line: string) => void;
  /** Extra kube-apiserver flags, appended after the defaults. */
  apiServerFlags?: string[];
  /** Start (and CRD wait) timeout; envtest's default is 20 s. */
  startTimeoutMs?: number;
  /** Grace period before SIGKILL on stop. */
  stopTimeoutMs?: number;
  /**
   * The fuller plane: also start kube-controller-manager (every default controller: Deployments,
   * ReplicaSets, Jobs, garbage collection, namespace deletion, …) and kube-scheduler, plus kwok
   * for the fake nodes. Costs a few seconds of start-up and needs the binaries
   * scripts/control-plane.sh builds besides the envtest trio.
   */
  controllers?: boolean;
  /** How many fake (kwok) nodes to create with `controllers: true`; 1 by default, 0 for none. */
  nodes?: number;
  /**
   * Webhooks to register against a local server once the CRDs are in (envtest's
   * WebhookInstallOptions); the result is `plane.webhooks`. Without `conversionCRDs`, every
   * installed CRD whose conversion strategy is Webhook is pointed at the local server.
   */
  webhooks?: WebhookInstallOptions;
  /**
   * A directory that keeps etcd's data from one start to the next (created if missing, never
   * removed by `stop()` or the watchdog), so a later start on it sees the same objects. Everything
   * else (certificates, kubeconfig, logs) stays in the temporary directory and is made anew.
   * One plane at a time per directory.
   */
  dataDir?: string;
}

/** An option value the harness cannot start with. */
export class ControlPlaneOptionsError extends Error {
  override readonly name = 'ControlPlaneOptionsError';
}

/** The most fake nodes one plane gets (node i's pod network is 10.244.i.0/24). */
export const MAX_FAKE_NODES = 100;

function fakeNodeCount(options: ControlPlaneOptions): number {
  const nodes = options.nodes ?? (options.controllers ? 1 : 0);
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > MAX_FAKE_NODES) {
    throw new ControlPlaneOptionsError(
      `nodes: ${String(options.nodes)} is not a whole number from 0 to ${MAX_FAKE_NODES}; pass e.g. { controllers: true, nodes: 1 }`,
    );
  }
  if (nodes > 0 && !options.controllers) {
    throw new ControlPlaneOptionsError(
      `nodes: ${nodes} needs controllers: true (without a scheduler no pod reaches a node); pass { controllers: true, nodes: ${nodes} }`,
    );
  }
  return nodes;
}

export interface ControlPlane {
  /** https://127.0.0.1:<port> */
  readonly server: string;
  readonly etcdUrl: string;
  /** Admin (system:masters) configuration, in memory and on disk. */
  readonly kubeConfig: KubeConfig;
  readonly kubeconfigYaml: string;
  readonly kubeconfigPath: string;
  readonly assets: BinaryAssets;
  installCRDs(paths: string[]): Promise<void>;
  /**
   * Waits for CRDs installed by other means (kubectl, helm, the code under test) to be usable:
   * Established=True, as the API server sets it, and served in discovery. Every CRD when no name
   * is given.
   */
  waitForCRDs(names?: readonly string[], timeoutMs?: number): Promise<void>;
  /**
   * Registers webhook configurations (and CRD conversion) against a local server with a CA made
   * for it; start the manager's webhook server with the returned `serverOptions`.
   */
  installWebhooks(options: WebhookInstallOptions): Promise<InstalledWebhooks>;
  /**
   * What `crdDirectoryPaths` and `webhooks` do at start, on the running plane: CRDs whose
   * conversion goes to the local server are created pointing at it (installCRDs then
   * installWebhooks patches them instead, which the API server follows a moment later).
   */
  install(options: Pick<ControlPlaneOptions, 'crdDirectoryPaths' | 'webhooks'>): Promise<InstalledWebhooks | undefined>;
  /** What `options.webhooks` installed at start. */
  readonly webhooks: InstalledWebhooks | undefined;
  /** Stops only the API server (etcd keeps the data), to simulate an outage. */
  stopApiServer(): Promise<void>;
  /**
   * Starts the API server again on the same port and etcd; resolves once it is ready and every
   * established CRD is served again.
   */
  startApiServer(): Promise<void>;
  /**
   * Freezes the API server (SIGSTOP): connections stay open and requests hang without an answer,
   * as with a hung server or a network partition. `thawApiServer()` (SIGCONT) resumes it.
   */
  freezeApiServer(): void;
  thawApiServer(): void;
  /**
   * How long the latest API server start took from launch to its first answer: what a restart
   * adds to an outage. `apiServerOutage()` (runtime/testing) launches the restart this much early.
   */
  readonly apiServerBootMs: number;
  /** The names of the fake nodes (`controllers: true`), in creation order. */
  readonly nodeNames: readonly string[];
  /**
   * Compacts etcd to its current revision. Requests that reach etcd with an older resourceVersion
   * then get 410 Gone. The API server answers watches and lists from its watch cache, which does
   * not forget on compaction: start with `apiServerFlags: ['--watch-cache=false']` to see 410 on
   * watches right away, or restart the API server after compacting.
   */
  compactEtcd(): Promise<number>;
  stop(): Promise<void>;
}

const PORT_ATTEMPTS = 3;

export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const nodeCount = fakeNodeCount(options);
  const assets = await ensureAssets(
    options.binaryAssetsDirectory,
    process.env,
    { controllers: options.controllers === true },
    options.progress ? { progress: options.progress } : {},
  );
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const etcdData = options.dataDir === undefined ? undefined : keptEtcdDataDir(options.dataDir);
  const dir = mkdtempSync(join(tmpdir(), 'tsop-envtest-'));
  const scope = new CleanupScope(dir);
  try {
    const certs = generateCertificates();
    const tls: TlsIdentity = { ca: certs.ca.certPem, cert: certs.admin.certPem, key: certs.admin.keyPem };
    mkdirSync(join(dir, 'apiserver'));

    let etcd: RunningEtcd | undefined;
    let apiServer: RunningApiServer | undefined;
    let apiOptions: ApiServerOptions | undefined;
    // Ports are picked free but may be taken by a parallel harness before we bind: retry.
    for (let attempt = 1; !apiServer; attempt++) {
      etcd = await startEtcd(scope, {
        binary: assets.etcd,
        dataDir: etcdData ?? etcdDataDir(dir),
        clientPort: await freePort(),
        logFile: join(dir, 'etcd.log'),
        startTimeoutMs,
      }).catch((error: unknown) => {
        // Only a port taken in the meantime is worth another try; any other failure is final.
        if (error instanceof EtcdExitedError && error.portInUse && attempt < PORT_ATTEMPTS) return undefined;
        throw error;
      });
      if (!etcd) continue;
      apiOptions = {
        binary: assets.kubeApiserver,
        dir: join(dir, 'apiserver'),
        etcdUrl: etcd.url,
        securePort: await freePort(),
        certs,
        logFile: join(dir, 'kube-apiserver.log'),
        startTimeoutMs,
        extraFlags: options.apiServerFlags ?? [],
      };
      try {
        apiServer = await startApiServer(scope, apiOptions, tls);
      } catch (error) {
        if (!(error instanceof ApiServerExitedError && error.portInUse) || attempt >= PORT_ATTEMPTS) throw error;
        await etcd.process.stop(stopTimeoutMs);
      }
    }
    if (!etcd || !apiOptions) throw new Error('unreachable: control plane started without etcd');

    const server = `https://127.0.0.1:${apiOptions.securePort}`;
    const kubeconfigYaml = adminKubeconfig(server, certs);
    const kubeconfigPath = join(dir, 'kubeconfig');
    writeFileSync(kubeconfigPath, kubeconfigYaml, { mode: 0o600 });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(kubeconfigYaml);

    // CRDs before the controllers, so the garbage collector knows their kinds from its first
    // discovery instead of its next one (every 30 s).
    let webhookDirs = 0;
    const servingDir = (): string => join(dir, `webhook-serving-${webhookDirs++}`);
    const install = (paths: readonly string[], webhookOptions?: WebhookInstallOptions) =>
      installCRDsWithWebhooks(
        server,
        tls,
        paths.length ? readCRDs(paths) : [],
        webhookOptions,
        servingDir,
        startTimeoutMs,
      );
    const webhooks = await install(options.crdDirectoryPaths ?? [], options.webhooks);
    const fuller = options.controllers
      ? await startFullerPlane(scope, { dir, assets, kubeconfigPath, startTimeoutMs })
      : [];
    if (options.controllers) await waitForNamespaceDefaults(server, tls, 'default', startTimeoutMs);
    const nodeNames = nodeCount > 0 ? await createFakeNodes(server, tls, nodeCount, startTimeoutMs) : [];

    const runningEtcd = etcd;
    const startedApiOptions = apiOptions;
    let bootMs = apiServer.answeringAfterMs;
    let stopped = false;
    const plane: ControlPlane = {
      server,
      etcdUrl: runningEtcd.url,
      kubeConfig,
      kubeconfigYaml,
      kubeconfigPath,
      assets,
      installCRDs: (paths) => installCRDs(server, tls, readCRDs(paths), startTimeoutMs),
      install: (o) => install(o.crdDirectoryPaths ?? [], o.webhooks),
      waitForCRDs: (names = [], timeoutMs = 60_000) => waitForEstablished(server, tls, names, timeoutMs),
      installWebhooks: (o) => installWebhooks(server, tls, servingDir(), o),
      webhooks,
      stopApiServer: async () => {
        await apiServer?.process.stop(stopTimeoutMs);
        apiServer = undefined;
      },
      startApiServer: async () => {
        if (apiServer && !apiServer.process.hasExited()) return;
        apiServer = await startApiServer(scope, startedApiOptions, tls);
        bootMs = apiServer.answeringAfterMs;
        await waitForCustomResources(server, tls, startTimeoutMs);
      },
      get apiServerBootMs(): number {
        return bootMs;
      },
      freezeApiServer: () => apiServer?.process.signal('SIGSTOP'),
      thawApiServer: () => apiServer?.process.signal('SIGCONT'),
      nodeNames,
      compactEtcd: () => compact(runningEtcd.url),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        // Clients of the API server first, so none of them logs errors about it going away.
        await Promise.all(fuller.map((p) => p.stop(stopTimeoutMs)));
        await apiServer?.process.stop(stopTimeoutMs);
        await runningEtcd.process.stop(stopTimeoutMs);
        scope.closeSync();
      },
    };
    return plane;
  } catch (error) {
    scope.closeSync();
    throw error;
  }
}

/**
 * etcd's folder inside a kept data dir (its own subfolder, so the dir can hold more later):
 * created if missing; refused while another etcd holds it, since etcd would wait on its lock.
 */
function keptEtcdDataDir(dataDir: string): string {
  const root = resolve(dataDir);
  if (existsSync(root) && !statSync(root).isDirectory()) {
    throw new ControlPlaneOptionsError(`dataDir: ${root} is not a directory; pass a folder (it is created if missing)`);
  }
  const etcd = etcdDataDir(root);
  mkdirSync(etcd, { recursive: true, mode: 0o700 });
  const holder = etcdHolder(etcd);
  if (holder !== undefined) {
    throw new ControlPlaneOptionsError(
      `dataDir: ${root} is in use by a running etcd (pid ${holder}); stop that control plane first or use another folder`,
    );
  }
  return etcd;
}

/** The pid of a live etcd whose --data-dir is `etcd`, read from /proc (Linux); undefined if none or unknown. */
function etcdHolder(etcd: string): number | undefined {
  if (!existsSync('/proc')) return undefined;
  const flag = `--data-dir=${etcd}`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(flag)) return Number(entry);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return undefined;
}

/** kube-controller-manager, kube-scheduler and kwok, started side by side; resolves when all are healthy. */
async function startFullerPlane(
  scope: CleanupScope,
  plane: { dir: string; assets: BinaryAssets; kubeconfigPath: string; startTimeoutMs: number },
): Promise<ManagedProcess[]> {
  const { dir, assets, kubeconfigPath, startTimeoutMs } = plane;
  // ensureAssets has checked they exist; this keeps the types honest.
  const binary = (path: string | undefined, name: string): string => {
    if (!path) throw new Error(`unreachable: ${name} was not located`);
    return path;
  };
  const files = (name: string) => ({ dir: componentDir(dir, name), kubeconfigPath });
  const apiserverDir = join(dir, 'apiserver');
  return Promise.all([
    startComponent(scope, {
      name: 'kube-controller-manager',
      binary: binary(assets.kubeControllerManager, 'kube-controller-manager'),
      dir: componentDir(dir, 'kube-controller-manager'),
      logFile: join(dir, 'kube-controller-manager.log'),
      startTimeoutMs,
      args: (port) =>
        controllerManagerArgs(
          {
            ...files('kube-controller-manager'),
            serviceAccountKeyFile: join(apiserverDir, 'sa.key'),
            rootCaFile: join(apiserverDir, 'ca.crt'),
          },
          port,
        ),
    }),
    startComponent(scope, {
      name: 'kube-scheduler',
      binary: binary(assets.kubeScheduler, 'kube-scheduler'),
      dir: componentDir(dir, 'kube-scheduler'),
      logFile: join(dir, 'kube-scheduler.log'),
      startTimeoutMs,
      args: (port) => schedulerArgs(files('kube-scheduler'), port),
    }),
    startKwok(scope, {
      binary: binary(assets.kwok, 'kwok'),
      dir: componentDir(dir, 'kwok'),
      kubeconfigPath,
      logFile: join(dir, 'kwok.log'),
      startTimeoutMs,
    }),
  ]);
}
