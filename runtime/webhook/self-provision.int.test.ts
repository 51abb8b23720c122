/**
 * Webhooks without cert-manager: the manager provisions its own CA and serving certificate
 * (kept in a Secret), injects the CA into its webhook configuration's caBundle, and renews the
 * certificate before it expires; the API server keeps calling it across renewals. The options
 * come from the generated main.ts's flags (--webhook-self-provision …); configurations applied
 * after the manager started (as `kubectl apply` of a whole project does) get the CA too.
 */
import { createHash, X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import { silenceLogs, rootLogger } from '../log/index.js';
import { readManagerFlags, webhookServerOptionsFromFlags, type Manager, type ManagerFlags } from '../manager/index.js';
import { InvalidError } from '../client/index.js';
import { rewriteClientConfig } from '../envtest/webhooks.js';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { portBoundLater } from '../envtest/ports.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { waitFor } from '../test-fixtures/helpers.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_IMAGE,
  MEMO_V1,
  MEMO_V2,
  MemoDefaulter,
  MemoValidator,
  memoConversion,
  type MemoV1,
  type MemoV2,
} from '../test-fixtures/webhook/memo.js';
import { conversionFor, SelfProvisioner, WebhookServer, webhookFor, type SelfProvisionOptions } from './index.js';
import { testManager } from '../testing/manager.js';

silenceLogs();
const NS = 'default';
const MEMO_CRD = 'memos.webhooks.fixtures.tsop.dev';
const FIXTURES = fileURLToPath(new URL('../test-fixtures/webhook', import.meta.url));
const CONFIG = 'tsop-selfprovision-test';
const SECRET_GVK = { group: '', version: 'v1', kind: 'Secret' };
type ConfigMap = KubeObject & { data?: Record<string, string> };
type Secret = KubeObject & { data?: Record<string, string> };
type WebhookConfiguration = KubeObject & { webhooks: Array<{ clientConfig: { caBundle?: string; url?: string } }> };

/** SHA-256 of the certificate the server presents on a new connection. */
function servedFingerprint(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(createHash('sha256').update(raw).digest('hex'));
    });
    socket.on('error', reject);
  });
}
const fingerprint = (pem: string): string => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');

