/** etcd for one control plane: a private data dir, a loopback client port, fsync off for speed. */
import { join } from 'node:path';
import type { CleanupScope, ManagedProcess } from './processes.js';
import { send, waitFor } from './http.js';

export interface EtcdOptions {
  binary: string;
  dataDir: string;
  clientPort: number;
  logFile: string;
  startTimeoutMs: number;
}

export interface RunningEtcd {
  url: string;
  process: ManagedProcess;
}

/** etcd stopped during start-up; `portInUse` tells a lost race for the port from a real failure. */
export class EtcdExitedError extends Error {
  override readonly name = 'EtcdExitedError';
  constructor(readonly log: string) {
    super(`etcd exited during start-up; its log ends with:\n${log}`);
  }
  get portInUse(): boolean {
    return /address already in use/.test(this.log);
  }
}

export async function startEtcd(scope: CleanupScope, options: EtcdOptions): Promise<RunningEtcd> {
  const url = `http://127.0.0.1:${options.clientPort}`;
  const args = [
    `--data-dir=${options.dataDir}`,
    `--listen-client-urls=${url}`,
    `--advertise-client-urls=${url}`,
    // A single member: the peer listener is never used, so let the kernel pick its port.
    '--listen-peer-urls=http://127.0.0.1:0',
    '--initial-advertise-peer-urls=http://127.0.0.1:0',
    '--initial-cluster=default=http://127.0.0.1:0',
    '--unsafe-no-fsync=true',
    '--log-level=warn',
  ];
  const proc = scope.launch('etcd', options.binary, args, options.logFile);
  try {
    // An etcd that exited ends the wait at once (its log says why), not at the start timeout.
    await waitFor(`etcd on ${url}`, options.startTimeoutMs, async () => {
      if (proc.hasExited()) return true;
      const res = await send(`${url}/health`, { timeoutMs: 1000 });
      return res.status === 200 && /"health":\s*"true"/.test(res.body);
    });
    if (proc.hasExited()) throw new EtcdExitedError(proc.logTail(1500));
  } catch (error) {
    // A retry reuses the data dir: never leave a second etcd on it.
    await proc.stop(1000);
    throw error;
  }
  return { url, process: proc };
}

/** The current revision of the store (any range request reports it in its header). */
export async function currentRevision(etcdUrl: string): Promise<number> {
  const res = await send(`${etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: { key: Buffer.from('/').toString('base64') },
  });
  const revision = Number((JSON.parse(res.body) as { header?: { revision?: string } }).header?.revision);
  if (!Number.isFinite(revision)) throw new Error(`etcd range answered without a revision: ${res.body}`);
  return revision;
}

/** Compacts history up to the current revision; watches from older resourceVersions then get 410 Gone. */
export async function compact(etcdUrl: string): Promise<number> {
  const revision = await currentRevision(etcdUrl);
  const res = await send(`${etcdUrl}/v3/kv/compaction`, {
    method: 'POST',
    body: { revision: String(revision), physical: true },
  });
  if (res.status !== 200) throw new Error(`etcd compaction failed (${res.status}): ${res.body}`);
  return revision;
}

export const etcdDataDir = (root: string): string => join(root, 'etcd');
