/**
 * Controllers for kinds the project does not define, and the same kind in two groups, as a
 * kubebuilder user writes them (issue 12 items 3 and 4), from the built CLI to a running
 * operator on a real control plane. One multigroup project gets:
 * - `--group ship --kind Frigate` types first, its controller later (`--resource=false
 *   --controller`, no --force), and `--group sea --kind Frigate` with its controller: main.ts
 *   imports both FrigateReconcilers under distinct names and registers both;
 * - `--group apps --version v1 --kind Deployment --resource=false --controller` (a built-in kind);
 * - `--group cert-manager --kind Certificate --external-api-path src/… --external-api-domain io`
 *   (another project's kind, its type from a project file, its CRD given to the API server here).
 * PROJECT records them as kubebuilder v4.15.0 does; the project type-checks (tests included);
 * the operator reconciles a Deployment, a Certificate and a Frigate of each group.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { kindFor, type KubeObject } from '../../runtime/apimachinery/index.js';
import { createClient, type Client } from '../../runtime/client/index.js';
import { locateAssets } from '../../runtime/envtest/index.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { tempProject } from '../scaffold/harness.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');

/** What the author of the operator writes: the part of cert-manager's Certificate it reads. */
const CERTIFICATE_TYPE = `import type { ObjectMeta } from '../../../runtime/markers/index.js';

/** cert-manager's Certificate (cert-manager.io/v1), as much of it as this operator reads. */
export interface Certificate {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { secretName?: string; dnsNames?: string[] };
}
`;

/** What the test reads of a Frigate (either group). */
interface Frigate extends KubeObject {
  status?: { conditions?: { type: string; status: string }[] };
}

/** A stand-in for cert-manager's CRD: the same group, version, kind and plural. */
const CERTIFICATE_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
spec:
  group: cert-manager.io
  names: { kind: Certificate, listKind: CertificateList, plural: certificates, singular: certificate }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: { status: {} }
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: { type: object, x-kubernetes-preserve-unknown-fields: true }
          status: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;

