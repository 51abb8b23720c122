/**
 * `create api --plugins deploy-image/v1-alpha`: the scaffolded project (golden: memcached-deploy-image),
 * PROJECT in kubebuilder's shape, the image variable in config/manager/manager.yaml, the
 * controller's @Rbac, the CRD and role `--make` generates from them, re-running with --force,
 * and every bad flag refused by the built CLI with one line, exit 1 and nothing written.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCreateApi, type CreateApiFlags } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { restoreImageEnvs } from '../../src/plugins/deploy-image/scaffold.js';
import { loadProject } from '../../src/project/load.js';
import { renderTemplate } from '../../src/scaffold/render.js';
import { diskSource, Tree } from '../../src/scaffold/tree.js';
import { captured, expectGolden, oneLineDecorators, readTree, tempProject } from './harness.js';

const SKIP = ['src/runtime/', 'scripts/control-plane.sh'];
const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));
const MEMCACHED = {
  group: 'cache',
  version: 'v1alpha1',
  kind: 'Memcached',
  plugins: 'deploy-image/v1-alpha',
  image: 'memcached:1.6.26-alpine',
} as const;
const ALL_FLAGS = {
  ...MEMCACHED,
  imageContainerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
  imageContainerPort: '11211',
  runAsUser: '1001',
} as const;

async function project(name: string, init: Parameters<typeof runInit>[0] = {}): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', skipInstall: true, ...init }, captured());
  return dir;
}

const api = (dir: string, flags: CreateApiFlags) => runCreateApi({ dir, make: false, ...flags }, captured());

/** The manager container's env list, parsed from config/manager/manager.yaml. */
function managerEnv(dir: string): unknown {
  const docs = readFileSync(join(dir, 'config/manager/manager.yaml'), 'utf8')
    .split(/^---$/m)
    .map((d) => parse(d) as { kind: string; spec?: { template: { spec: { containers: { env?: unknown }[] } } } });
  return docs.find((d) => d.kind === 'Deployment')?.spec?.template.spec.containers[0]?.env;
}

const decorators = (source: string): string[] =>
  oneLineDecorators(source)
    .split('\n')
    .filter((l) => l.startsWith('@Rbac('));

