// The rendered role.yaml against the real API server: every document is accepted by
// rbac.authorization.k8s.io, reads back with the same rules, and the RBAC authorizer grants a
// user bound to it exactly what the input rules asked for (no more, after merging).
import {
  AuthorizationV1Api,
  CoreV1Api,
  RbacAuthorizationV1Api,
  type V1ClusterRole,
  type V1Role,
} from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { renderRbac, type RbacRule } from '../../src/manifests/rbac.js';

const NS = 'rbac-test';

const rules: RbacRule[] = [
  {
    groups: ['batch.tutorial.tsop.dev'],
    resources: ['cronjobs'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
  },
  { groups: ['batch.tutorial.tsop.dev'], resources: ['cronjobs/status'], verbs: ['get', 'update', 'patch'] },
  { groups: ['batch'], resources: ['jobs'], verbs: ['get', 'list'] },
  { groups: ['batch'], resources: ['jobs'], verbs: ['watch', 'create'] },
  { groups: ['core'], resources: ['events'], verbs: ['create', 'patch'] },
  { groups: ['apps'], resources: ['deployments'], verbs: ['*'] },
  { groups: [], resources: [], verbs: ['get'], urls: ['/metrics'] },
  { groups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['webhook-cert'], namespace: NS },
];

interface Access {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  namespace?: string;
  path?: string;
}

describeWithControlPlane('role.yaml on the API server', { shared: true }, (env) => {
  const rbac = () => env.cp.kubeConfig.makeApiClient(RbacAuthorizationV1Api);

  async function allowed(user: string, a: Access): Promise<boolean> {
    const authz = env.cp.kubeConfig.makeApiClient(AuthorizationV1Api);
    const review = await authz.createSubjectAccessReview({
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user,
          ...(a.path
            ? { nonResourceAttributes: { path: a.path, verb: a.verb } }
            : {
                resourceAttributes: {
                  verb: a.verb,
                  group: a.group ?? '',
                  resource: a.resource,
                  subresource: a.subresource,
                  name: a.name,
                  namespace: a.namespace ?? 'default',
                },
              }),
        },
      },
    });
    return review.status?.allowed === true;
  }

  it('is accepted, reads back unchanged, and grants what the rules say', async () => {
    await env.cp.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
    const docs = parseAllDocuments(renderRbac(rules)).map((d) => d.toJS() as V1ClusterRole | V1Role);
    expect(docs.map((d) => `${d.kind}/${d.metadata?.namespace ?? ''}/${d.metadata?.name}`)).toEqual([
      'ClusterRole//manager-role',
      `Role/${NS}/manager-role`,
    ]);

    const [clusterRole, role] = docs as [V1ClusterRole, V1Role];
    await rbac().createClusterRole({ body: clusterRole });
    await rbac().createNamespacedRole({ namespace: NS, body: role });
    const readCluster = await rbac().readClusterRole({ name: 'manager-role' });
    const readRole = await rbac().readNamespacedRole({ name: 'manager-role', namespace: NS });
    const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
    expect(plain(readCluster.rules)).toEqual(clusterRole.rules);
    expect(plain(readRole.rules)).toEqual(role.rules);

    await rbac().createClusterRoleBinding({
      body: {
        metadata: { name: 'manager-rolebinding' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'manager-role' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'manager' }],
      },
    });
    await rbac().createNamespacedRoleBinding({
      namespace: NS,
      body: {
        metadata: { name: 'manager-rolebinding' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'manager-role' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'manager' }],
      },
    });

    const grants: Array<[Access, boolean]> = [
      [{ verb: 'delete', group: 'batch.tutorial.tsop.dev', resource: 'cronjobs' }, true],
      [{ verb: 'patch', group: 'batch.tutorial.tsop.dev', resource: 'cronjobs', subresource: 'status' }, true],
      [{ verb: 'delete', group: 'batch.tutorial.tsop.dev', resource: 'cronjobs', subresource: 'status' }, false],
      [{ verb: 'watch', group: 'batch', resource: 'jobs' }, true], // from the second jobs rule, merged
      [{ verb: 'create', group: 'batch', resource: 'jobs' }, true],
      [{ verb: 'delete', group: 'batch', resource: 'jobs' }, false],
      [{ verb: 'create', resource: 'events' }, true], // 'core' became the core group
      [{ verb: 'escalate', group: 'apps', resource: 'deployments' }, true], // '*'
      [{ verb: 'get', path: '/metrics' }, true],
      [{ verb: 'get', path: '/healthz' }, false],
      [{ verb: 'get', resource: 'secrets', name: 'webhook-cert', namespace: NS }, true],
      [{ verb: 'get', resource: 'secrets', name: 'other', namespace: NS }, false],
      [{ verb: 'get', resource: 'secrets', name: 'webhook-cert', namespace: 'default' }, false],
    ];
    const answers = await Promise.all(grants.map(([a]) => allowed('manager', a)));
    expect(answers).toEqual(grants.map(([, want]) => want));
  });
});
