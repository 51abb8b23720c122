/**
 * The throwaway control plane `manifests --verify` checks against: tsop's own envtest harness
 * (runtime/envtest), loaded at run time because it ships as TypeScript source next to the built
 * CLI (dist/ and src/ sit at the same depth, so one relative path serves both). Its one package
 * outside tsop's dependencies, `@kubernetes/client-node`, comes from the project when it is not
 * next to tsop (see ts-hooks.ts). Without binaries, or with the project's packages not installed,
 * the command stops with one line saying what to run (exit 2).
 */
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { UsageError } from '../errors.js';
import { TSOP_ROOT } from '../version.js';
import type { TlsIdentity } from './api.js';
import type { HookData } from './ts-hooks.js';

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

const HARNESS = pathToFileURL(join(TSOP_ROOT, 'runtime/envtest/index.ts'));
const SCRIPT = join(TSOP_ROOT, 'scripts/control-plane.sh');

let hooked = false;

/**
 * The harness, loaded for the project at `root` (whose node_modules serve what tsop lacks);
 * `command` names the command in errors (`--verify`, `dev`).
 */
export async function loadEnvtest(root: string, command = '--verify'): Promise<EnvtestModule> {
  // Built (dist/*.js): Node loads no .ts by itself, so teach it first. From source (vitest, the
  // repo's own TS hooks), the loader that runs this file runs the harness too.
  if (import.meta.url.endsWith('.js') && !hooked) {
    const data: HookData = { projectRoot: root };
    register(new URL('./ts-hooks.js', import.meta.url), { data });
    hooked = true;
  }
  try {
    return (await import(/* @vite-ignore */ HARNESS.href)) as EnvtestModule;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' ? /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1] : undefined;
    if (missing !== undefined) throw new UsageError(missingPackageMessage(command, root, missing));
    throw error;
  }
}

/** The one line for a package the harness cannot find: `npm install` when the project lists it. */
export function missingPackageMessage(command: string, root: string, pkg: string): string {
  const listed = listedPackages(root);
  if (!listed.has(pkg)) return `${command}: the control-plane harness needs ${pkg}, which ${root} does not list; run 'npm i -D ${pkg}' there`;
  const why = existsSync(join(root, 'node_modules')) ? `${pkg} is not installed in ${root}` : `${root} has no node_modules yet`;
  return `${command}: ${why} (the control-plane harness needs ${pkg}); run 'npm install' there first`;
}

function listedPackages(root: string): Set<string> {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    return new Set(['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].flatMap((k) => Object.keys(pkg[k] ?? {})));
  } catch {
    return new Set(); // no or unreadable package.json: nothing listed
  }
}

/** The one line a user without binaries sees (exit 2). */
export function missingBinariesMessage(): string {
  return `--verify: no control-plane binaries (etcd, kube-apiserver) found; build them once with 'bash ${SCRIPT}' (needs Go 1.26+), or set KUBEBUILDER_ASSETS to setup-envtest's directory`;
}

/** Starts etcd + kube-apiserver on loopback; fails with exit 2 when the binaries are missing. */
export async function startPlane(root: string, env: NodeJS.ProcessEnv = process.env): Promise<Plane> {
  const envtest = await loadEnvtest(root);
  const assets = envtest.locateAssets(undefined, env);
  if (!assets) throw new UsageError(missingBinariesMessage());
  const cp = await envtest.startControlPlane({ startTimeoutMs: 60_000 });
  return { server: cp.server, tls: tlsOf(cp.kubeconfigYaml), stop: () => cp.stop() };
}

interface Kubeconfig {
  clusters?: Array<{ cluster?: Record<string, string> }>;
  users?: Array<{ user?: Record<string, string> }>;
}

export function tlsOf(kubeconfigYaml: string): TlsIdentity {
  const kc = parse(kubeconfigYaml) as Kubeconfig;
  const pem = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
  return {
    ca: pem(kc.clusters?.[0]?.cluster?.['certificate-authority-data']),
    cert: pem(kc.users?.[0]?.user?.['client-certificate-data']),
    key: pem(kc.users?.[0]?.user?.['client-key-data']),
  };
}
