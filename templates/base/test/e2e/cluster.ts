/**
 * The cluster the e2e tests may touch. They deploy to it and read it back, so they never fall
 * back on whatever context kubeconfig currently points at: E2E_CONTEXT must name the context, and
 * it must look like a throwaway test cluster (kind, k3d, minikube, a desktop cluster...) unless
 * E2E_FORCE=1 says it is one. Every kubectl call then gets `--context` explicitly.
 */
import { execFileSync } from 'node:child_process';

/** Context names local test clusters get from the tools that create them. */
export const TEST_CLUSTER_CONTEXTS: readonly RegExp[] = [
  /^kind-/,
  /^k3d-/,
  /^minikube$/,
  /^docker-desktop$/,
  /^rancher-desktop$/,
  /^colima(-|$)/,
  /^orbstack$/,
  /^microk8s$/,
  /^kwok-/,
  /^envtest/,
];

/** Why the e2e tests refuse to run; the message says what to set. */
export class E2EContextError extends Error {
  override readonly name = 'E2EContextError';
}

/**
 * The context to test against, from `env` (E2E_CONTEXT, E2E_FORCE) and the contexts the
 * kubeconfig has; throws E2EContextError when the run has not opted in or the context is not
 * known to be a test cluster.
 */
export function e2eContext(env: NodeJS.ProcessEnv, contexts: readonly string[]): string {
  const context = env['E2E_CONTEXT'];
  const example = contexts.find((c) => TEST_CLUSTER_CONTEXTS.some((p) => p.test(c))) ?? 'kind-kind';
  if (!context) {
    throw new E2EContextError(
      `the e2e tests deploy to a real cluster, so they run only against a context named explicitly: E2E_CONTEXT=${example} npm run test:e2e`,
    );
  }
  if (!contexts.includes(context)) {
    throw new E2EContextError(
      `E2E_CONTEXT=${context} is not a context of your kubeconfig (it has: ${contexts.join(', ') || 'none'}); create the test cluster first, e.g. kind create cluster`,
    );
  }
  if (!TEST_CLUSTER_CONTEXTS.some((p) => p.test(context)) && env['E2E_FORCE'] !== '1') {
    throw new E2EContextError(
      `E2E_CONTEXT=${context} does not look like a test cluster (kind-*, k3d-*, minikube, docker-desktop, ...); the tests deploy to it, so if it is one, run again with E2E_FORCE=1`,
    );
  }
  return context;
}

/** The kubeconfig's context names (none when kubectl or a kubeconfig is missing). */
export function kubeContexts(): string[] {
  try {
    return execFileSync('kubectl', ['config', 'get-contexts', '-o', 'name'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter((c) => c !== '');
  } catch {
    return [];
  }
}

/** kubectl against the chosen context only. */
export function kubectlIn(context: string): (...args: string[]) => string {
  return (...args) => execFileSync('kubectl', ['--context', context, ...args], { encoding: 'utf8' });
}
