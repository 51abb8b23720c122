/**
 * The table of cluster-scoped built-in resources (src/project/cluster-scoped-resources.ts) is
 * the real API server's discovery: this test reads /api/v1 and every /apis/<group>/<version>
 * and fails when the table differs, printing the file to commit.
 * `UPDATE_CLUSTER_SCOPED=1 npx vitest run test/manifests/rbac-cluster-scope-table.int.test.ts`
 * writes it instead.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { CLUSTER_SCOPED_RESOURCES, CLUSTER_SCOPED_SOURCE } from '../../src/project/cluster-scoped-resources.js';

const TABLE_FILE = fileURLToPath(new URL('../../src/project/cluster-scoped-resources.ts', import.meta.url));

interface ResourceList {
  resources: { name: string; namespaced: boolean }[];
}

describeWithControlPlane('cluster-scoped resources table', { shared: true }, (env) => {
  it('matches the API server discovery', () => {
    const kubectl = env.cp.assets.kubectl ?? 'kubectl';
    const get = <T>(path: string): T =>
      JSON.parse(
        execFileSync(kubectl, ['get', '--raw', path], {
          env: { ...process.env, KUBECONFIG: env.cp.kubeconfigPath },
          encoding: 'utf8',
        }),
      ) as T;
    const byGroup = new Map<string, Set<string>>();
    const add = (group: string, list: ResourceList): void => {
      for (const r of list.resources) {
        if (r.namespaced) continue;
        const set = byGroup.get(group) ?? new Set<string>();
        set.add(r.name);
        byGroup.set(group, set);
      }
    };
    add('', get<ResourceList>('/api/v1'));
    const groups = get<{ groups: { name: string; versions: { groupVersion: string }[] }[] }>('/apis').groups;
    for (const g of groups) for (const v of g.versions) add(g.name, get<ResourceList>(`/apis/${v.groupVersion}`));
    const discovered = Object.fromEntries(
      [...byGroup.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([g, s]) => [g, [...s].sort()]),
    );
    const version = execFileSync(kubectl, ['version', '-o', 'json'], {
      env: { ...process.env, KUBECONFIG: env.cp.kubeconfigPath },
      encoding: 'utf8',
    });
    const serverVersion = (JSON.parse(version) as { serverVersion: { gitVersion: string } }).serverVersion.gitVersion;
    const file = renderTable(discovered, serverVersion);
    if (process.env['UPDATE_CLUSTER_SCOPED'] === '1') writeFileSync(TABLE_FILE, file);
    else
      expect(
        CLUSTER_SCOPED_RESOURCES,
        `src/project/cluster-scoped-resources.ts is out of date; rerun with UPDATE_CLUSTER_SCOPED=1 to write:\n${file}`,
      ).toEqual(discovered);
    // The table records where it came from; a newer server may add kinds, never silently.
    expect(typeof CLUSTER_SCOPED_SOURCE).toBe('string');
  });
});

function renderTable(table: Record<string, string[]>, serverVersion: string): string {
  const rows = Object.entries(table).map(([g, rs]) => `  '${g}': [${rs.map((r) => `'${r}'`).join(', ')}],`);
  return `/**
 * The built-in resources that are cluster-scoped (with their subresources), per API group (''
 * is the core group): what \`edit --namespaced\` keeps in the ClusterRole. Generated from the
 * discovery of a real kube-apiserver by test/manifests/rbac-cluster-scope-table.int.test.ts
 * (UPDATE_CLUSTER_SCOPED=1 rewrites it); do not edit by hand.
 */
export const CLUSTER_SCOPED_SOURCE = 'kube-apiserver ${serverVersion} discovery';

export const CLUSTER_SCOPED_RESOURCES: Readonly<Record<string, readonly string[]>> = {
${rows.join('\n')}
};
`;
}
