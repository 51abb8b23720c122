/**
 * `tsop create api` in-process: golden trees after command sequences (single group and
 * multigroup + namespaced manager), re-running rules, prompts, and errors that leave the
 * project untouched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCreateApi, type CreateApiFlags } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { PLUGINS } from '../../src/plugins/catalog.js';
import type { Plugin } from '../../src/plugins/plugin.js';
import { captured, expectGolden, readTree, tempProject } from './harness.js';

const SKIP = ['src/runtime/', 'scripts/control-plane.sh'];

async function project(name: string, init: Parameters<typeof runInit>[0] = {}): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', skipInstall: true, ...init }, captured());
  return dir;
}

const api = (dir: string, flags: CreateApiFlags) => runCreateApi({ dir, make: false, ...flags }, captured());
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: unknown) => (e as Error).message,
  );

// Each case writes a whole project (about 140 files); allow for a loaded machine.
describe('tsop create api', { timeout: 30_000 }, () => {
  it('scaffolds a kind and its controller (golden: guestbook)', async () => {
    const dir = await project('guestbook', { owner: 'The Guestbook Authors' });
    await api(dir, { group: 'webapp', version: 'v1', kind: 'Guestbook' });
    expectGolden('guestbook', readTree(dir), SKIP);
  });

  it('lays out several groups, cluster-scoped kinds, custom plurals and a namespaced manager (golden: fleet)', async () => {
    const dir = await project('fleet', { multigroup: true, namespaced: true, domain: 'fleet.io' });
    await api(dir, { group: 'ship', version: 'v1beta1', kind: 'Frigate' });
    await api(dir, { group: 'ship', version: 'v1', kind: 'Frigate', controller: false });
    await api(dir, { group: 'sea', version: 'v1', kind: 'Harbor', namespaced: false, plural: 'harbours' });
    await api(dir, { group: 'sea', version: 'v1', kind: 'Policy' });
    expectGolden('fleet', readTree(dir), SKIP);
  });

  it('refuses the same group/version/kind twice without --force, and never duplicates insertions with it', async () => {
    const dir = await project('twice');
    await api(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached' });
    const before = readTree(dir);
    expect(await failure(api(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached' }))).toBe(
      'cache/v1alpha1, Kind=Memcached already exists in PROJECT; pass --force to scaffold it again',
    );
    expect(readTree(dir)).toEqual(before);
    await api(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached', force: true });
    expect(readTree(dir)).toEqual(before);
    const main = readFileSync(join(dir, 'src/main.ts'), 'utf8');
    expect(main.split('new MemcachedReconciler()').length).toBe(2);
    expect(readFileSync(join(dir, 'config/crd/kustomization.yaml'), 'utf8').match(/memcacheds\.yaml/g)).toHaveLength(1);
  });

  it('asks to run tsop edit --multigroup for a second group in a single-group project', async () => {
    const dir = await project('single');
    await api(dir, { group: 'cache', version: 'v1', kind: 'Memcached' });
    const before = readTree(dir);
    expect(await failure(api(dir, { group: 'apps', version: 'v1', kind: 'Guestbook' }))).toBe(
      "--group: 'apps' is a second API group (the project has 'cache') and the project is single-group; run 'tsop edit --multigroup' first",
    );
    expect(readTree(dir)).toEqual(before);
    await runEdit({ dir, multigroup: true }, captured());
    await api(dir, { group: 'apps', version: 'v1', kind: 'Guestbook' });
    expect(Object.keys(readTree(dir))).toContain('src/api/apps/v1/guestbook.ts');
  });

  it('adds a new version of a controlled kind as types only, and says so when asked for a second controller', async () => {
    const dir = await project('versions');
    await api(dir, { group: 'batch', version: 'v1', kind: 'CronJob' });
    const before = readTree(dir);
    expect(await failure(api(dir, { group: 'batch', version: 'v2', kind: 'CronJob' }))).toBe(
      '--controller: CronJob already has a controller (created with batch/v1); add the v2 types alone with --controller=false, or pass --force to scaffold the controller again for v2',
    );
    expect(readTree(dir)).toEqual(before);
    await api(dir, { group: 'batch', version: 'v2', kind: 'CronJob', controller: false });
    const after = readTree(dir);
    expect(after['src/api/v2/cronjob.ts']).toContain('export class CronJob ');
    expect(after['src/controllers/cronjob-controller.ts']).toBe(before['src/controllers/cronjob-controller.ts']);
    // Both versions are one CRD: its kustomization entry is not repeated.
    expect(after['config/crd/kustomization.yaml']?.split('- bases/batch.example.com_cronjobs.yaml').length).toBe(2);
  });

  it("--external-api-module adds the package that provides another project's kind to package.json, and PROJECT records it as kubebuilder's module", async () => {
    const dir = await project('external-module');
    const io = captured();
    await runCreateApi(
      {
        dir,
        make: false,
        group: 'cert-manager',
        version: 'v1',
        kind: 'Certificate',
        resource: false,
        controller: true,
        externalApiPath: '@acme/cert-manager-api/v1',
        externalApiDomain: 'io',
        externalApiModule: '@acme/cert-manager-api@1.18.2',
      },
      io,
    );
    const tree = readTree(dir);
    const pkg = JSON.parse(tree['package.json'] ?? '{}') as { dependencies: Record<string, string> };
    expect(pkg.dependencies['@acme/cert-manager-api']).toBe('1.18.2');
    expect(Object.keys(pkg.dependencies)).toEqual([...Object.keys(pkg.dependencies)].sort());
    expect(tree['PROJECT']).toContain(
      '  module: "@acme/cert-manager-api@1.18.2"\n  path: "@acme/cert-manager-api/v1"\n',
    );
    expect(io.stderr).toContain(
      "next: run 'npm install' (package.json has a new dependency), fill in src/controllers/certificate-controller.ts",
    );
    // A module that does not provide the path, a project file, or a bad spec: one line each, nothing written.
    const before = readTree(dir);
    for (const [flags, message] of [
      [
        { externalApiPath: '@acme/gateway-api/v1', externalApiModule: '@acme/cert-manager-api' },
        "--external-api-module: --external-api-path '@acme/gateway-api/v1' is not in the package '@acme/cert-manager-api'",
      ],
      [
        { externalApiPath: 'src/gateway.ts', externalApiModule: 'gateway-api@1' },
        "--external-api-module: 'gateway-api@1' is a package, but --external-api-path 'src/gateway.ts' is a file of this project",
      ],
      [
        { externalApiPath: 'gateway-api', externalApiModule: 'Gateway API' },
        "--external-api-module: 'Gateway API' is not an npm package with an optional version",
      ],
      [
        { externalApiModule: 'gateway-api' },
        "--external-api-module: 'gateway-api' provides another project's kind; pass --external-api-path too",
      ],
      [
        { externalApiPath: '@acme/cert-manager-api/v2', externalApiModule: '@acme/cert-manager-api@2.0.0' },
        "--external-api-module: package.json already depends on @acme/cert-manager-api '1.18.2'",
      ],
    ] as const) {
      expect(
        await failure(
          api(dir, { group: 'gateway', version: 'v1', kind: 'Gateway', resource: false, controller: true, ...flags }),
        ),
      ).toContain(message);
    }
    expect(readTree(dir)).toEqual(before);
  });

  it('says which PROJECT keys it does not read before it writes PROJECT without them', async () => {
    const dir = await project('unknown-keys');
    const file = join(dir, 'PROJECT');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('domain: example.com\n', 'domain: example.com\nprojectVersion: "3"\n'),
    );
    const io = captured();
    await runCreateApi(
      { dir, make: false, group: 'cache', version: 'v1', kind: 'Tray', resource: true, controller: false },
      io,
    );
    expect(io.stderr).toMatch(
      /^tsop: warning: PROJECT:\d+: 'projectVersion' at the top level is not a PROJECT setting tsop knows \(known: [^)]*\); create api writes PROJECT without it\n/,
    );
    expect(readFileSync(file, 'utf8')).not.toContain('projectVersion');
  });

  it('names a further controller on a dotted group as kubebuilder runs it (<group>-<name>, dots kept)', async () => {
    const dir = await project('dotted-named', { multigroup: true, domain: 'testproject.org' });
    const kind = { group: 'foo.policy', version: 'v1', kind: 'HealthCheckPolicy' };
    await api(dir, kind);
    await api(dir, {
      ...kind,
      resource: false,
      controller: true,
      controllerName: 'foo.policy-healthcheckpolicy-audit',
    });
    const tree = readTree(dir);
    const named = tree['src/controllers/foo.policy/foo.policy-healthcheckpolicy-audit-controller.ts'] ?? '';
    expect(named).toContain('export class FooPolicyHealthcheckpolicyAuditReconciler implements Reconciler {');
    expect(named).toContain(".named('foo.policy-healthcheckpolicy-audit')");
    const resource = (parse(tree['PROJECT'] ?? '') as { resources: Array<Record<string, unknown>> }).resources[0];
    expect(resource?.['controllers']).toEqual([
      { name: 'foo.policy-healthcheckpolicy' },
      { name: 'foo.policy-healthcheckpolicy-audit' },
    ]);
  });

  it('adds a further controller of a kind with --controller-name, as kubebuilder v4.15 records it', async () => {
    const dir = await project('named-controllers');
    await api(dir, { group: 'cache', version: 'v1alpha1', kind: 'Memcached' });
    await api(dir, {
      group: 'cache',
      version: 'v1alpha1',
      kind: 'Memcached',
      resource: false,
      controller: true,
      controllerName: 'memcached-backup',
    });
    const tree = readTree(dir);
    const named = tree['src/controllers/memcached-backup-controller.ts'] ?? '';
    expect(named).toContain('export class MemcachedBackupReconciler implements Reconciler {');
    expect(named).toContain(".named('memcached-backup').complete(this);");
    expect(tree['src/controllers/memcached-backup-controller.test.ts']).toContain(
      "import { MemcachedBackupReconciler } from './memcached-backup-controller.js';",
    );
    expect(tree['src/main.ts']).toContain(
      "import { MemcachedBackupReconciler } from './controllers/memcached-backup-controller.js';",
    );
    expect(tree['src/main.ts']).toContain(
      'new MemcachedReconciler().setupWithManager(mgr);\nnew MemcachedBackupReconciler().setupWithManager(mgr);\n',
    );
    // kubebuilder v4.15's PROJECT after the same two commands: the list replaces `controller: true`.
    const resource = (parse(tree['PROJECT'] ?? '') as { resources: Array<Record<string, unknown>> }).resources[0];
    expect(resource?.['controllers']).toEqual([{ name: 'memcached' }, { name: 'memcached-backup' }]);
    expect(resource).not.toHaveProperty('controller');
    // The first controller's file is untouched.
    expect(tree['src/controllers/memcached-controller.ts']).toContain(
      'export class MemcachedReconciler implements Reconciler {',
    );

    expect(
      await failure(
        api(dir, {
          group: 'cache',
          version: 'v1alpha1',
          kind: 'Memcached',
          resource: false,
          controller: true,
          controllerName: 'memcached-backup',
        }),
      ),
    ).toBe(
      "--controller-name: cache/v1alpha1, Kind=Memcached already has the controller 'memcached-backup'; pass --force to scaffold it again",
    );
    await api(dir, { group: 'cache', version: 'v1', kind: 'Shelf', controller: false });
    expect(
      await failure(
        api(dir, {
          group: 'cache',
          version: 'v1',
          kind: 'Shelf',
          resource: false,
          controller: true,
          controllerName: 'memcached-backup',
        }),
      ),
    ).toBe(
      "--controller-name: 'memcached-backup' is already a controller of cache/v1alpha1, Kind=Memcached; controller names are unique in a project, choose another",
    );
    expect(
      await failure(
        api(dir, {
          group: 'cache',
          version: 'v1',
          kind: 'Shelf',
          resource: false,
          controller: true,
          controllerName: 'Shelf_Sync',
        }),
      ),
    ).toContain("--controller-name: 'Shelf_Sync' is not a DNS-1123 subdomain");
    expect(
      await failure(
        api(dir, {
          group: 'cache',
          version: 'v1',
          kind: 'Shelf',
          resource: false,
          controller: false,
          controllerName: 'shelf-sync',
        }),
      ),
    ).toBe('--resource=false and --controller=false: nothing to scaffold');
    expect(
      await failure(
        api(dir, {
          group: 'cache',
          version: 'v1',
          kind: 'Shelf',
          resource: true,
          controller: false,
          controllerName: 'shelf-sync',
          force: true,
        }),
      ),
    ).toBe("--controller-name: 'shelf-sync' names a controller to scaffold; pass --controller too");
    expect(Object.keys(readTree(dir)).filter((f) => f.includes('shelf'))).toEqual([
      'config/rbac/shelf_admin_role.yaml',
      'config/rbac/shelf_editor_role.yaml',
      'config/rbac/shelf_viewer_role.yaml',
      'config/samples/cache_v1_shelf.yaml',
      'src/api/v1/shelf.ts',
    ]);
  });

  it('marks the first version as the storage version when a second one comes, so --make goes on working', async () => {
    const dir = await project('storage');
    await api(dir, { group: 'batch', version: 'v1', kind: 'CronJob' });
    const v1 = readFileSync(join(dir, 'src/api/v1/cronjob.ts'), 'utf8');
    await runCreateApi({ dir, group: 'batch', version: 'v2', kind: 'CronJob', controller: false }, captured());
    const marked = readFileSync(join(dir, 'src/api/v1/cronjob.ts'), 'utf8');
    expect(marked).toBe(
      v1
        .replace('  Resource,\n', '  Resource,\n  StorageVersion,\n')
        .replace('@Resource()\n', '@StorageVersion()\n@Resource()\n'),
    );
    expect(readFileSync(join(dir, 'src/api/v2/cronjob.ts'), 'utf8')).not.toContain('StorageVersion');
    const crd = parse(readFileSync(join(dir, 'config/crd/bases/batch.example.com_cronjobs.yaml'), 'utf8')) as {
      spec: { versions: { name: string; storage: boolean }[] };
    };
    expect(crd.spec.versions.map((v) => [v.name, v.storage])).toEqual([
      ['v1', true],
      ['v2', false],
    ]);
    // A third version finds a storage version and changes nothing in the others.
    await api(dir, { group: 'batch', version: 'v3', kind: 'CronJob', controller: false });
    expect(readFileSync(join(dir, 'src/api/v1/cronjob.ts'), 'utf8')).toBe(marked);
    expect(readFileSync(join(dir, 'src/api/v2/cronjob.ts'), 'utf8')).not.toContain('StorageVersion');
  }, 60_000);

  it('writes nothing when a marker is missing, and names the file and the marker', async () => {
    const dir = await project('nomarker');
    const main = join(dir, 'src/main.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('// +kubebuilder:scaffold:builder\n', ''));
    const before = readTree(dir);
    expect(await failure(api(dir, { group: 'cache', version: 'v1', kind: 'Memcached' }))).toBe(
      "src/main.ts: marker '+kubebuilder:scaffold:builder' not found; restore the line containing it to let tsop add code there",
    );
    expect(readTree(dir)).toEqual(before);
  });

  it.each([
    [
      { kind: 'memcached' },
      "--kind: 'memcached' is not UpperCamelCase (starts with an upper-case letter; only letters and digits); use 'Memcached'",
    ],
    [
      { version: 'v1.0' },
      "--version: 'v1.0' is not a Kubernetes API version (v<N>, optionally followed by alpha<N> or beta<N>); use e.g. 'v1', 'v1alpha1' or 'v2beta1'",
    ],
    [
      { group: 'Cache' },
      [
        "--group: 'Cache' is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.'; each part",
        "starts and ends with a letter or digit); use a name like 'batch' or 'foo.policy' (the domain is",
        'added from PROJECT)',
      ].join(' '),
    ],
    [
      { plural: 'Memcacheds' },
      "--plural: 'Memcacheds' is not a DNS-1123 label (lower-case letters, digits and '-'); use the lower-case plural, e.g. 'cronjobs'",
    ],
    [{ kind: undefined }, '--kind is required; e.g. tsop create api --group batch --version v1 --kind CronJob'],
    [
      { plugins: 'go.kubebuilder.io/v4' },
      "--plugins: 'go.kubebuilder.io/v4' is not a tsop plugin; known plugins: 'typescript.tsop.dev/v1', 'deploy-image/v1-alpha'",
    ],
  ])('rejects %o with one line', async (flags, expected) => {
    const dir = await project('bad');
    expect(await failure(api(dir, { group: 'cache', version: 'v1', kind: 'Memcached', ...flags }))).toBe(expected);
  });

  it('says so outside a tsop project', async () => {
    const dir = tempProject('empty');
    expect(await failure(api(dir, { group: 'cache', version: 'v1', kind: 'Memcached' }))).toBe(
      `create api: ${dir} is not a tsop project (no PROJECT file); run 'tsop init' first, or run this command in the project's directory`,
    );
  });

  it('asks y/n only on a terminal', async () => {
    const dir = await project('ask');
    const questions: string[] = [];
    const answers = ['maybe', 'y', 'n'];
    const io = {
      ...captured(),
      interactive: true,
      ask: async (q: string) => (questions.push(q), answers.shift() ?? ''),
    };
    await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, io);
    expect(questions).toEqual(['Create Resource [y/n]\n', 'Create Resource [y/n]\n', 'Create Controller [y/n]\n']);
    const files = Object.keys(readTree(dir));
    expect(files).toContain('src/api/v1/memcached.ts');
    expect(files).not.toContain('src/controllers/memcached-controller.ts');
  });

  it('runs tsop manifests in-process with --make', async () => {
    const dir = await project('make');
    await runCreateApi({ dir, group: 'cache', version: 'v1alpha1', kind: 'Memcached' }, captured());
    const crd = readFileSync(join(dir, 'config/crd/bases/cache.example.com_memcacheds.yaml'), 'utf8');
    expect(crd).toContain('name: memcacheds.cache.example.com');
    expect(crd).toContain('subresources:\n      status: {}');
    const role = readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8');
    expect(role).toContain('memcacheds/finalizers');
  }, 60_000);

  it('runs a plugin named with --plugins in the same plan: its files land with the base, or nothing does', async () => {
    const plugin: Plugin = {
      key: 'test-image/v1',
      name: 'test-image',
      description: 'a file naming the image beside the controller',
      createApi: {
        scaffold(ctx) {
          ctx.tree.create(
            `${ctx.names.paths.controllerDir}/${ctx.names.lowerKind}-image.ts`,
            `${ctx.header}export const image = '${String(ctx.flags['plugins'])}';\n`,
          );
          ctx.tree.insert('src/main.ts', '+kubebuilder:scaffold:builder', `// image for ${ctx.resource.kind}`);
          return {
            ...ctx.config,
            plugins: { ...ctx.config.plugins, 'test-image/v1': { resources: [ctx.resource.kind] } },
          };
        },
      },
    };
    PLUGINS.push(plugin);
    try {
      const dir = await project('plugged');
      await api(dir, { group: 'cache', version: 'v1', kind: 'Memcached', plugins: 'test-image/v1' });
      const files = readTree(dir);
      expect(files['src/controllers/memcached-image.ts']).toContain("export const image = 'test-image/v1';");
      expect(files['src/main.ts']).toContain(
        'new MemcachedReconciler().setupWithManager(mgr);\n// image for Memcached\n// +kubebuilder:scaffold:builder',
      );
      expect(files['PROJECT']).toContain('test-image/v1:\n    resources:\n    - Memcached');
      // Second kind: the plugin's file for it already exists, so the whole plan is refused.
      writeFileSync(join(dir, 'src/controllers/redis-image.ts'), 'mine');
      const before = readTree(dir);
      expect(await failure(api(dir, { group: 'cache', version: 'v1', kind: 'Redis', plugins: 'test-image/v1' }))).toBe(
        'src/controllers/redis-image.ts already exists; pass --force to overwrite it',
      );
      expect(readTree(dir)).toEqual(before);
    } finally {
      PLUGINS.splice(PLUGINS.indexOf(plugin), 1);
    }
  });
});
