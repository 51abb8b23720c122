/**
 * Rotating credentials against the real API server. A ServiceAccount's tokens are requested
 * bound to a Secret, so deleting the Secret revokes the token at once (the server answers 401).
 * The client keeps working across a rotation: an in-cluster token file (loadFromCluster) is read
 * again on the 401 instead of after client-go's minute, and an exec plugin's token is kept until
 * the 401 makes it run again — then the refused request is sent once more.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { HttpStatusError, requestJSON } from '../rest/index.js';
import { Informer } from '../cache/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, waitFor } from '../test-fixtures/helpers.js';
import { createClient } from './index.js';

const NS = 'rotate';
const SA = 'rotor';

describeWithControlPlane('client: credentials that rotate', { shared: true }, (env) => {
  let dir: string;
  const admin = () => createClient(env.cp.kubeConfig);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tsop-creds-'));
    const c = admin();
    await ensureNamespace(c, NS);
    await c.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SA, namespace: NS } });
    await c.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: SA, namespace: NS },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
    });
    await c.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: SA, namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: SA },
      subjects: [{ kind: 'ServiceAccount', name: SA, namespace: NS }],
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A token of the ServiceAccount, valid for as long as the Secret `holder` exists. */
  async function tokenBoundTo(holder: string): Promise<string> {
    const secret = await admin().create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: holder, namespace: NS },
    });
    const review = await requestJSON<{ status: { token: string } }>(env.cp.kubeConfig, {
      method: 'POST',
      path: `/api/v1/namespaces/${NS}/serviceaccounts/${SA}/token`,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          expirationSeconds: 3600,
          boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: holder, uid: secret.metadata!.uid },
        },
      },
    });
    return review.status.token;
  }

  /** Deletes the token's Secret and waits until the API server refuses the token. */
  async function revoke(holder: string, token: string): Promise<void> {
    await admin().delete({ apiVersion: 'v1', kind: 'Secret', metadata: { name: holder, namespace: NS } });
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: 'c',
          server: env.cp.server,
          caData: env.cp.kubeConfig.getCurrentCluster()!.caData,
          skipTLSVerify: false,
        },
      ],
      users: [{ name: 'old', token }],
      contexts: [{ name: 'x', cluster: 'c', user: 'old' }],
      currentContext: 'x',
    });
    await waitFor(
      'the old token to be refused',
      async () => {
        const err = await requestJSON(kc, { path: `/api/v1/namespaces/${NS}/configmaps` }).then(
          () => undefined,
          (e: unknown) => e,
        );
        return err instanceof HttpStatusError && err.code === 401;
      },
      20_000,
      100,
    );
  }

  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS } });

  it('reads an in-cluster token file again when the server refuses the old token, and resends the request', async () => {
    const prefix = join(dir, 'pod');
    const saDir = join(prefix, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(saDir, { recursive: true });
    writeFileSync(join(saDir, 'ca.crt'), Buffer.from(env.cp.kubeConfig.getCurrentCluster()!.caData!, 'base64'));
    writeFileSync(join(saDir, 'namespace'), NS);
    const first = await tokenBoundTo('file-1');
    writeFileSync(join(saDir, 'token'), first);
    const kc = new KubeConfig();
    const saved = { host: process.env['KUBERNETES_SERVICE_HOST'], port: process.env['KUBERNETES_SERVICE_PORT'] };
    process.env['KUBERNETES_SERVICE_HOST'] = '127.0.0.1';
    process.env['KUBERNETES_SERVICE_PORT'] = new URL(env.cp.server).port;
    try {
      kc.loadFromCluster(prefix);
    } finally {
      for (const [k, v] of [
        ['KUBERNETES_SERVICE_HOST', saved.host],
        ['KUBERNETES_SERVICE_PORT', saved.port],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const codes: string[] = [];
    const client = createClient(kc, { metrics: { observe: (code, method) => codes.push(`${code} ${method}`) } });
    const informer = new Informer({
      kubeConfig: kc,
      gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
      namespace: NS,
    });
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    try {
      expect(await informer.waitForSync(ac.signal)).toBe(true);
      await client.create(configMap('by-file-1'));
      // The kubelet rotates the projected token; the old one stops working.
      writeFileSync(join(saDir, 'token'), await tokenBoundTo('file-2'));
      await revoke('file-1', first);
      codes.length = 0;
      await client.create(configMap('by-file-2'));
      expect(codes).toEqual(['401 POST', '201 POST']);
      await client.create(configMap('by-file-3'));
      expect(codes.slice(2)).toEqual(['201 POST']);
      await waitFor('the informer to see the writes', () => informer.store.list().length >= 3, 20_000, 20);
    } finally {
      ac.abort();
      await running;
      client.close();
    }
  });

  it("keeps an exec plugin's token until a 401, then runs the plugin again and resends", async () => {
    const pluginDir = join(dir, 'plugin');
    mkdirSync(pluginDir);
    const first = await tokenBoundTo('exec-1');
    writeFileSync(join(pluginDir, 'token'), first);
    const script = join(pluginDir, 'credential.sh');
    writeFileSync(
      script,
      [
        'echo run >> "$PLUGIN_DIR/runs"',
        'printf \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\' "$(cat "$PLUGIN_DIR/token")"',
        '',
      ].join('\n'),
    );
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: 'c',
          server: env.cp.server,
          caData: env.cp.kubeConfig.getCurrentCluster()!.caData,
          skipTLSVerify: false,
        },
      ],
      users: [
        {
          name: 'plugin',
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: '/bin/sh',
            args: [script],
            env: [{ name: 'PLUGIN_DIR', value: pluginDir }],
          },
        },
      ],
      contexts: [{ name: 'x', cluster: 'c', user: 'plugin' }],
      currentContext: 'x',
    });
    const runs = (): number => readFileSync(join(pluginDir, 'runs'), 'utf8').trim().split('\n').length;
    const codes: string[] = [];
    const client = createClient(kc, { metrics: { observe: (code, method) => codes.push(`${code} ${method}`) } });
    try {
      for (const name of ['exec-a', 'exec-b', 'exec-c']) await client.create(configMap(name));
      expect(runs()).toBe(1); // a token without expirationTimestamp is kept
      writeFileSync(join(pluginDir, 'token'), await tokenBoundTo('exec-2'));
      await revoke('exec-1', first);
      codes.length = 0;
      await client.create(configMap('exec-d'));
      expect(codes).toEqual(['401 POST', '201 POST']);
      expect(runs()).toBe(2);
      await client.delete(configMap('exec-d'));
      expect(runs()).toBe(2);
    } finally {
      client.close();
    }
  });
});