async function tsop(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('create api --plugins deploy-image/v1-alpha', { timeout: 60_000 }, () => {
  it('scaffolds the kind, controller, test, sample and manager env (golden: memcached-deploy-image)', async () => {
    const dir = await project('memcached-operator', { owner: 'The Memcached Authors' });
    await api(dir, ALL_FLAGS);
    const files = readTree(dir);
    expectGolden('memcached-deploy-image', files, SKIP);

    // PROJECT: kubebuilder v4.15's shape under tsop's key, options as strings.
    const projectFile = parse(files['PROJECT']!) as {
      plugins: Record<string, unknown>;
      resources: unknown[];
      layout: string[];
    };
    expect(projectFile.layout).toEqual(['typescript.tsop.dev/v1']);
    expect(projectFile.plugins['deploy-image.typescript.tsop.dev/v1-alpha']).toEqual({
      resources: [
        {
          domain: 'example.com',
          group: 'cache',
          kind: 'Memcached',
          options: {
            containerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
            containerPort: '11211',
            image: 'memcached:1.6.26-alpine',
            runAsUser: '1001',
          },
          version: 'v1alpha1',
        },
      ],
    });
    expect(files['PROJECT']).toContain('containerPort: "11211"');
    expect(projectFile.resources).toEqual([
      {
        api: { crdVersion: 'v1', namespaced: true },
        controller: true,
        domain: 'example.com',
        group: 'cache',
        kind: 'Memcached',
        path: 'src/api/v1alpha1',
        version: 'v1alpha1',
      },
    ]);

    expect(managerEnv(dir)).toEqual([{ name: 'MEMCACHED_IMAGE', value: 'memcached:1.6.26-alpine' }]);

    const controller = files['src/controllers/memcached-controller.ts']!;
    expect(decorators(controller)).toEqual([
      "@Rbac({ groups: ['cache.example.com'], resources: ['memcacheds'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] })",
      "@Rbac({ groups: ['cache.example.com'], resources: ['memcacheds/status'], verbs: ['get', 'update', 'patch'] })",
      "@Rbac({ groups: ['cache.example.com'], resources: ['memcacheds/finalizers'], verbs: ['update'] })",
      "@Rbac({ groups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] })",
      "@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] })",
      "@Rbac({ groups: ['core'], resources: ['pods'], verbs: ['get', 'list', 'watch'] })",
    ]);
    expect(controller).toContain("export const memcachedFinalizer = 'cache.example.com/finalizer';");
    expect(controller).toContain("command: ['memcached', '--memory-limit=64', '-o', 'modern', '-v'],");
    expect(controller).toContain('runAsUser: 1001,');
    expect(controller).toContain(
      'ports: [{ containerPort: memcached.spec.containerPort, name: memcachedContainerName }],',
    );
    expect(controller).toContain('.owns(deploymentKind)');

    const types = files['src/api/v1alpha1/memcached.ts']!;
    expect(types).toContain('  @Default(1)\n  @Minimum(0)\n  size?: int32;');
    expect(types).toContain('  containerPort!: int32;');
    expect(parse(files['config/samples/cache_v1alpha1_memcached.yaml']!)).toMatchObject({
      spec: { size: 1, containerPort: 11211 },
    });
    // The base controller's registration in main.ts stays; setupWithManager takes the manager's event recorder.
    expect(files['src/main.ts']).toContain('new MemcachedReconciler().setupWithManager(mgr);');
  });

  it('leaves out the port, command and user when not given', async () => {
    const dir = await project('plain');
    await api(dir, MEMCACHED);
    const files = readTree(dir);
    expect(files['src/api/v1alpha1/memcached.ts']).not.toContain('containerPort');
    expect(files['src/controllers/memcached-controller.ts']).not.toMatch(/containerPort|command:|runAsUser/);
    expect(files['src/controllers/memcached-controller.test.ts']).not.toMatch(/containerPort|command|runAsUser/);
    expect(parse(files['config/samples/cache_v1alpha1_memcached.yaml']!)).toMatchObject({ spec: { size: 1 } });
    expect(files['config/samples/cache_v1alpha1_memcached.yaml']).not.toContain('containerPort');
    const plugins = (parse(files['PROJECT']!) as { plugins: Record<string, { resources: unknown[] }> }).plugins;
    expect(plugins['deploy-image.typescript.tsop.dev/v1-alpha']?.resources).toEqual([
      {
        domain: 'example.com',
        group: 'cache',
        kind: 'Memcached',
        options: { image: 'memcached:1.6.26-alpine' },
        version: 'v1alpha1',
      },
    ]);
  });

  it("adds each kind its own variable after the namespaced manager's WATCH_NAMESPACE, with namespaced @Rbac, and --force changes the image in place", async () => {
    const dir = await project('ns', { namespaced: true });
    await api(dir, MEMCACHED);
    await api(dir, { ...MEMCACHED, kind: 'Redis', image: 'redis:7.4' });
    const watch = { name: 'WATCH_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
    expect(managerEnv(dir)).toEqual([
      watch,
      { name: 'MEMCACHED_IMAGE', value: 'memcached:1.6.26-alpine' },
      { name: 'REDIS_IMAGE', value: 'redis:7.4' },
    ]);
    const controller = readFileSync(join(dir, 'src/controllers/redis-controller.ts'), 'utf8');
    expect(decorators(controller)).toContain(
      "@Rbac({ groups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], namespace: 'ns-system' })",
    );

    await api(dir, { ...MEMCACHED, image: 'memcached:1.6.27-alpine', imageContainerPort: '11211', force: true });
    expect(managerEnv(dir)).toEqual([
      watch,
      { name: 'MEMCACHED_IMAGE', value: 'memcached:1.6.27-alpine' },
      { name: 'REDIS_IMAGE', value: 'redis:7.4' },
    ]);
    const plugin = (
      parse(readFileSync(join(dir, 'PROJECT'), 'utf8')) as {
        plugins: Record<string, { resources: { kind: string; options: unknown }[] }>;
      }
    ).plugins['deploy-image.typescript.tsop.dev/v1-alpha'];
    expect(plugin?.resources.map((r) => [r.kind, r.options])).toEqual([
      ['Redis', { image: 'redis:7.4' }],
      ['Memcached', { image: 'memcached:1.6.27-alpine', containerPort: '11211' }],
    ]);
    expect(readFileSync(join(dir, 'src/api/v1alpha1/memcached.ts'), 'utf8')).toContain('containerPort!: int32;');
  });

  it('generates a CRD with size defaulted to 1 (minimum 0) and a required containerPort, and the role, with --make', async () => {
    const dir = await project('make');
    await runCreateApi({ dir, ...ALL_FLAGS }, captured());
    const crd = parse(readFileSync(join(dir, 'config/crd/bases/cache.example.com_memcacheds.yaml'), 'utf8')) as {
      spec: {
        versions: {
          schema: {
            openAPIV3Schema: {
              required?: string[];
              properties: { spec: { required?: string[]; properties: Record<string, unknown> } };
            };
          };
        }[];
      };
    };
    const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
    expect(schema.required).toEqual(['spec']);
    expect(schema.properties.spec.required).toEqual(['containerPort']);
    expect(schema.properties.spec.properties['size']).toEqual({
      default: 1,
      description: 'size defines the number of Memcached instances.',
      format: 'int32',
      minimum: 0,
      type: 'integer',
    });
    expect(schema.properties.spec.properties['containerPort']).toMatchObject({ format: 'int32', type: 'integer' });
    const role = parse(readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8')) as {
      rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    };
    const rule = (group: string, resource: string) =>
      role.rules.find((r) => r.apiGroups.includes(group) && r.resources.includes(resource))?.verbs;
    expect(rule('events.k8s.io', 'events')).toEqual(['create', 'patch']);
    expect(rule('apps', 'deployments')).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(rule('', 'pods')).toEqual(['get', 'list', 'watch']);
    expect(rule('cache.example.com', 'memcacheds/finalizers')).toEqual(['update']);
  });

  it.each(['deploy-image.go.kubebuilder.io/v1-alpha', 'deploy-image.typescript.tsop.dev/v1-alpha'])(
    'takes the full key %s after --plugins',
    async (key) => {
      const dir = await project('full-key');
      await api(dir, { ...MEMCACHED, plugins: key });
      const files = readTree(dir);
      expect(files['src/controllers/memcached-controller.ts']).toContain('deploymentForMemcached');
      expect(Object.keys((parse(files['PROJECT']!) as { plugins: Record<string, unknown> }).plugins)).toEqual([
        'deploy-image.typescript.tsop.dev/v1-alpha',
        'typescript.tsop.dev/v1',
      ]);
    },
  );

  it('asks nothing on a terminal (the plugin scaffolds both API and controller) and --dry-run lists the plan', async () => {
    const dir = await project('quiet');
    const asked: string[] = [];
    const io = Object.assign(captured(), { interactive: true, ask: async (q: string) => (asked.push(q), 'n') });
    await runCreateApi({ dir, make: false, dryRun: true, ...MEMCACHED }, io);
    expect(asked).toEqual([]);
    expect(io.stdout.split('\n').filter((l) => l.includes('memcached') || l.includes('manager'))).toEqual([
      'update    config/manager/manager.yaml',
      'create    config/rbac/memcached_admin_role.yaml',
      'create    config/rbac/memcached_editor_role.yaml',
      'create    config/rbac/memcached_viewer_role.yaml',
      'create    config/samples/cache_v1alpha1_memcached.yaml',
      'create    src/api/v1alpha1/memcached.ts',
      'create    src/controllers/memcached-controller.test.ts',
      'create    src/controllers/memcached-controller.ts',
    ]);
    expect(Object.keys(readTree(dir))).not.toContain('src/api/v1alpha1/memcached.ts');
  });

  it('puts the image variables back into a manager.yaml rendered afresh (for edit)', async () => {
    const dir = await project('restore');
    await api(dir, MEMCACHED);
    await api(dir, { ...MEMCACHED, kind: 'Redis', image: 'redis:7.4' });
    const config = await loadProject(dir, 'test');
    const tree = new Tree(diskSource(dir));
    tree.overwrite(
      'config/manager/manager.yaml',
      renderTemplate('base/config/manager/manager.yaml.hbs', { projectName: config.projectName, namespaced: false }),
    );
    expect(tree.read('config/manager/manager.yaml')).not.toContain('MEMCACHED_IMAGE');
    restoreImageEnvs(tree, config);
    expect(tree.read('config/manager/manager.yaml')).toBe(readTree(dir)['config/manager/manager.yaml']);
  });

  it('keeps the image variables and moves the @Rbac into the namespace on edit --namespaced', async () => {
    const dir = await project('edited');
    await api(dir, MEMCACHED);
    await runEdit({ dir, namespaced: true }, captured());
    expect(managerEnv(dir)).toEqual([
      { name: 'WATCH_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'MEMCACHED_IMAGE', value: 'memcached:1.6.26-alpine' },
    ]);
    expect(
      decorators(readFileSync(join(dir, 'src/controllers/memcached-controller.ts'), 'utf8')).every((d) =>
        d.endsWith(", namespace: 'edited-system' })"),
      ),
    ).toBe(true);
  });

  // The built CLI, as a user runs it: exit 1, one line on stderr, nothing on stdout, no file touched.
  it.each([
    [
      ['--plugins', 'deploy-image/v1-alpha'],
      '--image is required with --plugins deploy-image/v1-alpha: the image the controller deploys, e.g. --image memcached:1.6.26-alpine',
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--image-container-port', 'abc'],
      "--image-container-port: 'abc' is not a port; use an integer from 1 to 65535, e.g. --image-container-port 11211",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--image-container-port', '0'],
      "--image-container-port: '0' is not a port; use an integer from 1 to 65535, e.g. --image-container-port 11211",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--image-container-port', '70000'],
      "--image-container-port: '70000' is not a port; use an integer from 1 to 65535, e.g. --image-container-port 11211",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--run-as-user', '-1'],
      "--run-as-user: '-1' is not a user id; use an integer of 0 or more, e.g. --run-as-user 1001",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--run-as-user', '1.5'],
      "--run-as-user: '1.5' is not a user id; use an integer of 0 or more, e.g. --run-as-user 1001",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached 1.6'],
      "--image: 'memcached 1.6' is not an image reference (letters, digits and . _ : @ / - only); use e.g. memcached:1.6.26-alpine",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--namespaced=false'],
      '--namespaced=false: --plugins deploy-image/v1-alpha deploys into the namespace of each object, so its kind is namespaced; leave the flag out',
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--controller=false'],
      '--controller=false: --plugins deploy-image/v1-alpha scaffolds both the API and its controller; leave the flag out',
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached\n1.6'],
      "--image: 'memcached\\n1.6' is not an image reference (letters, digits and . _ : @ / - only); use e.g. memcached:1.6.26-alpine",
    ],
    [
      ['--plugins', 'deploy-image/v1-alpha', '--image', 'memcached:1.6.26-alpine', '--image-container-command', ' , '],
      "--image-container-command: ' , ' names no command; use comma-separated words, e.g. --image-container-command memcached,--memory-limit=64,-o,modern,-v",
    ],
    [
      ['--image', 'memcached:1.6.26-alpine'],
      '--image belongs to the deploy-image plugin; add --plugins deploy-image/v1-alpha to use it',
    ],
    [
      ['--image-container-port', '11211'],
      '--image-container-port belongs to the deploy-image plugin; add --plugins deploy-image/v1-alpha to use it',
    ],
    [
      ['--run-as-user', '1001'],
      '--run-as-user belongs to the deploy-image plugin; add --plugins deploy-image/v1-alpha to use it',
    ],
  ])('refuses %j with one line and writes nothing', async (args, message) => {
    const dir = await project('bad-flags');
    const before = readTree(dir);
    const run = await tsop(
      dir,
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      ...args,
    );
    expect(run).toEqual({ code: 1, stdout: '', stderr: `tsop: ${message}\n` });
    expect(readTree(dir)).toEqual(before);
  });

  it("scaffolds from the built CLI (precompiled templates) what it scaffolds in-process; --manifests=false (kubebuilder's name) skips manifests", async () => {
    const dir = tempProject('memcached-operator');
    expect(
      (await tsop(dir, 'init', '--domain', 'example.com', '--owner', 'The Memcached Authors', '--skip-install')).code,
    ).toBe(0);
    const run = await tsop(
      dir,
      'create',
      'api',
      '--group',
      'cache',
      '--version',
      'v1alpha1',
      '--kind',
      'Memcached',
      '--plugins',
      'deploy-image/v1-alpha',
      '--image',
      'memcached:1.6.26-alpine',
      '--image-container-command',
      'memcached,--memory-limit=64,-o,modern,-v',
      '--image-container-port',
      '11211',
      '--run-as-user',
      '1001',
      '--manifests=false',
    );
    expect(run.code, run.stderr).toBe(0);
    expectGolden('memcached-deploy-image', readTree(dir), SKIP, { update: false });
  });
});
