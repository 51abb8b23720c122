/**
 * The throwaway control plane `manifests --verify` checks against: tsop's own envtest harness
 * (runtime/envtest), loaded at run time because it ships as TypeScript source next to the built
 * CLI (dist/ and src/ sit at the same depth, so one relative path serves both). Without binaries
 * the command stops with one line saying how to get them.
 */
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { UsageError } from '../errors.js';
import type { TlsIdentity } from './api.js';

/** The part of runtime/envtest this module uses (test/verify checks the real module fits it). */
export interface EnvtestModule {
  locateAssets(directory?: string, env?: NodeJS.ProcessEnv): { source: string } | undefined;
  startControlPlane(options?: { startTimeoutMs?: number }): Promise<{ server: string; kubeconfigYaml: string; stop(): Promise<void> }>;
}

export interface Plane {
  server: string;
  tls: TlsIdentity;
  stop(): Promise<void>;
}

const HARNESS = new URL('../../runtime/envtest/index.ts', import.meta.url);
const SCRIPT = fileURLToPath(new URL('../../scripts/control-plane.sh', import.meta.url));

let hooked = false;

export async function loadEnvtest(): Promise<EnvtestModule> {
  // Built (dist/*.js): Node loads no .ts by itself, so teach it first. From source (vitest, the
  // repo's own TS hooks), the loader that runs this file runs the harness too.
  if (import.meta.url.endsWith('.js') && !hooked) {
    register(new URL('./ts-hooks.js', import.meta.url));
    hooked = true;
  }
  try {
    return (await import(/* @vite-ignore */ HARNESS.href)) as EnvtestModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /client-node/.test((error as Error).message)) {
      throw new UsageError(`--verify: the control-plane harness needs @kubernetes/client-node next to tsop; run 'npm i -D @kubernetes/client-node' in the project`);
    }
    throw error;
  }
}

/** The one line a user without binaries sees (exit 2). */
export function missingBinariesMessage(): string {
  return `--verify: no control-plane binaries (etcd, kube-apiserver) found; build them once with 'bash ${SCRIPT}' (needs Go 1.26+), or set KUBEBUILDER_ASSETS to setup-envtest's directory`;
}

/** Starts etcd + kube-apiserver on loopback; fails with exit 2 when the binaries are missing. */
export async function startPlane(env: NodeJS.ProcessEnv = process.env): Promise<Plane> {
  const envtest = await loadEnvtest();
  const assets = envtest.locateAssets(undefined, env);
  if (!assets) throw new UsageError(missingBinariesMessage());
  const cp = await envtest.startControlPlane({ startTimeoutMs: 60_000 });
  return { server: cp.server, tls: tlsOf(cp.kubeconfigYaml), stop: () => cp.stop() };
}

interface Kubeconfig {
  clusters?: Array<{ cluster?: Record<string, string> }>;
  users?: Array<{ user?: Record<string, string> }>;
}

function tlsOf(kubeconfigYaml: string): TlsIdentity {
  const kc = parse(kubeconfigYaml) as Kubeconfig;
  const pem = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
  return {
    ca: pem(kc.clusters?.[0]?.cluster?.['certificate-authority-data']),
    cert: pem(kc.users?.[0]?.user?.['client-certificate-data']),
    key: pem(kc.users?.[0]?.user?.['client-key-data']),
  };
}
