/**
 * A control plane started by another process, reached through what that process hands over (its
 * address, admin kubeconfig and binaries). Everything that goes through the API works as on a
 * plane of one's own, webhooks included (their serving certificates go to temp folders of this
 * process, removed by `stop()`); what needs the processes themselves (stopping or freezing the API
 * server, compacting etcd) belongs to its owner and is refused with one line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { BinaryAssets } from './assets.js';
import type { ControlPlane } from './control-plane.js';
import { installCRDs, readCRDs, waitForEstablished } from './crds.js';
import type { TlsIdentity } from './http.js';
import { installCRDsWithWebhooks, installWebhooks } from './webhooks.js';

/** What a plane's owner hands to the processes that attach to it: plain, serialisable data. */
export interface ControlPlaneConnection {
  server: string;
  etcdUrl: string;
  kubeconfigYaml: string;
  kubeconfigPath: string;
  assets: BinaryAssets;
  nodeNames: readonly string[];
  apiServerBootMs: number;
}

/** A process-level operation asked of a plane this process did not start. */
export class AttachedControlPlaneError extends Error {
  override readonly name = 'AttachedControlPlaneError';
}

export function connectionOf(plane: ControlPlane): ControlPlaneConnection {
  return {
    server: plane.server,
    etcdUrl: plane.etcdUrl,
    kubeconfigYaml: plane.kubeconfigYaml,
    kubeconfigPath: plane.kubeconfigPath,
    assets: plane.assets,
    nodeNames: plane.nodeNames,
    apiServerBootMs: plane.apiServerBootMs,
  };
}

/** The admin identity of a kubeconfig whose certificates are embedded, as the harness writes it. */
export function adminIdentity(kubeConfig: KubeConfig): TlsIdentity {
  const pem = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
  return {
    ca: pem(kubeConfig.getCurrentCluster()?.caData),
    cert: pem(kubeConfig.getCurrentUser()?.certData),
    key: pem(kubeConfig.getCurrentUser()?.keyData),
  };
}

export function attachControlPlane(connection: ControlPlaneConnection, startTimeoutMs = 20_000): ControlPlane {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(connection.kubeconfigYaml);
  const tls = adminIdentity(kubeConfig);
  const owned = (what: string) => (): never => {
    throw new AttachedControlPlaneError(
      `${what} needs the control plane's own processes, and this one is shared; start a plane of your own for this test (no shared: true)`,
    );
  };
  const webhookDirs: string[] = [];
  const servingDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'tsop-webhooks-'));
    webhookDirs.push(dir);
    return join(dir, 'serving');
  };
  return {
    server: connection.server,
    etcdUrl: connection.etcdUrl,
    kubeConfig,
    kubeconfigYaml: connection.kubeconfigYaml,
    kubeconfigPath: connection.kubeconfigPath,
    assets: connection.assets,
    nodeNames: connection.nodeNames,
    apiServerBootMs: connection.apiServerBootMs,
    webhooks: undefined,
    installCRDs: (paths) => installCRDs(connection.server, tls, readCRDs(paths), startTimeoutMs),
    waitForCRDs: (names = [], timeoutMs = 60_000) => waitForEstablished(connection.server, tls, names, timeoutMs),
    install: (options) =>
      installCRDsWithWebhooks(
        connection.server,
        tls,
        options.crdDirectoryPaths?.length ? readCRDs(options.crdDirectoryPaths) : [],
        options.webhooks,
        servingDir,
        startTimeoutMs,
      ),
    installWebhooks: (options) => installWebhooks(connection.server, tls, servingDir(), options),
    stopApiServer: owned('stopApiServer'),
    startApiServer: owned('startApiServer'),
    freezeApiServer: owned('freezeApiServer'),
    thawApiServer: owned('thawApiServer'),
    compactEtcd: owned('compactEtcd'),
    // The owner stops the plane; this process removes only what it made.
    stop: async () => {
      for (const dir of webhookDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
