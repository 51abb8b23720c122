/**
 * The fuller plane's Kubernetes components: kube-controller-manager (Deployments → ReplicaSets →
 * Pods, owner-reference garbage collection, namespace deletion, Jobs, …) and kube-scheduler.
 * Both run with the admin identity, without leader election, on a loopback port, and count as up
 * once their /healthz answers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { send, waitFor, type TlsIdentity } from './http.js';
import { freePort } from './ports.js';
import type { CleanupScope, ManagedProcess } from './processes.js';

export interface ComponentFiles {
  /** The directory for the component's generated serving certificate. */
  dir: string;
  /** An admin kubeconfig file. */
  kubeconfigPath: string;
}

/** kube-controller-manager's command line; the files are the ones kube-apiserver already uses. */
export function controllerManagerArgs(
  files: ComponentFiles & { serviceAccountKeyFile: string; rootCaFile: string },
  securePort: number,
): string[] {
  return [
    ...commonArgs(files, securePort),
    // All default controllers; each uses the admin identity rather than its own service account.
    '--controllers=*',
    '--use-service-account-credentials=false',
    `--service-account-private-key-file=${files.serviceAccountKeyFile}`,
    `--root-ca-file=${files.rootCaFile}`,
  ];
}

export function schedulerArgs(files: ComponentFiles, securePort: number): string[] {
  return commonArgs(files, securePort);
}

function commonArgs(files: ComponentFiles, securePort: number): string[] {
  return [
    `--kubeconfig=${files.kubeconfigPath}`,
    // No --authentication/--authorization-kubeconfig: nothing but the harness calls these servers,
    // and only on /healthz, which is always allowed; with them each component polls for a
    // request-header CA this API server does not have and fills its log with errors.
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${securePort}`,
    `--cert-dir=${files.dir}`,
  ];
}

export interface ComponentSpec {
  name: string;
  binary: string;
  args: (securePort: number) => string[];
  dir: string;
  logFile: string;
  startTimeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** https (self-signed, not verified: only liveness is read) or http. */
  scheme?: 'https' | 'http';
}

const PORT_ATTEMPTS = 3;

/** Starts a component on a free port (retrying when the port is taken meanwhile) and waits for /healthz. */
export async function startComponent(scope: CleanupScope, spec: ComponentSpec): Promise<ManagedProcess> {
  mkdirSync(spec.dir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const proc = scope.launch(spec.name, spec.binary, spec.args(port), spec.logFile, spec.env ? { env: spec.env } : {});
    const url = `${spec.scheme ?? 'https'}://127.0.0.1:${port}/healthz`;
    try {
      await waitFor(`${spec.name} /healthz on port ${port}`, spec.startTimeoutMs, async () => {
        if (proc.hasExited()) throw new ComponentExitedError(spec.name, proc.logTail(1500));
        const res = await send(url, { insecure: true, timeoutMs: 2000 });
        return res.status === 200;
      });
      return proc;
    } catch (error) {
      await proc.stop(1000);
      const portTaken = error instanceof ComponentExitedError && /address already in use/.test(error.log);
      if (!portTaken || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

export class ComponentExitedError extends Error {
  override readonly name = 'ComponentExitedError';
  constructor(
    readonly component: string,
    readonly log: string,
  ) {
    super(`${component} exited during start-up; its log ends with:\n${log}`);
  }
}

/** Where a component keeps its files inside a control plane's directory. */
export const componentDir = (root: string, name: string): string => join(root, name);

/**
 * What kube-controller-manager puts in every namespace: its `default` ServiceAccount and the
 * `kube-root-ca.crt` ConfigMap. They come a moment after /healthz answers.
 */
const NAMESPACE_DEFAULTS = ['/serviceaccounts/default', '/configmaps/kube-root-ca.crt'] as const;

/**
 * Waits until the controller-manager has set up `namespace`. The fuller plane counts as started
 * only then, so whatever is in `default` when a test begins is the plane's own: a suite on a
 * shared plane that looked before they came would take them for its own objects.
 */
export async function waitForNamespaceDefaults(
  server: string,
  tls: TlsIdentity,
  namespace: string,
  timeoutMs: number,
): Promise<void> {
  for (const path of NAMESPACE_DEFAULTS) {
    const url = `${server}/api/v1/namespaces/${namespace}${path}`;
    await waitFor(
      `kube-controller-manager to make ${namespace}${path}`,
      timeoutMs,
      async () => (await send(url, { tls })).status === 200,
      50,
    );
  }
}
