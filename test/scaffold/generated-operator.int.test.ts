/**
 * A generated operator as its author uses it, against a real control plane. `tsop init` and
 * `tsop create api` (the built CLI) write a project using tsop's node_modules; the author adds a
 * controller that reads its kind, lists and owns Pods, records an event and writes status, with
 * typed kinds only (no type assertion, intersection or hand-written apiVersion/kind); the project
 * compiles and its own controller test passes. Then build/main.js runs with --leader-elect
 * through a TCP proxy that stalls (a partition): the manager loses its lease and the process must
 * exit 1 within 2 s of that, logging 'manager stopped' once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';
import { StallingProxy } from '../../runtime/test-fixtures/stalling-proxy.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');
const VITEST = join(TSOP, 'node_modules/vitest/vitest.mjs');

/** The author's controller: typed kinds, an owned kind, an event and a status write. */
const POD_WATCHER = `import { podKind } from '../runtime/apimachinery/index.js';
import { controllerFor } from '../runtime/builder/index.js';
import { isNotFound, patchStatus, type Client } from '../runtime/client/index.js';
import { setStatusCondition } from '../runtime/conditions/index.js';
import { setControllerReference } from '../runtime/controllerutil/index.js';
import type { EventRecorder } from '../runtime/events/index.js';
import type { Manager } from '../runtime/manager/index.js';
import { TerminalError, type ReconcileContext, type Reconciler, type Request, type Result } from '../runtime/reconcile/index.js';
import { atKind, type At } from '../api/v1alpha1/at.js';

export class PodWatcher implements Reconciler {
  /** Everything comes from the manager in setupWithManager: main.ts registers it with new PodWatcher(). */
  private deps: { client: Client; recorder: EventRecorder } | undefined;

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    if (!this.deps) throw new TerminalError('PodWatcher: register it with setupWithManager(mgr)');
    const { client, recorder } = this.deps;
    let at: At;
    try {
      at = await client.get(atKind, req, { signal: ctx.signal });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const pods = await client.list(podKind, { namespace: req.namespace, signal: ctx.signal });
    for (const pod of pods.items) {
      if (pod.spec?.containers.length === 0 || pod.metadata?.ownerReferences?.length) continue;
      setControllerReference(at, pod);
      await client.update(pod, { signal: ctx.signal });
    }
    const conditions = structuredClone(at.status?.conditions ?? []);
    if (setStatusCondition(conditions, { type: 'Available', status: 'True', reason: 'Pods', message: String(pods.items.length) })) {
      await patchStatus(client, at, { ...at.status, conditions }, { signal: ctx.signal });
      recorder.event(at, 'Normal', 'Counted', 'Reconcile', String(pods.items.length) + ' pods');
    }
  }

  setupWithManager(mgr: Manager): void {
    this.deps = { client: mgr.client, recorder: mgr.getEventRecorder('pod-watcher') };
    controllerFor(mgr, atKind).named('pod-watcher').owns(podKind).complete(this);
  }
}
`;

describeWithControlPlane('generated operator', { shared: true }, (env) => {
  const dir = tempProject('at-operator');
  const run = (cmd: string, args: string[], extra: Record<string, string> = {}) =>
    execa(cmd, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1', ...extra } });
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    const tsop = (...args: string[]) => run(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args]);
    expect((await tsop('init', '--domain', 'example.com', '--skip-install')).exitCode).toBe(0);
    linkNodeModules(dir);
    const create = await tsop(
      'create',
      'api',
      '--group',
      'cnat',
      '--version',
      'v1alpha1',
      '--kind',
      'At',
      '--resource',
      '--controller',
    );
    expect(create.exitCode, create.all).toBe(0);
    writeFileSync(join(dir, 'src/controllers/pod-watcher.ts'), POD_WATCHER);
  }, 120_000);

  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('compiles a controller that owns Pods, records an event and writes status, with typed kinds only', async () => {
    const tsc = await run(process.execPath, [TSC, '-p', 'tsconfig.build.json']);
    expect(tsc.exitCode, tsc.all).toBe(0);
    const code = [POD_WATCHER, readFileSync(join(dir, 'src/controllers/at-controller.ts'), 'utf8')].join('\n');
    expect(code).not.toMatch(/ as [A-Z{]|<[A-Z]\w* & |apiVersion: '|kind: '/);
    // main.ts gives the reconciler nothing: it takes client, recorder and kinds in setupWithManager.
    expect(readFileSync(join(dir, 'src/main.ts'), 'utf8')).toContain('new AtReconciler().setupWithManager(mgr);');
    const role = readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8');
    expect(role).toMatch(/- events\.k8s\.io\n\s+resources:\n\s+- events\n/);
  });

  it("passes the project's own controller test", async () => {
    const test = await run(process.execPath, [VITEST, 'run', 'src/controllers'], { CI: 'true' });
    expect(test.exitCode, test.all).toBe(0);
    expect(test.all).toMatch(/Tests\s+2 passed/);
  });

  it('exits 1 within 2 s of losing its lease, logging "manager stopped" once', async () => {
    const kubectl = locateAssets()?.kubectl ?? 'kubectl';
    const crd = await execa(kubectl, ['apply', '-f', join(dir, 'config/crd/bases')], {
      env: { KUBECONFIG: env.cp.kubeconfigPath },
      all: true,
      reject: false,
    });
    expect(crd.exitCode, crd.all).toBe(0);
    const proxy = new StallingProxy(Number(new URL(env.cp.server).port));
    const port = await proxy.listen();
    cleanups.push(() => proxy.close());
    const kc = new KubeConfig();
    kc.loadFromString(env.cp.kubeConfig.exportConfig());
    const server = new URL(env.cp.server);
    server.port = String(port);
    kc.clusters = kc.clusters.map((c) => ({ ...c, server: server.href.replace(/\/$/, '') }));
    writeFileSync(join(dir, 'kubeconfig'), kc.exportConfig());

    const child = execa(
      process.execPath,
      ['build/main.js', '--leader-elect', '--metrics-bind-address=0', '--health-probe-bind-address=0'],
      {
        cwd: dir,
        env: { KUBECONFIG: join(dir, 'kubeconfig'), POD_NAMESPACE: 'default', LOG_LEVEL: 'info' },
        all: true,
        reject: false,
      },
    );
    cleanups.push(() => void child.kill('SIGKILL'));
    const lines: Array<{ msg: string; time: string }> = [];
    let buffered = '';
    child.stdout!.on('data', (c: Buffer) => {
      buffered += c.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as { msg: string; time: string });
    });
    const exited = child.then((r) => ({ code: r.exitCode, at: Date.now(), all: r.all }));
    await expect
      .poll(() => lines.some((l) => l.msg === 'acquired lease'), { timeout: 60_000, interval: 100 })
      .toBe(true);

    proxy.stall();
    const { code, at, all } = await exited;
    expect(code, all).toBe(1);
    const lost = lines.find((l) => l.msg.startsWith('lost the lease'));
    expect(lost, all).toBeDefined();
    expect(at - Date.parse(lost!.time)).toBeLessThan(2_000);
    expect(lines.filter((l) => l.msg === 'manager stopped')).toHaveLength(1);
    expect(lines.filter((l) => /^manager failed: lost the lease default\//.test(l.msg))).toHaveLength(1);
  });
});
