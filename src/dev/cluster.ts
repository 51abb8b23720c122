/**
 * The cluster `tsop dev` runs against: the embedded control plane (runtime/envtest; binaries
 * downloaded into the cache when missing), the fuller one (kube-controller-manager,
 * kube-scheduler, kwok nodes) when asked for or when the project's controllers create workloads,
 * or the cluster a --kubeconfig names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { ensureBinaries, loadEnvtest, type EnvtestModule } from '../verify/plane.js';
import type { WebhookPlane } from './webhooks.js';
import { workloadsCreated } from './workloads.js';

/** The part of runtime/envtest `tsop dev` uses (test/dev checks the real module fits it). */
export interface DevEnvtest extends EnvtestModule {
  startControlPlane(options?: {
    startTimeoutMs?: number;
    dataDir?: string;
    controllers?: boolean;
    nodes?: number;
    crdDirectoryPaths?: string[];
    progress?: (line: string) => void;
  }): Promise<{ server: string; kubeconfigPath: string; kubeconfigYaml: string; stop(): Promise<void> } & WebhookPlane>;
}

export interface ClusterFlags {
  kubeconfig?: string | boolean;
  /** Data dir for --keep (resolved). */
  keep?: string | undefined;
  /** The fuller plane: true, false, or undefined to decide from the project's RBAC. */
  controllers?: boolean;
  nodes?: number;
}

export interface DevCluster {
  /** "control plane up: …" for the output; its text before ':' is the status line's. */
  description: string;
  kubeconfigPath: string;
  /** kubectl next to the binaries, else the one on PATH. */
  kubectl: string;
  /** The embedded plane, for webhooks; undefined with --kubeconfig. */
  plane: WebhookPlane | undefined;
  stop?: () => Promise<void>;
}

const ROLE = 'config/rbac/role.yaml';
const CRD_DIR = 'config/crd/bases';

/** Whether to start the fuller plane, and why (a line for the output), from the flags and the project's RBAC. */
export function fullerPlaneChoice(root: string, flags: ClusterFlags): { fuller: boolean; why?: string } {
  if (flags.controllers === false) {
    if (flags.nodes !== undefined && flags.nodes > 0)
      throw new UsageError(
        `dev: --nodes ${flags.nodes} needs the fuller plane (a scheduler to put pods on them), and --controllers=false turns it off; pass one of them`,
      );
    return { fuller: false };
  }
  if (flags.controllers === true) return { fuller: true };
  if (flags.nodes !== undefined && flags.nodes > 0)
    return { fuller: true, why: `--nodes ${flags.nodes}: starting the fuller plane` };
  const role = join(root, ROLE);
  const made = existsSync(role) ? workloadsCreated(readFileSync(role, 'utf8')) : [];
  if (made.length === 0) return { fuller: false };
  return {
    fuller: true,
    why: `the controllers create ${made.join(', ')} (${ROLE}): starting the fuller plane, so they are scheduled and run on kwok nodes (--controllers=false: etcd and kube-apiserver alone)`,
  };
}

export async function startCluster(
  root: string,
  flags: ClusterFlags,
  say: (line: string) => void,
): Promise<DevCluster> {
  const envtest = (await loadEnvtest(root, 'dev')) as DevEnvtest;
  if (typeof flags.kubeconfig === 'string') {
    // runDev resolved and checked it.
    return {
      description: `cluster of ${flags.kubeconfig} (its current context)`,
      kubeconfigPath: flags.kubeconfig,
      kubectl: envtest.locateAssets(undefined, process.env)?.kubectl ?? 'kubectl',
      plane: undefined,
    };
  }
  const choice = fullerPlaneChoice(root, flags);
  if (choice.why) say(choice.why);
  const progress = (line: string): void => say(line);
  let fuller = choice.fuller;
  let assets: { kubectl?: string };
  try {
    assets = await ensureBinaries(envtest, 'dev', { controllers: fuller, progress, buildWhenUnreachable: true });
  } catch (error) {
    // Chosen for the project, not asked for: carry on with the smaller plane and say what is missing.
    if (!(error instanceof UsageError) || flags.controllers === true || !fuller) throw error;
    say(`${error.message.replace(/^dev: /, '')}; starting etcd and kube-apiserver alone instead (pods stay Pending)`);
    fuller = false;
    assets = await ensureBinaries(envtest, 'dev', { progress, buildWhenUnreachable: true });
  }
  const nodes = fuller ? (flags.nodes ?? 1) : 0;
  const crds = existsSync(join(root, CRD_DIR)) ? [join(root, CRD_DIR)] : [];
  const cp = await envtest
    .startControlPlane({
      startTimeoutMs: 60_000,
      progress,
      ...(flags.keep ? { dataDir: flags.keep } : {}),
      // The CRDs go in before the controllers start, so the garbage collector knows their kinds at once.
      ...(fuller ? { controllers: true, nodes, crdDirectoryPaths: crds } : {}),
    })
    .catch((error: unknown) => {
      // A kept data dir that is a file, or held by another session, is the user's to fix: one line.
      if (error instanceof Error && error.name === 'ControlPlaneOptionsError') {
        throw new UsageError(
          `dev: ${flags.keep && /^dataDir: /.test(error.message) ? `--keep: ${error.message.replace(/^dataDir: /, '')}` : error.message}`,
        );
      }
      throw error;
    });
  const what = fuller
    ? `fuller control plane up: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, ${nodes} kwok node${nodes === 1 ? '' : 's'}`
    : 'control plane up: etcd + kube-apiserver';
  return {
    description: `${what} at ${cp.server}`,
    kubeconfigPath: cp.kubeconfigPath,
    kubectl: assets.kubectl ?? 'kubectl',
    plane: cp,
    stop: () => cp.stop(),
  };
}
