/**
 * `edit --namespaced` on the real API server: a project with a namespaced kind, a cluster-scoped
 * kind and a controller that also reads Nodes, PersistentVolumes and CRDs is switched to one
 * namespace, its RBAC regenerated (`tsop manifests`) and installed from `kubectl kustomize
 * config/default`; then `kubectl auth can-i` as the manager's ServiceAccount shows namespaced
 * resources granted only in the manager's namespace and cluster-scoped ones granted cluster-wide
 * (a Role could not grant them); and the same for a project that was namespaced from init.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { runManifests } from '../../src/cli/manifests.js';
import { captured, tempProject } from '../scaffold/harness.js';

const NS = 'fleet-system';
const SA = `system:serviceaccount:${NS}:fleet-controller-manager`;
const RBAC_KINDS = [
  'Namespace',
  'ServiceAccount',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
];

describeWithControlPlane('edit --namespaced on the API server', { shared: true }, (env) => {
  let dir = '';
  let notes = '';
  const kubectl = async (...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> => {
    const r = await execa(env.cp.assets.kubectl ?? 'kubectl', args, {
      env: { KUBECONFIG: env.cp.kubeconfigPath },
      reject: false,
    });
    return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  /** `kubectl auth can-i` as the manager: 'yes' or 'no'. */
  const can = async (...args: string[]): Promise<string> =>
    (await kubectl('auth', 'can-i', '--as', SA, ...args)).stdout.trim();

  beforeAll(async () => {
    dir = tempProject('fleet');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    await runCreateApi(
      { dir, group: 'sea', version: 'v1', kind: 'Ship', resource: true, controller: true, make: false },
      captured(),
    );
    await runCreateApi(
      {
        dir,
        group: 'sea',
        version: 'v1',
        kind: 'Harbor',
        resource: true,
        controller: true,
        namespaced: false,
        make: false,
      },
      captured(),
    );
    // An author's rules: one decorator mixing namespaced and cluster-scoped core resources, one for CRDs.
    const controller = join(dir, 'src/controllers/ship-controller.ts');
    const text = readFileSync(controller, 'utf8');
    const first = text.indexOf('@Rbac(');
    writeFileSync(
      controller,
      `${text.slice(0, first)}@Rbac({ groups: ['core'], resources: ['pods', 'nodes', ` +
        `'configmaps', 'persistentvolumes'], verbs: ['get', 'list', 'watch'] })\n@Rbac({ groups: ` +
        `['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', ` +
        `'list'] })\n${text.slice(first)}`,
    );
    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    notes = io.stderr;
    await runManifests({ dir, outputDir: 'config' }, captured());

    const built = await kubectl('kustomize', join(dir, 'config/default'));
    expect(built.exitCode, built.stderr).toBe(0);
    const docs = parseAllDocuments(built.stdout).map((d) => d.toJS() as { kind: string; metadata: { name: string } });
    const rbac = docs.filter((d) => RBAC_KINDS.includes(d.kind));
    const file = join(dir, 'rbac-install.yaml');
    writeFileSync(file, rbac.map((d) => `---\n${JSON.stringify(d)}\n`).join(''));
    const applied = await kubectl('apply', '--server-side', '-f', file);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await kubectl('create', 'namespace', 'elsewhere')).exitCode).toBe(0);
  }, 120_000);

  it('edit notes which resources stay in the ClusterRole', () => {
    expect(notes).toMatch(/^note: cluster-scoped resources stay in the ClusterRole: (.*)$/m);
    const listed = /^note: cluster-scoped resources stay in the ClusterRole: (.*)$/m
      .exec(notes)![1]!
      .split(', ')
      .sort();
    expect(listed).toEqual([
      'customresourcedefinitions',
      'harbors',
      'harbors/finalizers',
      'harbors/status',
      'nodes',
      'persistentvolumes',
    ]);
  });

  it('role.yaml has the namespaced rules in a Role and the cluster-scoped ones in the ClusterRole, both bound to the manager', () => {
    const role = parseAllDocuments(readFileSync(join(dir, 'config/rbac/role.yaml'), 'utf8')).map(
      (d) => d.toJS() as { kind: string; metadata: { namespace?: string }; rules: { resources?: string[] }[] },
    );
    const resources = (kind: string): string[] =>
      role
        .filter((d) => d.kind === kind)
        .flatMap((d) => d.rules.flatMap((r) => r.resources ?? []))
        .sort();
    expect(resources('ClusterRole')).toEqual([
      'customresourcedefinitions',
      'harbors',
      'harbors/finalizers',
      'harbors/status',
      'nodes',
      'persistentvolumes',
    ]);
    expect(resources('Role')).toEqual(['configmaps', 'events', 'pods', 'ships', 'ships/finalizers', 'ships/status']);
  });

  it('grants cluster-scoped resources cluster-wide', async () => {
    expect(await can('list', 'nodes')).toBe('yes');
    expect(await can('watch', 'persistentvolumes')).toBe('yes');
    expect(await can('list', 'customresourcedefinitions.apiextensions.k8s.io')).toBe('yes');
    expect(await can('list', 'harbors.sea.example.com')).toBe('yes');
    expect(await can('update', 'harbors.sea.example.com', '--subresource=status')).toBe('yes');
    // Never more than asked for.
    expect(await can('delete', 'nodes')).toBe('no');
    expect(await can('list', 'namespaces')).toBe('no');
  });

  it("grants namespaced resources in the manager's namespace only", async () => {
    for (const [verb, resource] of [
      ['list', 'ships.sea.example.com'],
      ['watch', 'pods'],
      ['get', 'configmaps'],
      ['create', 'events.events.k8s.io'],
    ] as const) {
      expect(await can(verb, resource, '-n', NS), `${verb} ${resource} in ${NS}`).toBe('yes');
      expect(await can(verb, resource, '-n', 'elsewhere'), `${verb} ${resource} elsewhere`).toBe('no');
      expect(await can(verb, resource, '--all-namespaces'), `${verb} ${resource} everywhere`).toBe('no');
    }
    expect(await can('update', 'ships.sea.example.com', '--subresource=status', '-n', NS)).toBe('yes');
  });

  it('create api in a namespaced project: a cluster-scoped kind is granted cluster-wide, a namespaced one in the namespace only', async () => {
    const armada = tempProject('armada');
    await runInit({ dir: armada, domain: 'example.com', namespaced: true, skipInstall: true }, captured());
    await runCreateApi(
      {
        dir: armada,
        group: 'port',
        version: 'v1',
        kind: 'Dock',
        resource: true,
        controller: true,
        namespaced: false,
        make: false,
      },
      captured(),
    );
    await runCreateApi(
      { dir: armada, group: 'port', version: 'v1', kind: 'Crane', resource: true, controller: true, make: false },
      captured(),
    );
    await runManifests({ dir: armada, outputDir: 'config' }, captured());
    const built = await kubectl('kustomize', join(armada, 'config/default'));
    expect(built.exitCode, built.stderr).toBe(0);
    const docs = parseAllDocuments(built.stdout).map((d) => d.toJS() as { kind: string });
    const file = join(armada, 'rbac-install.yaml');
    writeFileSync(
      file,
      docs
        .filter((d) => RBAC_KINDS.includes(d.kind))
        .map((d) => `---\n${JSON.stringify(d)}\n`)
        .join(''),
    );
    const applied = await kubectl('apply', '--server-side', '-f', file);
    expect(applied.exitCode, applied.stderr).toBe(0);
    const as = ['--as', 'system:serviceaccount:armada-system:armada-controller-manager'];
    const canArmada = async (...args: string[]): Promise<string> =>
      (await kubectl('auth', 'can-i', ...as, ...args)).stdout.trim();
    expect(await canArmada('list', 'docks.port.example.com')).toBe('yes');
    expect(await canArmada('update', 'docks.port.example.com', '--subresource=status')).toBe('yes');
    expect(await canArmada('list', 'cranes.port.example.com', '-n', 'armada-system')).toBe('yes');
    expect(await canArmada('list', 'cranes.port.example.com', '-n', 'elsewhere')).toBe('no');
  });
});
