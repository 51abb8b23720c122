/**
 * `create api` for kinds the project does not define (built-in kinds, other projects' kinds),
 * a controller added later to a kind that exists, and two kinds of the same name in two groups:
 * what is written and recorded, and what is refused in one line with nothing written. The
 * end-to-end run on a real control plane is test/e2e/create-api-kinds.int.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { builtinKinds, gvkString } from '../../runtime/apimachinery/index.js';
import { runCreateApi, type CreateApiFlags } from '../../src/cli/create-api.js';
import { runInit } from '../../src/cli/init.js';
import { RUNTIME_KINDS } from '../../src/plugins/base/api-kind.js';
import { captured, oneLineDecorators, readTree, tempProject } from './harness.js';

async function project(name: string, multigroup = false): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', skipInstall: true, multigroup }, captured());
  return dir;
}
const api = (dir: string, flags: CreateApiFlags) => runCreateApi({ dir, make: false, ...flags }, captured());
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: unknown) => (e as Error).message,
  );
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const resources = (dir: string) => (parse(read(dir, 'PROJECT')) as { resources: Record<string, unknown>[] }).resources;

describe('create api for kinds the project does not define', { timeout: 30_000 }, () => {
  it('knows the same typed kinds as the runtime', () => {
    const runtime = builtinKinds.map((k) => `${k.group}/${k.version}/${k.kind}`).sort();
    expect(Object.keys(RUNTIME_KINDS).sort()).toEqual(runtime);
    expect(builtinKinds.map(gvkString)).toContain('apps/v1, Kind=Deployment');
  });

  it('scaffolds a controller for a built-in kind with the runtime typed kind, its RBAC group and kubebuilder PROJECT entry', async () => {
    const dir = await project('core');
    await api(dir, { group: 'apps', version: 'v1', kind: 'Deployment', resource: false, controller: true });
    const controller = oneLineDecorators(read(dir, 'src/controllers/deployment-controller.ts'));
    expect(controller).toContain("import { deploymentKind, KindRegistry } from '../runtime/apimachinery/index.js';");
    expect(controller).toContain("import type { V1Deployment } from '@kubernetes/client-node';");
    expect(controller).toContain(
      "@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] })",
    );
    expect(controller).not.toContain('patchStatus');
    expect(read(dir, 'src/controllers/deployment-controller.test.ts')).toContain(
      "namespace: 'default', name: 'missing-deployment'",
    );
    expect(resources(dir)).toEqual([
      { controller: true, core: true, group: 'apps', kind: 'Deployment', path: 'k8s.io/api/apps/v1', version: 'v1' },
    ]);
    expect(read(dir, 'src/main.ts')).toContain('new DeploymentReconciler().setupWithManager(mgr);');
  });

  it('types a built-in kind the runtime has no constant for with its client-node model; core group is the empty API group', async () => {
    const dir = await project('core-other');
    await api(dir, { group: 'storage', version: 'v1', kind: 'StorageClass', resource: false, controller: true });
    const sc = oneLineDecorators(read(dir, 'src/controllers/storageclass-controller.ts'));
    expect(sc).toContain("import type { V1StorageClass } from '@kubernetes/client-node';");
    expect(sc).toContain(
      "const storageClassKind = kindFor<V1StorageClass>({ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass' });",
    );
    expect(sc).toContain("groups: ['storage.k8s.io'], resources: ['storageclasses']");
    // Cluster-scoped: the contract test asks for no namespace.
    expect(read(dir, 'src/controllers/storageclass-controller.test.ts')).toContain(
      "const req: Request = { name: 'missing-storageclass' };",
    );
    await api(dir, { group: 'core', version: 'v1', kind: 'Event', resource: false, controller: true });
    const ev = oneLineDecorators(read(dir, 'src/controllers/event-controller.ts'));
    expect(ev).toContain("import type { CoreV1Event } from '@kubernetes/client-node';");
    expect(ev).toContain("groups: [''], resources: ['events']");
    expect(resources(dir)).toContainEqual({
      controller: true,
      core: true,
      group: 'core',
      kind: 'Event',
      path: 'k8s.io/api/core/v1',
      version: 'v1',
    });
  });

  it('refuses a built-in group/version/kind that does not exist, in one line, writing nothing', async () => {
    const dir = await project('core-typo');
    const before = readTree(dir);
    expect(
      await failure(api(dir, { group: 'apps', version: 'v1', kind: 'Deploymnet', resource: false, controller: true })),
    ).toBe(
      "--kind: 'Deploymnet' is not a built-in kind of apps/v1 (no such model in " +
        '@kubernetes/client-node); check the group, version and kind (e.g. --group apps --version ' +
        "v1 --kind Deployment), or pass --external-api-path for another project's kind",
    );
    expect(readTree(dir)).toEqual(before);
  });

  it("imports another project's kind from --external-api-path, with RBAC for <group>.<domain>", async () => {
    const dir = await project('external');
    await api(dir, {
      group: 'cert-manager',
      version: 'v1',
      kind: 'Certificate',
      resource: false,
      controller: true,
      externalApiPath: '@acme/cert-manager-api/v1',
      externalApiDomain: 'io',
    });
    const c = oneLineDecorators(read(dir, 'src/controllers/certificate-controller.ts'));
    expect(c).toContain("import type { Certificate } from '@acme/cert-manager-api/v1';");
    expect(c).toContain(
      "const certificateKind = kindFor<Certificate>({ group: 'cert-manager.io', version: 'v1', kind: 'Certificate' });",
    );
    expect(c).toContain("groups: ['cert-manager.io'], resources: ['certificates']");
    expect(read(dir, 'src/controllers/certificate-controller.test.ts')).toContain(
      "new URL('../../config/crd/external/', import.meta.url)",
    );
    expect(resources(dir)).toEqual([
      {
        controller: true,
        domain: 'io',
        external: true,
        group: 'cert-manager',
        kind: 'Certificate',
        path: '@acme/cert-manager-api/v1',
        version: 'v1',
      },
    ]);
  });

  it.each([
    [{ externalApiPath: 'x y' }, "--external-api-path: 'x y' is neither an npm package"],
    [
      { externalApiPath: "src/a';.ts" },
      "--external-api-path: 'src/a';.ts' names a file of this project, which must be a TypeScript file under src/ ending in .ts",
    ],
    [
      { externalApiPath: 'src/external/certificate.js' },
      "--external-api-path: 'src/external/certificate.js' names a file of this project, which " +
        'must be a TypeScript file under src/ ending in .ts; name the .ts file that exports the ' +
        "kind's type, e.g. 'src/external/certificate.ts'",
    ],
    [
      { externalApiPath: '@acme/api', resource: true },
      "--external-api-path: '@acme/api' is another project's API, so tsop scaffolds no types for it; pass --resource=false --controller",
    ],
    [
      { externalApiDomain: 'io' },
      "--external-api-domain: 'io' names the domain of another project's kind; pass --external-api-path too",
    ],
    [
      { externalApiPath: '@acme/api', externalApiDomain: 'Bad_Domain' },
      "--external-api-domain: 'Bad_Domain' is not a DNS-1123 subdomain",
    ],
  ] as [CreateApiFlags, string][])('refuses %j in one line, writing nothing', async (flags, message) => {
    const dir = await project('external-bad');
    const before = readTree(dir);
    const got = await failure(
      api(dir, {
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        resource: false,
        controller: true,
        ...flags,
      }),
    );
    expect(got.startsWith(message), got).toBe(true);
    expect(got).not.toContain('\n');
    expect(readTree(dir)).toEqual(before);
  });

  it('adds a controller later to a kind that exists, without --force, keeping its API settings', async () => {
    const dir = await project('later');
    await api(dir, {
      group: 'cache',
      version: 'v1',
      kind: 'Memcached',
      controller: false,
      namespaced: false,
      plural: 'memcacheds',
    });
    await api(dir, { group: 'cache', version: 'v1', kind: 'Memcached', resource: false, controller: true });
    expect(resources(dir)).toEqual([
      {
        api: { crdVersion: 'v1', namespaced: false },
        controller: true,
        domain: 'example.com',
        group: 'cache',
        kind: 'Memcached',
        path: 'src/api/v1',
        plural: 'memcacheds',
        version: 'v1',
      },
    ]);
    // Cluster-scoped kind: its controller test asks without a namespace.
    expect(read(dir, 'src/controllers/memcached-controller.test.ts')).toContain(
      "const req: Request = { name: 'missing-memcached' };",
    );
    expect(
      await failure(api(dir, { group: 'cache', version: 'v1', kind: 'Memcached', resource: false, controller: true })),
    ).toBe('--controller: cache/v1, Kind=Memcached already has a controller; pass --force to scaffold it again');
  });

  it('imports the same kind of two groups under distinct names in main.ts (multigroup), and a built-in kind of the same name too', async () => {
    const dir = await project('twins', true);
    await api(dir, { group: 'ship', version: 'v1', kind: 'Deployment' });
    await api(dir, { group: 'sea', version: 'v1', kind: 'Deployment' });
    await api(dir, { group: 'apps', version: 'v1', kind: 'Deployment', resource: false, controller: true });
    const main = read(dir, 'src/main.ts');
    expect(main).toContain("import { DeploymentReconciler } from './controllers/ship/deployment-controller.js';");
    expect(main).toContain(
      "import { DeploymentReconciler as SeaDeploymentReconciler } from './controllers/sea/deployment-controller.js';",
    );
    expect(main).toContain(
      "import { DeploymentReconciler as AppsDeploymentReconciler } from './controllers/apps/deployment-controller.js';",
    );
    expect(main).toContain(
      'new DeploymentReconciler().setupWithManager(mgr);\nnew SeaDeploymentReconciler().setupWithManager(mgr);\nnew AppsDeploymentReconciler().setupWithManager(mgr);',
    );
    // --force on one of them registers nothing twice.
    await api(dir, { group: 'sea', version: 'v1', kind: 'Deployment', force: true });
    expect(read(dir, 'src/main.ts')).toBe(main);
  });
});