describeWithControlPlane(
  'self-provisioned webhook certificates',
  { shared: true, crdDirectoryPaths: [join(FIXTURES, 'crd.yaml')] },
  (env) => {
    let mgr: Manager;
    let server: WebhookServer;
    let port: number;
    let options: SelfProvisionOptions;
    const stop = new AbortController();
    let running: Promise<void>;
    const cm = (name: string): ConfigMap => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: NS, labels: { 'tsop-selfprovision': 'on' } },
      data: { given: 'x' },
    });

    beforeAll(async () => {
      port = await portBoundLater();
      // The flags a deployment passes (config/default with [SELF-PROVISION]), plus 127.0.0.1 for this local run.
      const flags = readManagerFlags([
        '--webhook-self-provision',
        `--webhook-port=${port}`,
        '--webhook-cert-hosts=127.0.0.1,localhost',
        `--webhook-mutating-configuration=${CONFIG},mutating-webhook-configuration`,
        '--webhook-validating-configuration=validating-webhook-configuration',
        `--webhook-conversion-crd=${MEMO_CRD}`,
      ]) as ManagerFlags;
      const fromFlags = webhookServerOptionsFromFlags(flags);
      if (!fromFlags.selfProvision) throw new Error('--webhook-self-provision set no selfProvision options');
      expect(fromFlags.selfProvision).toMatchObject({
        serviceName: 'webhook-service',
        namespace: NS,
        secretName: 'webhook-server-cert',
      });
      // Valid 60 s, renewed when less than 55 s remain: a renewal every ~5 s.
      options = { ...fromFlags.selfProvision, validForMs: 60_000, renewBeforeMs: 55_000, checkIntervalMs: 500 };
      server = new WebhookServer({ ...fromFlags, host: '127.0.0.1', selfProvision: options });
      mgr = testManager(env, {
        webhookServer: server,
        // A controller of the operator watching Secrets elsewhere: the provisioner must not read its own through that cache.
        cache: { byObject: [{ gvk: SECRET_GVK, namespace: 'kube-system' }] },
      });
      mgr.cache.informerFor(SECRET_GVK);
      // As a deployment would have it: the configuration exists, without a caBundle yet.
      await mgr.client.create<KubeObject>({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: CONFIG },
        webhooks: [
          {
            name: 'mconfigmap.kb.io',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            failurePolicy: 'Fail',
            clientConfig: { url: `https://127.0.0.1:${port}/mutate--v1-configmap` },
            objectSelector: { matchLabels: { 'tsop-selfprovision': 'on' } },
            rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          },
        ],
      });
      // The CRD's conversion points at this server by URL (a Service in a cluster), no caBundle.
      const crdKind = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
      const crd = await mgr.client.get<KubeObject & { spec: { conversion: { webhook: { clientConfig: object } } } }>(
        crdKind,
        { name: MEMO_CRD },
      );
      crd.spec.conversion.webhook.clientConfig = { url: `https://127.0.0.1:${port}/convert` };
      await mgr.client.update(crd);
      conversionFor(mgr, memoConversion);
      webhookFor<MemoV1>(mgr, MEMO_V1).withDefaulter(new MemoDefaulter()).withValidator(new MemoValidator()).complete();
      webhookFor<ConfigMap>(mgr, { apiVersion: 'v1', kind: 'ConfigMap' })
        .withDefaulter({
          default(obj) {
            obj.data = { ...obj.data, defaulted: 'yes' };
          },
        })
        .complete();
      running = mgr.start(stop.signal);
      await waitFor('the API server to call the self-provisioned webhook', async () => {
        const dry = await mgr.client.create(cm('probe'), { dryRun: true });
        return dry.data?.['defaulted'] === 'yes';
      });
    });

    afterAll(async () => {
      stop.abort();
      await running;
    });

    it('injects its CA into the webhook configuration and keeps the pair in a Secret', async () => {
      const provisioner = server.selfProvisioner;
      if (!provisioner) throw new Error('no self-provisioner');
      const config = await mgr.client.get<WebhookConfiguration>(
        { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration' },
        { name: CONFIG },
      );
      expect(config.webhooks[0]?.clientConfig.caBundle).toBe(Buffer.from(provisioner.caPem).toString('base64'));
      const secret = await mgr.client
        .apiReader()
        .get<Secret>({ apiVersion: 'v1', kind: 'Secret' }, { namespace: NS, name: 'webhook-server-cert' });
      expect(secret['type']).toBe('kubernetes.io/tls');
      expect(Buffer.from(secret.data?.['ca.crt'] ?? '', 'base64').toString()).toBe(provisioner.caPem);
      const leaf = new X509Certificate(provisioner.current().cert);
      expect(leaf.subjectAltName).toContain('DNS:webhook-service.default.svc');
      expect(leaf.subjectAltName).toContain('DNS:webhook-service.default.svc.cluster.local');
      expect(leaf.verify(new X509Certificate(provisioner.caPem).publicKey)).toBe(true);
      const created = await mgr.client.create(cm('defaulted'));
      expect(created.data).toEqual({ given: 'x', defaulted: 'yes' });
    });

    it('injects its CA into the CRD conversion stanza, and conversion works through it', async () => {
      const provisioner = server.selfProvisioner;
      const crd = await mgr.client.get<
        KubeObject & { spec: { conversion: { webhook: { clientConfig: { caBundle?: string } } } } }
      >({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }, { name: MEMO_CRD });
      expect(crd.spec.conversion.webhook.clientConfig.caBundle).toBe(
        Buffer.from(provisioner?.caPem ?? '').toString('base64'),
      );
      await mgr.client.create({
        ...MEMO_V1,
        metadata: { name: 'self-converted', namespace: NS },
        spec: { size: 2, image: 'memcached:1.6' },
      });
      let v2: MemoV2 | undefined;
      await waitFor('the API server to convert through the self-provisioned webhook', async () => {
        v2 = await mgr.client.get<MemoV2>(MEMO_V2, { namespace: NS, name: 'self-converted' });
        return true;
      });
      expect(v2?.spec).toEqual({ replicas: 2, image: { repository: 'memcached', tag: '1.6' } });
    });

    it('renews the certificate before it expires; the server serves the new one and the API server still trusts it', async () => {
      const provisioner = server.selfProvisioner;
      if (!provisioner) throw new Error('no self-provisioner');
      const ca = provisioner.caPem;
      const first = await servedFingerprint(port, ca);
      expect(first).toBe(fingerprint(provisioner.current().cert));
      await waitFor(
        'a renewed certificate to be served',
        async () => (await servedFingerprint(port, ca)) !== first,
        20_000,
        200,
      );
      expect(provisioner.caPem).toBe(ca); // same CA: the caBundle stays valid
      const secret = await mgr.client
        .apiReader()
        .get<Secret>({ apiVersion: 'v1', kind: 'Secret' }, { namespace: NS, name: 'webhook-server-cert' });
      expect(fingerprint(Buffer.from(secret.data?.['tls.crt'] ?? '', 'base64').toString())).not.toBe(first);
      const created = await mgr.client.create(cm('after-renewal'));
      expect(created.data?.['defaulted']).toBe('yes');
    });

    it('a second replica reuses the CA and certificate from the Secret', async () => {
      const provisioner = server.selfProvisioner;
      const replica = new SelfProvisioner(
        { ...options, checkIntervalMs: 60_000, mutatingWebhookConfigurations: [] },
        mgr.client,
        rootLogger(),
      );
      await replica.start();
      try {
        expect(replica.caPem).toBe(provisioner?.caPem);
      } finally {
        replica.stop();
      }
    });

    it('injects the CA into configurations applied after it started: defaults, a denied update with its field path, warnings in kubectl', async () => {
      // Memo's configurations as controller-gen writes them, pointed at this server, with no caBundle.
      const configs = parseAllDocuments(readFileSync(join(FIXTURES, 'manifests.yaml'), 'utf8')).map((d) =>
        rewriteClientConfig(d.toJS() as KubeObject, `https://127.0.0.1:${port}`, ''),
      );
      for (const c of configs) await mgr.client.create(c as KubeObject);
      const memo = (name: string, spec: MemoV1['spec'] = {}): MemoV1 => ({
        ...MEMO_V1,
        metadata: { name, namespace: NS },
        spec,
      });
      await waitFor(
        'the CA to be injected and the API server to call the defaulter',
        async () => {
          const dry = await mgr.client.create(memo('probe'), { dryRun: true }).catch(() => undefined);
          return dry?.spec?.size === 1;
        },
        20_000,
        200,
      );
      const provisioner = server.selfProvisioner;
      const validating = await mgr.client.get<WebhookConfiguration>(
        { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration' },
        { name: 'validating-webhook-configuration' },
      );
      expect(validating.webhooks[0]?.clientConfig.caBundle).toBe(
        Buffer.from(provisioner?.caPem ?? '').toString('base64'),
      );

      const created = await mgr.client.create(memo('self-defaults'));
      expect(created.spec).toEqual({ size: 1, image: DEFAULT_IMAGE });
      const err = await mgr.client.update({ ...created, spec: { ...created.spec, size: 11 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidError);
      expect((err as InvalidError).causes).toEqual([
        { reason: 'FieldValueInvalid', message: 'Invalid value: 11: must be at most 10', field: 'spec.size' },
      ]);
      expect((err as InvalidError).message).toContain('admission webhook "vmemo-v1.kb.io" denied the request');

      const kubectl = env.cp.assets.kubectl;
      if (!kubectl) throw new Error('kubectl is not among the control-plane binaries');
      // kubectl runs while this process serves the webhook, so it must not block the event loop: spawnSync would.
      const out = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(kubectl, ['--kubeconfig', env.cp.kubeconfigPath, 'create', '-f', '-'], {
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, stdout, stderr }));
        child.stdin.end(JSON.stringify(memo('self-warned', { size: 6 })));
      });
      expect(out.status, out.stderr).toBe(0);
      expect(out.stderr).toContain('Warning: spec.size 6 is more than 5 replicas; memcached rarely needs that many');
    });

    it('puts the caBundle back when a configuration is replaced without it', async () => {
      const kind = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration' };
      const current = await mgr.client.get<WebhookConfiguration>(kind, { name: 'validating-webhook-configuration' });
      const ca = current.webhooks[0]?.clientConfig.caBundle;
      for (const w of current.webhooks) delete w.clientConfig.caBundle;
      await mgr.client.update(current);
      await waitFor(
        'the caBundle to be restored',
        async () => {
          const now = await mgr.client.get<WebhookConfiguration>(kind, { name: 'validating-webhook-configuration' });
          return now.webhooks[0]?.clientConfig.caBundle === ca;
        },
        20_000,
        200,
      );
    });
  },
);
