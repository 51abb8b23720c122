/**
 * Server-side apply through kubectl (the one next to the control-plane binaries, else the one on
 * PATH): CRDs and samples go in exactly as a user's `kubectl apply --server-side` would put them.
 * What kubectl prints is sorted into what the API server said, object by object: applied,
 * warned about, refused. `kubectl get -o name` tells how many sample objects exist.
 */
import { execFile } from 'node:child_process';

export interface ApplyResult {
  /** kubectl exited 0: every object went in. */
  ok: boolean;
  /** `<kind>.<group>/<name> serverside-applied`, one per object the server took. */
  applied: string[];
  /** What the API server warned about (`Warning: …`), without the prefix. */
  warnings: string[];
  /** What it (or kubectl) refused, one entry per error, continuation lines joined. */
  errors: string[];
}

const APPLIED = /^\S+\/\S+ (serverside-applied|unchanged|configured|created)$/;

/** Sorts kubectl's output lines; pure, so every mix of outcomes is tested without a cluster. */
export function readApplyOutput(stdout: string, stderr: string, exitedOk: boolean): ApplyResult {
  const result: ApplyResult = { ok: exitedOk, applied: [], warnings: [], errors: [] };
  for (const line of stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    if (APPLIED.test(line)) result.applied.push(line);
    else if (/^Warning: /.test(line)) result.warnings.push(line.replace(/^Warning: /, ''));
    else result.errors.push(line);
  }
  for (const line of stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    if (/^Warning: /.test(line)) result.warnings.push(line.replace(/^Warning: /, ''));
    else if (/^(Error from server|error:|Error:)/.test(line) || result.errors.length === 0) result.errors.push(line);
    else result.errors[result.errors.length - 1] += ` ${line}`;
  }
  // A failed kubectl that printed nothing of its own still says it failed.
  if (!exitedOk && result.errors.length === 0) result.errors.push('kubectl failed without a message');
  return result;
}

/** Runs kubectl with the session's kubeconfig; resolves with whether it exited 0 and what it printed. */
export function kubectlCommand(
  kubectl: string,
  kubeconfigPath: string,
  args: string[],
): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      kubectl,
      args,
      { env: { ...process.env, KUBECONFIG: kubeconfigPath }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({
          ok: !error,
          stdout,
          stderr: stderr || (error && !stdout ? (error.message.split('\n')[0] ?? '') : ''),
        });
      },
    );
  });
}

export async function serverSideApply(kubectl: string, kubeconfigPath: string, args: string[]): Promise<ApplyResult> {
  const run = await kubectlCommand(kubectl, kubeconfigPath, [
    'apply',
    '--server-side',
    '--force-conflicts',
    '--field-manager=tsop-dev',
    ...args,
  ]);
  return readApplyOutput(run.stdout, run.stderr, run.ok);
}

/**
 * How many distinct objects of those `args` (`-k dir`, `-f file`) names exist on the server now
 * (two samples of one object in two versions are one object).
 */
export async function countExisting(
  kubectl: string,
  kubeconfigPath: string,
  args: string[],
): Promise<number | undefined> {
  const columns = 'custom-columns=KIND:.kind,GROUP:.apiVersion,NAMESPACE:.metadata.namespace,NAME:.metadata.name';
  const run = await kubectlCommand(kubectl, kubeconfigPath, [
    'get',
    '--ignore-not-found',
    '--no-headers',
    '-o',
    columns,
    ...args,
  ]);
  // A kind the server does not know (CRD not applied) fails the whole get: not a count then.
  if (!run.ok) return undefined;
  // One object read in two versions differs only in its apiVersion's version.
  const key = (line: string): string => {
    const [kind, apiVersion, namespace, name] = line.trim().split(/\s+/);
    return [kind, apiVersion?.includes('/') ? apiVersion.split('/')[0] : '', namespace, name].join('/');
  };
  return new Set(
    run.stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(key),
  ).size;
}
