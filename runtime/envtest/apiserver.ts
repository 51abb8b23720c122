/** kube-apiserver for one control plane, started the way envtest starts it. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlaneCertificates } from './certs.js';
import { send, waitFor, type TlsIdentity } from './http.js';
import type { CleanupScope, ManagedProcess } from './processes.js';

export interface ApiServerOptions {
  binary: string;
  dir: string;
  etcdUrl: string;
  securePort: number;
  certs: ControlPlaneCertificates;
  logFile: string;
  startTimeoutMs: number;
  /** Extra flags appended last, so they override the defaults (e.g. `--watch-cache=false`). */
  extraFlags: readonly string[];
}

/** Writes the certificate files and returns the command line (pure apart from the files). */
export function apiServerArgs(options: ApiServerOptions): string[] {
  const file = (name: string, content: string): string => {
    const path = join(options.dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };
  const { certs } = options;
  return [
    `--etcd-servers=${options.etcdUrl}`,
    `--cert-dir=${options.dir}`,
    `--tls-cert-file=${file('serving.crt', certs.serving.certPem)}`,
    `--tls-private-key-file=${file('serving.key', certs.serving.keyPem)}`,
    `--client-ca-file=${file('ca.crt', certs.ca.certPem)}`,
    `--secure-port=${options.securePort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    '--service-cluster-ip-range=10.0.0.0/24',
    '--allow-privileged=true',
    '--disable-admission-plugins=ServiceAccount',
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${file('sa.pub', certs.serviceAccountPublicKeyPem)}`,
    `--service-account-signing-key-file=${file('sa.key', certs.serviceAccountKeyPem)}`,
    // Without it a SIGTERM with open watches waits out the whole stop grace (then SIGKILL): watches
    // are closed after this long instead, so a stop takes about 2 s with clients connected.
    `--shutdown-watch-termination-grace-period=${WATCH_TERMINATION_GRACE_SECONDS}s`,
    ...options.extraFlags,
  ];
}

/** How long kube-apiserver keeps open watches after SIGTERM (see apiServerArgs). */
export const WATCH_TERMINATION_GRACE_SECONDS = 2;

export interface RunningApiServer {
  process: ManagedProcess;
  /** From launch to the first HTTP answer (any status: it serves requests before /readyz is ok). */
  answeringAfterMs: number;
}

export async function startApiServer(
  scope: CleanupScope,
  options: ApiServerOptions,
  tls: TlsIdentity,
): Promise<RunningApiServer> {
  const launchedAt = Date.now();
  const proc = scope.launch('kube-apiserver', options.binary, apiServerArgs(options), options.logFile);
  const url = `https://127.0.0.1:${options.securePort}/readyz`;
  let answeringAfterMs: number | undefined;
  try {
    await waitFor(
      `kube-apiserver /readyz on port ${options.securePort}`,
      options.startTimeoutMs,
      async () => {
        if (proc.hasExited()) throw new ApiServerExitedError(proc.logTail(2000));
        const res = await send(url, { tls, timeoutMs: 2000 });
        answeringAfterMs ??= Date.now() - launchedAt;
        return res.status === 200;
      },
      50,
    );
  } catch (error) {
    await proc.stop(1000);
    throw error;
  }
  return { process: proc, answeringAfterMs: answeringAfterMs ?? Date.now() - launchedAt };
}

export class ApiServerExitedError extends Error {
  override readonly name = 'ApiServerExitedError';
  constructor(readonly log: string) {
    super(`kube-apiserver exited during start-up; its log ends with:\n${log}`);
  }
  get portInUse(): boolean {
    return /address already in use/.test(this.log);
  }
}
