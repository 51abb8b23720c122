/**
 * Acceptance of the webhook runtime against the real API server: the harness registers the
 * fixture's webhook configurations and the Memo CRD's conversion against a local server with a
 * CA it made (envtest's WebhookInstallOptions); the manager serves them over TLS; the API server
 * calls them on create, update and reads of the other version.
 */
import { spawn } from 'node:child_process';
import * as https from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ForbiddenError, InvalidError } from '../client/index.js';
import { silenceLogs } from '../log/index.js';
import type { Manager } from '../manager/index.js';
import { Registry } from 'prom-client';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { adminIdentity } from '../envtest/index.js';
import { waitFor } from '../test-fixtures/helpers.js';
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
import { conversionFor, WebhookServer, webhookFor } from './index.js';
import { testManager } from '../testing/manager.js';

silenceLogs();
const FIXTURES = fileURLToPath(new URL('../test-fixtures/webhook', import.meta.url));
const NS = 'default';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request with an explicit CA (and optionally a client certificate). */
function request(
  url: string,
  opts: { method?: string; body?: string | Buffer; ca: string; cert?: string; key?: string; contentType?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: opts.method ?? 'GET',
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        headers: { 'content-type': opts.contentType ?? 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

function run(
  cmd: string,
  args: string[],
  input: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

describeWithControlPlane(
  'webhooks through the real API server',
  {
    shared: true,
    crdDirectoryPaths: [join(FIXTURES, 'crd.yaml')],
    webhooks: { manifests: [join(FIXTURES, 'manifests.yaml')] },
  },
  (env) => {
    let mgr: Manager;
    const stop = new AbortController();
    let running: Promise<void>;
    const registry = new Registry();
    const admin = () => adminIdentity(env.cp.kubeConfig);
    const memo = (name: string, spec: MemoV1['spec'] = {}): MemoV1 => ({
      ...MEMO_V1,
      metadata: { name, namespace: NS },
      spec,
    });

    beforeAll(async () => {
      const installed = env.cp.webhooks;
      if (!installed) throw new Error('the harness installed no webhooks');
      mgr = testManager(env, { registry, webhookServer: new WebhookServer(installed.serverOptions) });
      webhookFor<MemoV1>(mgr, MEMO_V1).withDefaulter(new MemoDefaulter()).withValidator(new MemoValidator()).complete();
      conversionFor(mgr, memoConversion);
      mgr.addReadyzCheck('webhook', mgr.getWebhookServer().startedChecker());
      running = mgr.start(stop.signal);
      // The API server learns of new webhook configurations through its informer: wait for it.
      await waitFor('the API server to call the defaulting webhook', async () => {
        const dry = await mgr.client.create(memo('probe'), { dryRun: true });
        return dry.spec?.size === 1;
      });
    });

    afterAll(async () => {
      stop.abort();
      await running;
    });

    it('fills in missing defaults on create (the API server calls the webhook over TLS with the CA it was given)', async () => {
      const created = await mgr.client.create(memo('defaults', { size: 3 }));
      expect(created.spec).toEqual({ size: 3, image: DEFAULT_IMAGE });
      const empty = await mgr.client.create(memo('empty'));
      expect(empty.spec).toEqual({ size: 1, image: DEFAULT_IMAGE });
      expect(env.cp.webhooks?.caPem).toContain('BEGIN CERTIFICATE');
    });

    it("denies an invalid update with the validator's message and field path", async () => {
      const created = await mgr.client.create(memo('invalid-update', { size: 2 }));
      const err = await mgr.client.update({ ...created, spec: { ...created.spec, size: 11 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidError);
      const invalid = err as InvalidError;
      expect(invalid.statusCode).toBe(422);
      expect(invalid.message).toBe(
        'admission webhook "vmemo-v1.kb.io" denied the request: Memo.webhooks.fixtures.tsop.dev "invalid-update" is invalid: spec.size: Invalid value: 11: must be at most 10',
      );
      expect(invalid.causes).toEqual([
        { reason: 'FieldValueInvalid', message: 'Invalid value: 11: must be at most 10', field: 'spec.size' },
      ]);
    });

    it('asks the validator about deletes, with the stored object', async () => {
      await mgr.client.create({
        ...memo('guarded'),
        metadata: { name: 'guarded', namespace: NS, labels: { protected: 'true' } },
      });
      const err = await mgr.client
        .delete({ ...MEMO_V1, metadata: { name: 'guarded', namespace: NS } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ForbiddenError);
      expect((err as ForbiddenError).message).toBe(
        'admission webhook "vmemo-v1.kb.io" denied the request: memo guarded is protected; remove the label protected=true first',
      );
      await mgr.client.delete({ ...MEMO_V1, metadata: { name: 'defaults', namespace: NS } });
    });

    it('sends warnings to the client: the Warning header, and kubectl prints them', async () => {
      const { ca, cert, key } = admin();
      const res = await request(`${env.cp.server}/apis/webhooks.fixtures.tsop.dev/v1/namespaces/${NS}/memos`, {
        method: 'POST',
        body: JSON.stringify(memo('warned', { size: 7 })),
        ca,
        cert,
        key,
      });
      expect(res.status).toBe(201);
      expect(String(res.headers['warning'])).toMatch(
        /^299 - "spec.size 7 is more than 5 replicas; memcached rarely needs that many"$/,
      );
      const kubectl = env.cp.assets.kubectl;
      if (!kubectl) throw new Error('kubectl is not among the control-plane binaries');
      // Asynchronously: the webhook server kubectl's request reaches runs in this process.
      const out = await run(
        kubectl,
        ['--kubeconfig', env.cp.kubeconfigPath, 'create', '-f', '-'],
        JSON.stringify(memo('warned-kubectl', { size: 6 })),
      );
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toContain('memo.webhooks.fixtures.tsop.dev/warned-kubectl created');
      expect(out.stderr).toContain('Warning: spec.size 6 is more than 5 replicas; memcached rarely needs that many');
    });

    it('creates the CRD already converting through the local server, never patched to it afterwards', async () => {
      // A patch would leave a moment in which the API server still serves v2 reads unconverted.
      const { ca, cert, key } = admin();
      const res = await request(
        `${env.cp.server}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/memos.webhooks.fixtures.tsop.dev`,
        { ca, cert, key },
      );
      const crd = JSON.parse(res.body) as {
        metadata: { generation: number };
        spec: { conversion: { webhook: { clientConfig: { url: string } } } };
      };
      expect(crd.spec.conversion.webhook.clientConfig.url).toBe(`https://127.0.0.1:${env.cp.webhooks?.port}/convert`);
      expect(crd.metadata.generation).toBe(1);
    });

    it('reads a v1 object back as v2 and round-trips without loss', async () => {
      await mgr.client.create(memo('converted', { size: 4, image: 'registry.example.com:5000/memcached:1.6' }));
      const v2 = await mgr.client.get<MemoV2>(MEMO_V2, { namespace: NS, name: 'converted' });
      expect(v2.apiVersion).toBe(MEMO_V2.apiVersion);
      expect(v2.spec).toEqual({
        replicas: 4,
        image: { repository: 'registry.example.com:5000/memcached', tag: '1.6' },
      });
      // Written as v2 (stored as v1 through the webhook), read back as v1: nothing lost.
      await mgr.client.update<MemoV2>({ ...v2, metadata: { ...v2.metadata, labels: { touched: 'v2' } } });
      const v1 = await mgr.client.get<MemoV1>(MEMO_V1, { namespace: NS, name: 'converted' });
      expect(v1.metadata?.labels).toEqual({ touched: 'v2' });
      expect(v1.spec).toEqual({ size: 4, image: 'registry.example.com:5000/memcached:1.6' });
      const list = await mgr.client.list<MemoV2>(MEMO_V2, { namespace: NS });
      expect(list.items.every((m) => m.apiVersion === MEMO_V2.apiVersion && typeof m.spec?.replicas === 'number')).toBe(
        true,
      );
    });

    it('answers malformed and oversized reviews 400 and keeps serving, counting each in the metrics', async () => {
      const w = env.cp.webhooks;
      if (!w) throw new Error('no webhooks');
      const url = `https://127.0.0.1:${w.port}/validate-webhooks-fixtures-tsop-dev-v1-memo`;
      const garbage = await request(url, {
        method: 'POST',
        body: '{"apiVersion": "admission.k8s.io/v1", "kind": ',
        ca: w.caPem,
      });
      expect(garbage.status).toBe(400);
      expect(JSON.parse(garbage.body)).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest' });
      const noRequest = await request(url, {
        method: 'POST',
        body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
        ca: w.caPem,
      });
      expect(noRequest.status).toBe(400);
      expect(noRequest.body).toContain('the AdmissionReview has no request');
      const huge = Buffer.alloc(8 * 1024 * 1024, 0x20);
      const tooBig = await request(url, { method: 'POST', body: huge, ca: w.caPem });
      expect(tooBig.status).toBe(400);
      expect(tooBig.body).toContain('request entity is too large; limit is 7340032 bytes');
      // Still serving, directly and through the API server.
      const review = {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: { uid: 'u', operation: 'CREATE', object: memo('direct', { size: 1 }) },
      };
      const good = await request(url, { method: 'POST', body: JSON.stringify(review), ca: w.caPem });
      expect(good.status).toBe(200);
      expect(JSON.parse(good.body)).toMatchObject({ response: { uid: 'u', allowed: true } });
      expect((await mgr.client.create(memo('after-garbage'))).spec?.size).toBe(1);
      const metrics = await registry.metrics();
      expect(metrics).toMatch(
        /controller_runtime_webhook_requests_total\{webhook="\/validate-webhooks-fixtures-tsop-dev-v1-memo",code="400"\} 3/,
      );
      expect(metrics).toMatch(/controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\} [1-9]/);
      expect(metrics).toMatch(
        /controller_runtime_webhook_latency_seconds_count\{webhook="\/mutate-webhooks-fixtures-tsop-dev-v1-memo"\} [1-9]/,
      );
      expect(metrics).toMatch(
        /controller_runtime_webhook_requests_in_flight\{webhook="\/mutate-webhooks-fixtures-tsop-dev-v1-memo"\} 0/,
      );
    });
  },
);
