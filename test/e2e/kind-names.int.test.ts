/**
 * Kinds named like JavaScript/TypeScript globals, reserved words or template names run, not just
 * compile (issue 12 item 2; test/scaffold/kind-names.test.ts type-checks 63 such names): one
 * project with a controller for each of these kinds is built, its CRDs are accepted by a real
 * API server, and the operator process reconciles an object of every kind (Available=True) —
 * Object, Symbol and TypeError too, whose classes are declared under another name and exported
 * as the kind (the decorator code reads those globals while the class is defined).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { kindFor, type KubeObject } from '../../runtime/apimachinery/index.js';
import { createClient, type Client } from '../../runtime/client/index.js';
import { locateAssets } from '../../runtime/envtest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { tempProject } from '../scaffold/harness.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

const NAMES = [
  'Promise',
  'Function',
  'Class',
  'Default',
  'Package',
  'Array',
  'Error',
  'Date',
  'Map',
  'Set',
  'RangeError',
  'String',
  'Number',
  'Boolean',
  'Record',
  'Partial',
  'Proxy',
  'This',
  'New',
  'Delete',
  'Client',
  'Condition',
  'Resource',
  'Kind',
  'GroupVersion',
  'Request',
  'Manager',
  'Result',
  'Reconciler',
  'ObjectMeta',
  'ListType',
  'Event',
  'Node',
  'Logger',
  'Spec',
  'Status',
  'Object',
  'Symbol',
  'TypeError',
];

interface Named extends KubeObject {
  status?: { conditions?: { type: string; status: string }[] };
}

describeWithControlPlane('kinds named like globals and keywords, running', { shared: true }, (env) => {
  const dir = tempProject('names-operator');
  const run = (cmd: string, args: string[], extra: Record<string, string> = {}) =>
    execa(cmd, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1', ...extra } });
  let client: Client & { close(): void };
  let operator: ResultPromise<{ all: true; reject: false }> | undefined;

  beforeAll(async () => {
    client = createClient(env.cp.kubeConfig);
    const { runInit } = await import('../../src/cli/init.js');
    const { runCreateApi } = await import('../../src/cli/create-api.js');
    const { runManifests } = await import('../../src/cli/manifests.js');
    const quiet = { out: () => undefined, err: () => undefined, interactive: false };
    await runInit({ dir, domain: 'example.com', skipInstall: true }, quiet);
    for (const kind of NAMES)
      await runCreateApi(
        { dir, group: 'names', version: 'v1', kind, resource: true, controller: true, make: false },
        quiet,
      );
    await runManifests({ dir }, quiet);
    linkNodeModules(dir);
  }, 120_000);

  afterAll(async () => {
    operator?.kill('SIGKILL');
    await operator;
    client?.close();
  });

  it('builds, installs its CRDs, and reconciles an object of every kind', async () => {
    const build = await run(process.execPath, [TSC, '-p', 'tsconfig.build.json']);
    expect(build.exitCode, build.all).toBe(0);
    const kubectl = locateAssets()?.kubectl ?? 'kubectl';
    const kube = { KUBECONFIG: env.cp.kubeconfigPath };
    const applied = await run(kubectl, ['apply', '--server-side', '-f', 'config/crd/bases'], kube);
    expect(applied.exitCode, applied.all).toBe(0);
    await env.cp.waitForCRDs();

    operator = execa(process.execPath, ['build/main.js', '--metrics-bind-address=0', '--health-probe-bind-address=0'], {
      cwd: dir,
      env: kube,
      all: true,
      reject: false,
    });
    let log = '';
    operator.all!.on('data', (c: Buffer) => void (log += c.toString()));

    for (const kind of NAMES) {
      await client.create({
        apiVersion: 'names.example.com/v1',
        kind,
        metadata: { name: `one-${kind.toLowerCase()}`, namespace: 'default' },
        spec: {},
      });
    }
    const available = async (): Promise<string[]> => {
      const missing: string[] = [];
      for (const kind of NAMES) {
        const obj = await client.get(kindFor<Named>({ group: 'names.example.com', version: 'v1', kind }), {
          namespace: 'default',
          name: `one-${kind.toLowerCase()}`,
        });
        if (obj.status?.conditions?.find((c) => c.type === 'Available')?.status !== 'True') missing.push(kind);
      }
      return missing;
    };
    await expect
      .poll(available, { timeout: 90_000, interval: 500 })
      .toEqual([])
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\noperator log:\n${log.slice(-4000)}`);
      });
    expect(operator.exitCode, log).toBeNull();
  }, 240_000);
});
