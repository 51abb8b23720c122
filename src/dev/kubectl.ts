/**
 * Server-side apply through kubectl (the one next to the control-plane binaries, else the one on
 * PATH): CRDs and samples go in exactly as a user's `kubectl apply --server-side` would put them.
 */
import { execFile } from 'node:child_process';

export interface ApplyResult {
  ok: boolean;
  /** kubectl's lines: `<kind>/<name> serverside-applied` on success, its error otherwise. */
  lines: string[];
}

export function serverSideApply(kubectl: string, kubeconfigPath: string, args: string[]): Promise<ApplyResult> {
  return new Promise((resolve) => {
    execFile(
      kubectl,
      ['apply', '--server-side', '--force-conflicts', '--field-manager=tsop-dev', ...args],
      { env: { ...process.env, KUBECONFIG: kubeconfigPath }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const lines = `${stdout}\n${stderr}`.split('\n').map((l) => l.trim()).filter(Boolean);
        if (error && lines.length === 0) lines.push(error.message.split('\n')[0] ?? 'kubectl failed');
        resolve({ ok: !error, lines });
      },
    );
  });
}
