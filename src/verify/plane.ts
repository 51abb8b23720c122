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
import { buildFromSource, CONTROL_PLANE_SCRIPT, goInstalled } from '../envtest/source-build.js';
import { UsageError } from '../errors.js';
import { importModule } from '../esm-import.js';
import { TSOP_ROOT } from '../version.js';
import type { TlsIdentity } from './api.js';
import type { HookData } from './ts-hooks.js';

/** The part of runtime/envtest this module uses (test/verify checks the real module fits it). */
export interface EnvtestModule {
  locateAssets(directory?: string, env?: NodeJS.ProcessEnv): { source: string; kubectl?: string } | undefined;
  /** Finds the binaries, downloading what the cache lacks where allowed; throws one line otherwise. */
  ensureAssets(
    directory?: string,
    env?: NodeJS.ProcessEnv,
    needs?: { controllers?: boolean },
    options?: { progress?: (line: string) => void },
  ): Promise<{ source: string; kubectl?: string }>;
  mayDownload(directory?: string, env?: NodeJS.ProcessEnv): boolean;
  assetsCacheRoot(env?: NodeJS.ProcessEnv): string;
  readonly PINNED_KUBE_VERSION: string;
  startControlPlane(options?: {
    startTimeoutMs?: number;
  }): Promise<{ server: string; kubeconfigYaml: string; stop(): Promise<void> }>;
}

export interface Plane {
  server: string;
  tls: TlsIdentity;
  stop(): Promise<void>;
}

const HARNESS = pathToFileURL(join(TSOP_ROOT, 'runtime/envtest/index.ts'));

let hooked = false;

/**
 * The harness, loaded for the project at `root` (whose node_modules serve what tsop lacks);
 * `command` names the command in errors (`--verify`, `dev`).
 */
export async function loadEnvtest(root: string, command = '--verify'): Promise<EnvtestModule> {
  return loadRuntimeModule<EnvtestModule>(HARNESS, root, command);
}

/** A TypeScript module of tsop's runtime/ (e.g. runtime/envtest/download/index.ts), loaded as loadEnvtest loads the harness. */
export async function loadRuntimeModule<T>(url: URL, root: string, command: string): Promise<T> {
  // Built (dist/*.js, the CLI's dist/bundle/cli.cjs): Node loads no .ts by itself, so teach it
  // first. From source (vitest, the repo's own TS hooks), the loader that runs this file runs the
  // harness too.
  if (/\.c?js$/.test(import.meta.url) && !hooked) {
    const data: HookData = { projectRoot: root };
    register(new URL('./ts-hooks.js', import.meta.url), { data });
    hooked = true;
  }
  try {
    return await importModule<T>(url.href);
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND'
        ? /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1]
        : undefined;
    if (missing !== undefined) throw new UsageError(missingPackageMessage(command, root, missing));
    throw error;
  }
}

/** The one line for a package the harness cannot find: `npm install` when the project lists it. */
export function missingPackageMessage(command: string, root: string, pkg: string): string {
  const listed = listedPackages(root);
  if (!listed.has(pkg))
    return `${command}: the control-plane harness needs ${pkg}, which ${root} does not list; run 'npm i -D ${pkg}' there`;
  const why = existsSync(join(root, 'node_modules'))
    ? `${pkg} is not installed in ${root}`
    : `${root} has no node_modules yet`;
  return `${command}: ${why} (the control-plane harness needs ${pkg}); run 'npm install' there first`;
}

function listedPackages(root: string): Set<string> {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    return new Set(
      ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].flatMap((k) =>
        Object.keys(pkg[k] ?? {}),
      ),
    );
  } catch {
    return new Set(); // no or unreadable package.json: nothing listed
  }
}

/** The one line a user without binaries sees (exit 2) where nothing may be downloaded. */
export function missingBinariesMessage(): string {
  return (
    `--verify: no control-plane binaries (etcd, kube-apiserver) found; get them with 'npx tsop ` +
    `envtest use' (downloads) or build them once with 'bash ${CONTROL_PLANE_SCRIPT}' (needs Go ` +
    `1.26+), or set KUBEBUILDER_ASSETS to setup-envtest's directory`
  );
}

/**
 * The binaries (`controllers`: the fuller plane's too), downloaded into the cache when missing
 * and allowed; a UsageError with one line (exit 2) when they cannot be had. Download progress
 * goes to `progress`.
 */
export async function ensureBinaries(
  envtest: EnvtestModule,
  command: string,
  options: {
    env?: NodeJS.ProcessEnv;
    controllers?: boolean;
    progress?: (line: string) => void;
    /** Build them from source with Go when the download hosts cannot be reached (minutes). */
    buildWhenUnreachable?: boolean;
  } = {},
): Promise<{ source: string; kubectl?: string }> {
  const env = options.env ?? process.env;
  if (!envtest.mayDownload(undefined, env) && !options.controllers) {
    const found = envtest.locateAssets(undefined, env);
    if (!found) throw new UsageError(missingBinariesMessage().replace(/^--verify/, command));
    return found;
  }
  const needs = { controllers: options.controllers === true };
  const progress = options.progress ? { progress: options.progress } : {};
  try {
    return await envtest.ensureAssets(undefined, env, needs, progress);
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ControlPlaneAssetsMissingError') throw error;
    const unreachable = (error.cause as Error | undefined)?.name === 'DownloadUnreachableError';
    if (!options.buildWhenUnreachable || !unreachable || !goInstalled())
      throw new UsageError(`${command}: ${error.message}`);
    const say = options.progress ?? ((line: string) => void process.stderr.write(`${line}\n`));
    say(
      `${(error.cause as Error).message}: building the binaries from source with Go instead (bash ${CONTROL_PLANE_SCRIPT}; about 13 minutes on two cores the first time)`,
    );
    await buildFromSource({
      version: envtest.PINNED_KUBE_VERSION,
      fuller: needs.controllers,
      root: envtest.assetsCacheRoot(env),
      onLine: say,
    });
    return envtest.ensureAssets(undefined, env, needs, progress);
  }
}

/**
 * Starts etcd + kube-apiserver on loopback; fails with exit 2 when the binaries are missing and
 * cannot be downloaded. `command` names the command in those errors (`--verify`, `scorecard`).
 */
export async function startPlane(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
  command = '--verify',
): Promise<Plane> {
  const envtest = await loadEnvtest(root, command);
  await ensureBinaries(envtest, command, { env });
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
