/**
 * loadKubeConfig against the real API server, in a child process (a fresh module graph): with
 * @kubernetes/client-node made unresolvable, a kubeconfig with a client certificate still writes
 * and reads through the runtime (the runtime never imports client-node for it); a user with an
 * auth-provider only client-node knows (gcp) loads client-node on first use and is accepted too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createClient } from '../client/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import type { KubeObject } from '../apimachinery/index.js';
import { requestJSON } from '../rest/index.js';

const REGISTER = join(import.meta.dirname, '../testing/register.mjs');
const CHILD = join(import.meta.dirname, '../test-fixtures/kubeconfig-child.ts');

function runChild(kubeconfig: string, namespace: string, blockClientNode: boolean): string {
  return execFileSync(process.execPath, ['--import', REGISTER, CHILD], {
    env: {
      ...process.env,
      KUBECONFIG: kubeconfig,
      NAMESPACE: namespace,
      BLOCK_CLIENT_NODE: blockClientNode ? '1' : '0',
    },
    encoding: 'utf8',
    timeout: 60_000,
  }).trim();
}

describeWithControlPlane('loadKubeConfig', { shared: true }, (env) => {
  let dir: string;
  let gcpKubeconfig: string;
  // Where the ServiceAccount may manage ConfigMaps.
  let ns: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tsop-kubeconfig-'));
    ns = await env.newNamespace();
    const admin = createClient(env.cp.kubeConfig);
    // A ServiceAccount token allowed to manage ConfigMaps in its namespace, handed over as a gcp access-token.
    await admin.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kc', namespace: ns } });
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'kc', namespace: ns },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
    });
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'kc', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kc' },
      subjects: [{ kind: 'ServiceAccount', name: 'kc', namespace: ns }],
    });
    admin.close();
    const review = await requestJSON<KubeObject & { status: { token: string } }>(env.cp.kubeConfig, {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/serviceaccounts/kc/token`,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    });
    const cluster = env.cp.kubeConfig.getCurrentCluster()!;
    gcpKubeconfig = join(dir, 'gcp-kubeconfig');
    const expiry = new Date(Date.now() + 3_600_000).toISOString();
    writeFileSync(
      gcpKubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'plane', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } },
        ],
        users: [
          {
            name: 'google',
            user: { 'auth-provider': { name: 'gcp', config: { 'access-token': review.status.token, expiry } } },
          },
        ],
        contexts: [{ name: 'plane', context: { cluster: 'plane', user: 'google' } }],
        'current-context': 'plane',
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('talks to the API server with client-node unresolvable (a client certificate user)', () => {
    expect(runChild(env.cp.kubeconfigPath, ns, true)).toMatch(/^ok [0-9a-f-]{36}$/);
  });

  it('loads client-node only for an auth-provider it alone knows, and then is accepted', () => {
    expect(runChild(gcpKubeconfig, ns, false)).toMatch(/^ok [0-9a-f-]{36}$/);
    // The same user with client-node blocked fails on that import: proof it is loaded lazily, for this user only.
    expect(runChild(gcpKubeconfig, ns, true)).toMatch(
      /^error \w+Error: .*kubeconfig user: client-node is blocked in this process$/,
    );
  });
});
