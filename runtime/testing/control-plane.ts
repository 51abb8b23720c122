/**
 * vitest helper: a suite that runs against a real control plane, started once before its tests
 * and stopped after them, or with `shared: true` a plane borrowed from the run's broker (see plane-broker.ts).
 * Each test gets a namespace of its own (`env.namespace`). Missing binaries are downloaded as the
 * plane starts; when that cannot work the suite fails in CI (CI=true) and wherever Go could build
 * them; only on a machine with neither a reachable download host nor Go is it skipped, with a
 * message saying how to get them. The same holds for the fuller plane's binaries when the suite
 * asks for `controllers: true`.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, inject } from 'vitest';
import { adminIdentity, attachControlPlane } from '../envtest/attach.js';
import {
  ControlPlaneOptionsError,
  locateAssets,
  mayDownload,
  startControlPlane,
  type ControlPlane,
  type ControlPlaneOptions,
} from '../envtest/index.js';
import { downloadSources, reachableSync } from '../envtest/download/index.js';
import { send } from '../envtest/http.js';
import { BROKER_KEY, SHARED_FULLER_NODES } from './plane-broker.js';
import { borrowSharedPlane, type PlaneLoan } from './shared-plane-loan.js';
import { snapshotClusterObjects, sweepClusterObjects, type ClusterSnapshot } from './sweep.js';

export interface ControlPlaneEnv {
  /** The running control plane; only valid inside tests and hooks. */
  readonly cp: ControlPlane;
  /** A namespace created for the running test alone; only valid inside tests and `beforeEach`/`afterEach` hooks. */
  readonly namespace: string;
  /** Creates another namespace no other suite uses, e.g. in `beforeAll` for what the suite's tests share. */
  newNamespace(): Promise<string>;
}

export interface SuiteOptions extends ControlPlaneOptions {
  /**
   * Run on a control plane borrowed from the run's broker and lent to one file at a time, instead
   * of starting one: seconds of CPU saved per file. The file's objects go into `env.namespace`
   * (or namespaces made with `env.newNamespace()`), and what it creates cluster-wide (CRDs with
   * their objects, RBAC, webhook configurations; see sweep.ts) is deleted when it ends. Needs runtime/testing/plane-broker.ts as the run's
   * globalSetup (without it the suite starts its own plane); only `crdDirectoryPaths`,
   * `webhooks`, `controllers` and `nodes: 1` go with it.
   */
  shared?: boolean;
}

/** What the body of a skipped suite is declared with: vitest collects its tests but runs none of them. */
export const SKIPPED_ENV: ControlPlaneEnv = {
  get cp(): ControlPlane {
    throw new Error('the suite is skipped');
  },
  namespace: '',
  newNamespace: () => Promise.reject(new Error('the suite is skipped')),
};

/** The options a shared plane can honour; anything else needs a plane of the suite's own. */
const SHAREABLE = new Set<keyof SuiteOptions>(['shared', 'crdDirectoryPaths', 'controllers', 'webhooks']);
function goInstalled(env: NodeJS.ProcessEnv): boolean {
  return spawnSync('go', ['version'], { stdio: 'ignore', env }).status === 0;
}

/** Why the suite must be skipped, or undefined when it runs (or must fail for missing binaries). */
export function skipReason(
  options: ControlPlaneOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const needs = { controllers: options.controllers === true };
  if (locateAssets(options.binaryAssetsDirectory, env, needs)) return undefined;
  if (env.CI === 'true' || env.CI === '1') return undefined;
  if (goInstalled(env)) return undefined;
  // startControlPlane downloads what is missing when the download hosts (or a mirror) answer.
  if (mayDownload(options.binaryAssetsDirectory, env) && reachableSync(downloadSources(env).indexUrl)) return undefined;
  const offline = mayDownload(options.binaryAssetsDirectory, env)
    ? `${downloadSources(env).indexUrl} is unreachable (set TSOP_ENVTEST_INDEX_URL to a mirror)`
    : 'downloads are off';
  if (needs.controllers && locateAssets(options.binaryAssetsDirectory, env)) {
    return `no kube-controller-manager, kube-scheduler and kwok (asked for by \`controllers: true\`), ${offline} and no Go to build them: install Go and run \`bash scripts/control-plane.sh\``;
  }
  return `no control-plane binaries, ${offline} and no Go to build them: install Go and run \`bash scripts/control-plane.sh\`, or set KUBEBUILDER_ASSETS to setup-envtest's directory`;
}

