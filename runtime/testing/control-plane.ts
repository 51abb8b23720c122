/**
 * vitest helper: a suite that runs against a real control plane, started once before its tests
 * and stopped after them. Missing binaries are downloaded as the plane starts; when that cannot
 * work the suite fails in CI (CI=true) and wherever Go could build them; only on a machine with
 * neither a reachable download host nor Go is it skipped, with a message saying how to get them. The same holds for the fuller plane's binaries when the suite asks for
 * `controllers: true`.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe } from 'vitest';
import { locateAssets, mayDownload, startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../envtest/index.js';
import { downloadSources, reachableSync } from '../envtest/download/index.js';
import { send } from '../envtest/http.js';

export interface ControlPlaneEnv {
  /** The running control plane; only valid inside tests and hooks. */
  readonly cp: ControlPlane;
}

function goInstalled(env: NodeJS.ProcessEnv): boolean {
  return spawnSync('go', ['version'], { stdio: 'ignore', env }).status === 0;
}

/** Why the suite must be skipped, or undefined when it runs (or must fail for missing binaries). */
export function skipReason(options: ControlPlaneOptions = {}, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const needs = { controllers: options.controllers === true };
  if (locateAssets(options.binaryAssetsDirectory, env, needs)) return undefined;
  if (env.CI === 'true' || env.CI === '1') return undefined;
  if (goInstalled(env)) return undefined;
  // startControlPlane downloads what is missing when the download hosts (or a mirror) answer.
  if (mayDownload(options.binaryAssetsDirectory, env) && reachableSync(downloadSources(env).indexUrl)) return undefined;
  const offline = mayDownload(options.binaryAssetsDirectory, env) ? `${downloadSources(env).indexUrl} is unreachable (set TSOP_ENVTEST_INDEX_URL to a mirror)` : 'downloads are off';
  if (needs.controllers && locateAssets(options.binaryAssetsDirectory, env)) {
    return `no kube-controller-manager, kube-scheduler and kwok (asked for by \`controllers: true\`), ${offline} and no Go to build them: install Go and run \`bash scripts/control-plane.sh\``;
  }
  return `no control-plane binaries, ${offline} and no Go to build them: install Go and run \`bash scripts/control-plane.sh\`, or set KUBEBUILDER_ASSETS to setup-envtest's directory`;
}

export function describeWithControlPlane(name: string, options: ControlPlaneOptions, body: (env: ControlPlaneEnv) => void): void {
  const reason = skipReason(options);
  if (reason) {
    console.warn(`skipping "${name}": ${reason}`);
    describe.skip(name, () => body({ cp: undefined as unknown as ControlPlane }));
    return;
  }
  describe(name, () => {
    let plane: ControlPlane | undefined;
    const env: ControlPlaneEnv = {
      get cp(): ControlPlane {
        if (!plane) throw new Error('the control plane is not running (use env.cp inside tests or hooks)');
        return plane;
      },
    };
    beforeAll(async () => {
      // Missing binaries are downloaded, or fail the start with one line saying how to get them.
      plane = await startControlPlane(options);
    });
    afterAll(async () => {
      await plane?.stop();
    });
    // The suite's own hooks and tests sit in a nameless inner suite, which vitest skips whole when
    // the plane fails to start: the start failure is then the one error, not followed by a
    // TypeError from an afterAll that closes what its beforeAll never made.
    describe('', () => body(env));
  });
}

/**
 * Simulates an API server outage of `requestedMs`, counted from the stop call: stops the API
 * server, runs `during` (e.g. changes made behind its back in etcd), and starts it again so that
 * it answers about `requestedMs` after the stop call: the restart is launched early by the time
 * the last start took to answer (`cp.apiServerBootMs`), never before `during` has finished.
 * Resolves when the server is fully back (CRDs served) with the outage as clients saw it: from
 * the stop call to the first request answered again.
 */
export async function apiServerOutage(cp: ControlPlane, requestedMs: number, during?: () => Promise<void>): Promise<number> {
  const user = cp.kubeConfig.getCurrentUser();
  const cluster = cp.kubeConfig.getCurrentCluster();
  const pem = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
  const tls = { ca: pem(cluster?.caData), cert: pem(user?.certData), key: pem(user?.keyData) };
  const stoppedAt = Date.now();
  await cp.stopApiServer();
  await during?.();
  const launchAt = stoppedAt + requestedMs - cp.apiServerBootMs;
  await new Promise((r) => setTimeout(r, Math.max(0, launchAt - Date.now())));
  let answeredAt: number | undefined;
  const restarted = cp.startApiServer().finally(() => (answeredAt ??= Date.now()));
  // Probe alongside the start: the server answers requests a little before it reports ready.
  while (answeredAt === undefined) {
    const res = await send(`${cp.server}/api/v1/namespaces/default/configmaps?limit=1`, { tls, timeoutMs: 1000 }).catch(() => undefined);
    if (res?.status === 200) answeredAt ??= Date.now();
    else await new Promise((r) => setTimeout(r, 20));
  }
  await restarted;
  return answeredAt - stoppedAt;
}
