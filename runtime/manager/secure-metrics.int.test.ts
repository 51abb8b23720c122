/**
 * Secure metrics against a real API server: HTTPS, bearer tokens checked with TokenReview and
 * SubjectAccessReview (service accounts and RBAC created here, tokens from the TokenRequest
 * API), cached answers, and a certificate read from a directory and reloaded when it changes.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { requestJSON } from '../rest/index.js';
import { selfSignedServingCertificate } from '../certs/index.js';
import { createClient } from '../client/index.js';
import { createLogger, memoryDestination } from '../log/index.js';
import { authenticationAndAuthorization, withAuthenticationAndAuthorization } from '../metrics/index.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { ensureNamespace, httpGet, metricValue, waitFor } from '../test-fixtures/helpers.js';
import { createManager, type Manager, type ManagerOptions } from './index.js';

const silent = createLogger({ level: 'silent' });
const NS = 'secure-metrics';

interface Answer {
  status: number;
  body: string;
  /** SHA-256 fingerprint of the certificate the server presented. */
  fingerprint: string;
}

/** One HTTPS request on a fresh connection (so a reloaded certificate shows), not verifying the server. */
function httpsRequest(port: number, path: string, opts: { token?: string; method?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        rejectUnauthorized: false,
        agent: false,
        headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
      },
      (res) => {
        const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A token for `sa` from the TokenRequest API, as a projected service-account token would be. */
async function tokenFor(kc: KubeConfig, sa: string): Promise<string> {
  const tr = await requestJSON<{ status: { token: string } }>(kc, {
    method: 'POST',
    path: `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  return tr.status.token;
}

describeWithControlPlane('manager: secure metrics', { shared: true }, (env) => {
  let reader = '';
  let stranger = '';
  const running: Array<{ ac: AbortController; run: Promise<void> }> = [];
  const dirs: string[] = [];

  /** Starts a manager on 127.0.0.1:0 and waits for its metrics port. */
  async function start(extra: Partial<ManagerOptions>, registry = new Registry()): Promise<Manager> {
    const mgr = createManager({
      kubeConfig: env.cp.kubeConfig,
      metricsBindAddress: '127.0.0.1:0',
      registry,
      logger: silent,
      ...extra,
    });
    const ac = new AbortController();
    const run = mgr.start(ac.signal);
    running.push({ ac, run });
    await Promise.race([
      waitFor('metrics port', () => mgr.metricsPort !== undefined, 10_000, 10),
      run.then(() => Promise.reject(new Error('manager stopped before serving metrics'))),
    ]);
    return mgr;
  }

  // Cluster-wide, so named after this suite's namespace (other suites on a shared plane apply the
  // generated metrics-reader role) and removed at the end.
  const ROLE = `${NS}-metrics-reader`;
  const clusterObjects: KubeObject[] = [];
  const grantMetrics = async (sa: string) => {
    const client = createClient(env.cp.kubeConfig);
    clusterObjects.push(
      await client.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${ROLE}-${sa}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ROLE },
        subjects: [{ kind: 'ServiceAccount', name: sa, namespace: NS }],
      }),
    );
  };

  beforeAll(async () => {
    const kc = env.cp.kubeConfig;
    const client = createClient(kc);
    await ensureNamespace(client, NS);
    for (const name of ['reader', 'stranger', 'late']) {
      await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: NS } });
    }
    // What the generated config/rbac/metrics_reader_role.yaml grants.
    clusterObjects.push(
      await client.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: ROLE },
        rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
      }),
    );
    await grantMetrics('reader');
    reader = await tokenFor(kc, 'reader');
    stranger = await tokenFor(kc, 'stranger');
  });

  afterAll(async () => {
    for (const r of running) r.ac.abort();
    await Promise.all(running.map((r) => r.run.catch(() => undefined)));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    const client = createClient(env.cp.kubeConfig);
    for (const o of clusterObjects) await client.delete(o);
  });

  it('answers 200 only to a token whose user may get /metrics; 401 without a valid token, 403 when RBAC denies', async () => {
    const registry = new Registry();
    const mgr = await start(
      { metricsServer: { secureServing: true, filterProvider: withAuthenticationAndAuthorization } },
      registry,
    );
    const port = mgr.metricsPort!;

    const ok = await httpsRequest(port, '/metrics', { token: reader });
    expect(ok.status, ok.body).toBe(200);
    expect(ok.body).toContain('# TYPE controller_runtime_reconcile_total counter');
    expect(ok.body).toContain('# TYPE rest_client_requests_total counter');

    expect(await httpsRequest(port, '/metrics')).toMatchObject({ status: 401, body: 'Unauthorized\n' });
    expect(await httpsRequest(port, '/metrics', { token: 'not-a-real-token' })).toMatchObject({
      status: 401,
      body: 'Unauthorized\n',
    });
    const denied = await httpsRequest(port, '/metrics', { token: stranger });
    expect(denied.status).toBe(403);
    expect(denied.body).toBe(`Forbidden: user "system:serviceaccount:${NS}:stranger" may not get /metrics\n`);
    // The review names the request's path and verb: the role grants only `get` on /metrics.
    expect((await httpsRequest(port, '/other', { token: reader })).status).toBe(403);
    expect((await httpsRequest(port, '/metrics', { token: reader, method: 'POST' })).status).toBe(403);
    // Unauthenticated requests learn nothing about paths either.
    expect((await httpsRequest(port, '/nope')).status).toBe(401);

    // Plain HTTP to the HTTPS port gets no answer.
    await expect(httpGet(port, '/metrics')).rejects.toThrow();
  });

  it('caches review answers, so repeated scrapes cost no API requests', async () => {
    const registry = new Registry();
    const mgr = await start(
      { metricsServer: { secureServing: true, filterProvider: withAuthenticationAndAuthorization } },
      registry,
    );
    const port = mgr.metricsPort!;
    const host = new URL(env.cp.server).host;
    // The reviews are the manager's only API writes here; each is one POST answered 201.
    const reviews = async () =>
      metricValue(await registry.metrics(), 'rest_client_requests_total', { code: '201', method: 'POST', host }) ?? 0;

    expect((await httpsRequest(port, '/metrics', { token: reader })).status).toBe(200);
    expect(await reviews()).toBe(2); // TokenReview + SubjectAccessReview
    for (let i = 0; i < 3; i++) expect((await httpsRequest(port, '/metrics', { token: reader })).status).toBe(200);
    expect(await reviews()).toBe(2);
    // Rejected tokens and denied users are remembered too.
    expect((await httpsRequest(port, '/metrics', { token: 'garbage' })).status).toBe(401);
    expect((await httpsRequest(port, '/metrics', { token: stranger })).status).toBe(403);
    expect(await reviews()).toBe(5); // one TokenReview for garbage, two reviews for the stranger
    expect((await httpsRequest(port, '/metrics', { token: 'garbage' })).status).toBe(401);
    expect((await httpsRequest(port, '/metrics', { token: stranger })).status).toBe(403);
    expect(await reviews()).toBe(5);
    // Concurrent first scrapes with one token share one review of each kind.
    const fresh = await tokenFor(env.cp.kubeConfig, 'reader');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => httpsRequest(port, '/metrics', { token: fresh })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await reviews()).toBe(7);
  });

  it('asks again once a denial expires, so a new RoleBinding takes effect', async () => {
    const registry = new Registry();
    const provider = authenticationAndAuthorization({ deniedTtlMs: 1500 });
    const mgr = await start({ metricsServer: { secureServing: true, filterProvider: provider } }, registry);
    const port = mgr.metricsPort!;
    const host = new URL(env.cp.server).host;
    const reviews = async () =>
      metricValue(await registry.metrics(), 'rest_client_requests_total', { code: '201', method: 'POST', host }) ?? 0;
    const late = await tokenFor(env.cp.kubeConfig, 'late');

    expect((await httpsRequest(port, '/metrics', { token: late })).status).toBe(403);
    await grantMetrics('late');
    const before = await reviews();
    expect((await httpsRequest(port, '/metrics', { token: late })).status).toBe(403); // the cached denial
    expect(await reviews()).toBe(before);
    await waitFor(
      'the denial to expire',
      async () => (await httpsRequest(port, '/metrics', { token: late })).status === 200,
      15_000,
      250,
    );
    expect(await reviews()).toBeGreaterThan(before);
  });

  it('answers 500 and logs when the manager may not review tokens', async () => {
    // The manager runs as the stranger, who lacks metrics-auth-role.
    const cluster = env.cp.kubeConfig.getCurrentCluster()!;
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: [{ name: 'stranger', token: stranger }],
      contexts: [{ name: 'stranger', cluster: cluster.name, user: 'stranger' }],
      currentContext: 'stranger',
    });
    const logs = memoryDestination();
    const mgr = await start({
      kubeConfig: kc,
      logger: createLogger({ level: 'error', destination: logs }),
      metricsServer: { secureServing: true, filterProvider: withAuthenticationAndAuthorization },
    });
    expect(await httpsRequest(mgr.metricsPort!, '/metrics', { token: reader })).toMatchObject({
      status: 500,
      body: 'Internal Server Error\n',
    });
    const line = logs.records().find((r) => String(r['msg']).startsWith('metrics request not checked'));
    expect(line?.['msg']).toBe('metrics request not checked: review failed (does the manager have metrics-auth-role?)');
    expect(line?.['component']).toBe('metrics-auth');
  });

  it('serves a generated self-signed certificate without a cert dir', async () => {
    const mgr = await start({ metricsServer: { secureServing: true } });
    const res = await httpsRequest(mgr.metricsPort!, '/metrics');
    expect(res.status).toBe(200); // no filter: anyone may scrape, but over TLS
    const socketCert = await new Promise<X509Certificate>((resolve, reject) => {
      const req = https.get(
        { host: '127.0.0.1', port: mgr.metricsPort!, path: '/metrics', rejectUnauthorized: false, agent: false },
        (r) => {
          resolve(new X509Certificate((r.socket as TLSSocket).getPeerCertificate().raw));
          r.resume();
        },
      );
      req.on('error', reject);
    });
    expect(socketCert.verify(socketCert.publicKey)).toBe(true);
    expect(socketCert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new Date(socketCert.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
  });

  it('serves the certificate from the cert dir and the new one after the files change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsop-metrics-cert-'));
    dirs.push(dir);
    const write = (c: { certPem: string; keyPem: string }) => {
      writeFileSync(join(dir, 'tls.crt'), c.certPem);
      writeFileSync(join(dir, 'tls.key'), c.keyPem);
    };
    const first = selfSignedServingCertificate({ commonName: 'first' });
    write(first);
    const logs = memoryDestination();
    const mgr = await start({
      logger: createLogger({ level: 'info', destination: logs }),
      metricsServer: { secureServing: true, certDir: dir, filterProvider: withAuthenticationAndAuthorization },
    });
    const port = mgr.metricsPort!;
    const fingerprint = async () => (await httpsRequest(port, '/metrics', { token: reader })).fingerprint;
    expect(await fingerprint()).toBe(new X509Certificate(first.certPem).fingerprint256);

    const second = selfSignedServingCertificate({ commonName: 'second' });
    write(second);
    const want = new X509Certificate(second.certPem).fingerprint256;
    await waitFor('the new certificate', async () => (await fingerprint()) === want, 15_000, 100);
    expect(logs.records().some((r) => r['msg'] === 'metrics certificate reloaded')).toBe(true);

    // A broken file is not loaded: the server keeps the last good certificate.
    writeFileSync(join(dir, 'tls.crt'), 'not a certificate\n');
    await waitFor(
      'the broken file to be reported',
      () => logs.records().some((r) => String(r['msg']).startsWith('metrics certificate changed but cannot be loaded')),
      15_000,
      50,
    );
    const res = await httpsRequest(port, '/metrics', { token: reader });
    expect(res.fingerprint).toBe(want);
    expect(res.status).toBe(200);
  });

  it('fails to start with one line naming the file when the cert dir lacks the certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsop-metrics-cert-'));
    dirs.push(dir);
    const mgr = createManager({
      kubeConfig: env.cp.kubeConfig,
      metricsBindAddress: '127.0.0.1:0',
      registry: new Registry(),
      logger: silent,
      metricsServer: { secureServing: true, certDir: dir, certName: 'metrics.crt' },
    });
    const err = await mgr.start(new AbortController().signal).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(
      `metrics certificate: cannot read ${join(dir, 'metrics.crt')}: ENOENT; check --metrics-cert-path, --metrics-cert-name and --metrics-cert-key`,
    );
    expect(mgr.metricsPort).toBeUndefined();
  });
});