export function describeWithControlPlane(
  name: string,
  options: SuiteOptions,
  body: (env: ControlPlaneEnv) => void,
): void {
  const reason = skipReason(options);
  if (reason) {
    console.warn(`skipping "${name}": ${reason}`);
    describe.skip(name, () => body(SKIPPED_ENV));
    return;
  }
  const unshareable = Object.keys(options).filter((k) => {
    const key = k as keyof SuiteOptions;
    // The shared fuller plane has one fake node, as `controllers: true` alone gives.
    if (key === 'nodes') return options.nodes !== SHARED_FULLER_NODES;
    return options[key] !== undefined && !SHAREABLE.has(key);
  });
  if (options.shared && unshareable.length > 0) {
    throw new ControlPlaneOptionsError(
      `"${name}": shared: true cannot honour ${unshareable.join(', ')} (a shared plane is started one way for every file); drop shared: true to get a plane of its own`,
    );
  }
  describe(name, () => {
    let plane: ControlPlane | undefined;
    let namespace: string | undefined;
    let before: ClusterSnapshot | undefined;
    let loan: PlaneLoan | undefined;
    const env: ControlPlaneEnv = {
      get cp(): ControlPlane {
        if (!plane) throw new Error('the control plane is not running (use env.cp inside tests or hooks)');
        return plane;
      },
      get namespace(): string {
        if (!namespace)
          throw new Error('no namespace yet (use env.namespace inside tests or beforeEach/afterEach hooks)');
        return namespace;
      },
      newNamespace: async () => {
        const created = `${prefix}-${++namespaces}`;
        await createNamespace(env.cp, created);
        return created;
      },
    };
    const prefix = namespacePrefix(name);
    let namespaces = 0;
    beforeAll(async () => {
      // Missing binaries are downloaded (by this process, or by the broker for a shared plane),
      // or fail the start with one line saying how to get them.
      const broker = options.shared ? inject(BROKER_KEY) : undefined;
      if (!broker) {
        plane = await startControlPlane(options);
        return;
      }
      loan = await borrowSharedPlane(broker, options.controllers === true);
      const attached = attachControlPlane(loan.connection);
      plane = attached;
      // What the suite creates cluster-wide from here on, at start or in a test, goes when it ends.
      before = await snapshotClusterObjects(attached.server, adminIdentity(attached.kubeConfig));
      const webhooks = await attached.install(options);
      if (webhooks) plane = { ...attached, webhooks };
    });
    afterAll(async () => {
      // On a shared plane the suite's cluster-wide objects go (its CRDs with their objects, and on
      // the fuller plane its namespaces); the plane stays.
      // Swept: the plane goes to this process's next suite, and to other files once this process
      // has exited. Not swept (a start or sweep that failed): the broker stops it when we exit.
      if (plane && before) {
        await sweepClusterObjects(plane.server, adminIdentity(plane.kubeConfig), before, SWEEP_TIMEOUT_MS, {
          namespaces: options.controllers === true,
        });
        await plane.stop();
        loan?.giveBack();
      } else {
        await plane?.stop();
      }
    }, SWEEP_TIMEOUT_MS + 60_000);
    // The suite's own hooks and tests sit in a nameless inner suite, which vitest skips whole when
    // the plane fails to start: the start failure is then the one error, not followed by a
    // TypeError from an afterAll that closes what its beforeAll never made.
    describe('', () => {
      beforeEach(async () => {
        namespace = await env.newNamespace();
      });
      body(env);
    });
  });
}

/** A DNS label prefix from the suite's name, with a random part so files on one plane never meet. */
/** How long the sweep waits for what it deletes: cleanup, not a measure of anything. */
const SWEEP_TIMEOUT_MS = 240_000;

function namespacePrefix(suite: string): string {
  const slug = suite
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${slug || 'test'}-${randomBytes(3).toString('hex')}`;
}

async function createNamespace(cp: ControlPlane, name: string): Promise<void> {
  const res = await send(`${cp.server}/api/v1/namespaces`, {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    tls: adminIdentity(cp.kubeConfig),
  });
  if (res.status >= 300) throw new Error(`creating namespace ${name} failed (${res.status}): ${res.body}`);
}

/**
 * Simulates an API server outage of `requestedMs`, counted from the stop call: stops the API
 * server, runs `during` (e.g. changes made behind its back in etcd), and starts it again so that
 * it answers about `requestedMs` after the stop call: the restart is launched early by the time
 * the last start took to answer (`cp.apiServerBootMs`), never before `during` has finished.
 * Resolves when the server is fully back (CRDs served) with the outage as clients saw it: from
 * the stop call to the first request answered again.
 */
export async function apiServerOutage(
  cp: ControlPlane,
  requestedMs: number,
  during?: () => Promise<void>,
): Promise<number> {
  const tls = adminIdentity(cp.kubeConfig);
  const stoppedAt = Date.now();
  await cp.stopApiServer();
  await during?.();
  const launchAt = stoppedAt + requestedMs - cp.apiServerBootMs;
  await new Promise((r) => setTimeout(r, Math.max(0, launchAt - Date.now())));
  let answeredAt: number | undefined;
  const restarted = cp.startApiServer().finally(() => (answeredAt ??= Date.now()));
  // Probe alongside the start: the server answers requests a little before it reports ready.
  while (answeredAt === undefined) {
    const res = await send(`${cp.server}/api/v1/namespaces/default/configmaps?limit=1`, { tls, timeoutMs: 1000 }).catch(
      () => undefined,
    );
    if (res?.status === 200) answeredAt ??= Date.now();
    else await new Promise((r) => setTimeout(r, 20));
  }
  await restarted;
  return answeredAt - stoppedAt;
}