describeWithControlPlane('create api for built-in, external and same-named kinds', { shared: true }, (env) => {
  const dir = tempProject('fleet-operator');
  const run = (cmd: string, args: string[], extra: Record<string, string> = {}) =>
    execa(cmd, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1', ...extra } });
  const tsop = (...args: string[]) => run(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args]);
  let client: Client & { close(): void };
  let operator: ResultPromise<{ all: true; reject: false }> | undefined;

  beforeAll(async () => {
    client = createClient(env.cp.kubeConfig);
    expect((await tsop('init', '--domain', 'example.com', '--multigroup', '--skip-install')).exitCode).toBe(0);
    linkNodeModules(dir);
    const steps = [
      ['--group', 'ship', '--version', 'v1', '--kind', 'Frigate', '--resource', '--controller=false'],
      ['--group', 'sea', '--version', 'v1', '--kind', 'Frigate', '--resource', '--controller'],
      ['--group', 'ship', '--version', 'v1', '--kind', 'Frigate', '--resource=false', '--controller'],
      ['--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false', '--controller'],
      [
        '--group',
        'cert-manager',
        '--version',
        'v1',
        '--kind',
        'Certificate',
        '--resource=false',
        '--controller',
        '--external-api-path',
        'src/external/certmanager/v1/certificate.ts',
        '--external-api-domain',
        'io',
      ],
    ];
    for (const step of steps) {
      const create = await tsop('create', 'api', ...step, '--make=false');
      expect(create.exitCode, `${step.join(' ')}\n${create.all}`).toBe(0);
    }
    mkdirSync(join(dir, 'src/external/certmanager/v1'), { recursive: true });
    writeFileSync(join(dir, 'src/external/certmanager/v1/certificate.ts'), CERTIFICATE_TYPE);
    mkdirSync(join(dir, 'config/crd/external'), { recursive: true });
    writeFileSync(join(dir, 'config/crd/external/cert-manager.io_certificates.yaml'), CERTIFICATE_CRD);
    const manifests = await tsop('manifests');
    expect(manifests.exitCode, manifests.all).toBe(0);
  }, 120_000);

  afterAll(async () => {
    operator?.kill('SIGKILL');
    await operator;
    client?.close();
  });

  it('records each kind in PROJECT as kubebuilder does, keeping the API settings of a kind that gets its controller later', () => {
    const project = parse(readFileSync(join(dir, 'PROJECT'), 'utf8')) as { resources: Record<string, unknown>[] };
    // kubebuilder v4.15.0 writes these two entries for the same commands.
    expect(project.resources).toContainEqual({
      controller: true,
      core: true,
      group: 'apps',
      kind: 'Deployment',
      path: 'k8s.io/api/apps/v1',
      version: 'v1',
    });
    expect(project.resources).toContainEqual({
      controller: true,
      domain: 'io',
      external: true,
      group: 'cert-manager',
      kind: 'Certificate',
      path: 'src/external/certmanager/v1/certificate.ts',
      version: 'v1',
    });
    expect(project.resources).toContainEqual({
      api: { crdVersion: 'v1', namespaced: true },
      controller: true,
      domain: 'example.com',
      group: 'ship',
      kind: 'Frigate',
      path: 'src/api/ship/v1',
      version: 'v1',
    });
    const role = readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8');
    expect(role).toMatch(/- apps\n\s+resources:\n\s+- deployments\n/);
    expect(role).toMatch(/- cert-manager\.io\n\s+resources:\n\s+- certificates\n/);
  });

  it('refuses a second controller for the same kind in one line, without --force', async () => {
    const again = await tsop(
      'create',
      'api',
      '--group',
      'ship',
      '--version',
      'v1',
      '--kind',
      'Frigate',
      '--resource=false',
      '--controller',
      '--make=false',
    );
    expect(again.exitCode).toBe(1);
    expect(again.stderr.trim().split('\n')).toEqual([
      'tsop: --controller: ship/v1, Kind=Frigate already has a controller; pass --force to scaffold it again',
    ]);
  });

  it('imports both Frigate reconcilers under distinct names, and the project type-checks with its tests', async () => {
    const main = readFileSync(join(dir, 'src/main.ts'), 'utf8');
    expect(main).toContain("import { FrigateReconciler } from './controllers/sea/frigate-controller.js';");
    expect(main).toContain(
      "import { FrigateReconciler as ShipFrigateReconciler } from './controllers/ship/frigate-controller.js';",
    );
    expect(main).toContain(
      'new FrigateReconciler().setupWithManager(mgr);\nnew ShipFrigateReconciler().setupWithManager(mgr);',
    );
    const tests = await run(process.execPath, [TSC, '-p', 'tsconfig.json']);
    expect(tests.exitCode, tests.all).toBe(0);
    const build = await run(process.execPath, [TSC, '-p', 'tsconfig.build.json']);
    expect(build.exitCode, build.all).toBe(0);
  }, 120_000);

  it('runs every controller: a Deployment, a Certificate and a Frigate of each group are reconciled', async () => {
    const kubectl = locateAssets()?.kubectl ?? 'kubectl';
    const kube = { KUBECONFIG: env.cp.kubeconfigPath };
    for (const crds of ['config/crd/bases', 'config/crd/external']) {
      const applied = await run(kubectl, ['apply', '-f', crds], kube);
      expect(applied.exitCode, applied.all).toBe(0);
    }
    await env.cp.waitForCRDs();

    operator = execa(process.execPath, ['build/main.js', '--metrics-bind-address=0', '--health-probe-bind-address=0'], {
      cwd: dir,
      env: { ...kube, LOG_LEVEL: 'info' },
      all: true,
      reject: false,
    });
    let log = '';
    operator.all!.on('data', (c: Buffer) => void (log += c.toString()));
    const lines = () =>
      log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);

    const ns = 'default';
    await client.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    });
    await client.create({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'site', namespace: ns },
      spec: { secretName: 'site-tls' },
    });
    for (const group of ['ship', 'sea']) {
      await client.create({
        apiVersion: `${group}.example.com/v1`,
        kind: 'Frigate',
        metadata: { name: `${group}-one`, namespace: ns },
        spec: {},
      });
    }

    await expect
      .poll(() => lines().some((l) => l['msg'] === 'reconciled Deployment' && l['name'] === 'web'), {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(true);
    await expect
      .poll(() => lines().some((l) => l['msg'] === 'reconciled Certificate' && l['name'] === 'site'), {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(true);
    for (const group of ['ship', 'sea']) {
      const available = async () => {
        const frigateKind = kindFor<Frigate>({ group: `${group}.example.com`, version: 'v1', kind: 'Frigate' });
        const f = await client.get(frigateKind, { namespace: ns, name: `${group}-one` });
        return f.status?.conditions?.find((c) => c.type === 'Available')?.status;
      };
      await expect.poll(available, { timeout: 30_000, interval: 200 }).toBe('True');
    }
    const controllers = new Set(
      lines()
        .map((l) => l['controller'])
        .filter((c) => c !== undefined),
    );
    expect([...controllers].sort()).toEqual(
      expect.arrayContaining(['apps-deployment', 'cert-manager-certificate', 'sea-frigate', 'ship-frigate']),
    );
    expect(
      lines().filter((l) => l['level'] === 'error' || l['level'] === 50),
      log,
    ).toEqual([]);
  }, 120_000);
});
