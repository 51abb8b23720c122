/**
 * A real Kubernetes control plane for tests: etcd and kube-apiserver on loopback, an admin
 * kubeconfig, CRD installation, and a stop that leaves no process, port or directory behind.
 * Several can run at once; each has its own ports, certificates and data.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiServerExitedError, startApiServer, type ApiServerOptions, type RunningApiServer } from './apiserver.js';
import { requireAssets, type BinaryAssets } from './assets.js';
import { generateCertificates } from './certs.js';
import { installCRDs, readCRDs } from './crds.js';
import { compact, etcdDataDir, startEtcd, type RunningEtcd } from './etcd.js';
import type { TlsIdentity } from './http.js';
import { adminKubeconfig } from './kubeconfig.js';
import { freePort } from './ports.js';
import { CleanupScope } from './processes.js';

export interface ControlPlaneOptions {
  /** CRD files or directories to install once the API server is ready. */
  crdDirectoryPaths?: string[];
  /** A directory holding etcd and kube-apiserver; otherwise found as envtest does (see assets.ts). */
  binaryAssetsDirectory?: string;
  /** Extra kube-apiserver flags, appended after the defaults. */
  apiServerFlags?: string[];
  /** Start (and CRD wait) timeout; envtest's default is 20 s. */
  startTimeoutMs?: number;
  /** Grace period before SIGKILL on stop. */
  stopTimeoutMs?: number;
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
  /** Stops only the API server (etcd keeps the data), to simulate an outage. */
  stopApiServer(): Promise<void>;
  /** Starts the API server again on the same port and etcd. */
  startApiServer(): Promise<void>;
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
  const assets = requireAssets(options.binaryAssetsDirectory);
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
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
        dataDir: etcdDataDir(dir),
        clientPort: await freePort(),
        logFile: join(dir, 'etcd.log'),
        startTimeoutMs,
      }).catch((error: unknown) => {
        if (attempt < PORT_ATTEMPTS) return undefined;
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

    const runningEtcd = etcd;
    const startedApiOptions = apiOptions;
    let stopped = false;
    const plane: ControlPlane = {
      server,
      etcdUrl: runningEtcd.url,
      kubeConfig,
      kubeconfigYaml,
      kubeconfigPath,
      assets,
      installCRDs: (paths) => installCRDs(server, tls, readCRDs(paths), startTimeoutMs),
      stopApiServer: async () => {
        await apiServer?.process.stop(stopTimeoutMs);
        apiServer = undefined;
      },
      startApiServer: async () => {
        if (apiServer && !apiServer.process.hasExited()) return;
        apiServer = await startApiServer(scope, startedApiOptions, tls);
      },
      compactEtcd: () => compact(runningEtcd.url),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await apiServer?.process.stop(stopTimeoutMs);
        await runningEtcd.process.stop(stopTimeoutMs);
        scope.closeSync();
      },
    };
    if (options.crdDirectoryPaths?.length) await plane.installCRDs(options.crdDirectoryPaths);
    return plane;
  } catch (error) {
    scope.closeSync();
    throw error;
  }
}
