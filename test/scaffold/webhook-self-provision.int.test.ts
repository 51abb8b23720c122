/**
 * Webhooks of a generated operator without cert-manager, end to end. The built CLI writes a
 * project with two versions of a kind, a defaulter and validator on v1 and conversion through v2;
 * the author fills in one default and one check; the project compiles; its webhook
 * configurations (config/webhook/manifests.yaml) and its CRD with the conversion patch (`kubectl
 * kustomize config/crd`) are applied pointing at 127.0.0.1 with no caBundle, as a deployment
 * applies them; then build/main.js runs with --webhook-self-provision and the names
 * config/default's [SELF-PROVISION] entries pass. The manager makes its CA and certificate, keeps
 * them in a Secret, writes the CA into the configurations and the CRD, and the real API server
 * then calls its defaulter, validator and converter over TLS.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../../runtime/apimachinery/index.js';
import { createClient, InvalidError, type Client } from '../../runtime/client/index.js';
import { portBoundLater } from '../../runtime/envtest/ports.js';
import { rewriteClientConfig } from '../../runtime/envtest/webhooks.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { waitFor } from '../../runtime/test-fixtures/helpers.js';
import { tempProject } from './harness.js';
import { linkNodeModules } from './node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(TSOP, 'node_modules/typescript/bin/tsc');
const CRD = 'memcacheds.cache.example.com';
const MINUTES = 60_000;

type Memcached = KubeObject & { spec?: { foo?: string } };
type WebhookConfiguration = KubeObject & { webhooks: Array<{ clientConfig: { caBundle?: string } }> };
type Crd = KubeObject & {
  spec: { conversion?: { webhook?: { clientConfig?: { caBundle?: string; url?: string; service?: unknown } } } };
};

// A plane of its own: on a shared one the API server once never called the operator's webhook
// (60 s), after other suites had made and swept webhook configurations of the same names.
describeWithControlPlane('a generated operator serving webhooks with a self-provisioned certificate', {}, (env) => {
  const dir = tempProject('memcached-self-provisioned');
  const inProject = (cmd: string, args: string[]) =>
    execa(cmd, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1' } });
  let client: Client & { close(): void };
  let manager: ResultPromise | undefined;
  let output = '';
  const memcached = (name: string, foo?: string): Memcached => ({
    apiVersion: 'cache.example.com/v1',
    kind: 'Memcached',
    metadata: { name, namespace: 'default' },
    spec: foo === undefined ? {} : { foo },
  });

  beforeAll(async () => {
    const tsop = (...args: string[]) => inProject(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args]);
    expect((await tsop('init', '--domain', 'example.com', '--skip-install')).exitCode).toBe(0);
    linkNodeModules(dir);
    for (const args of [
      [
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v1',
        '--kind',
        'Memcached',
        '--resource',
        '--controller=false',
      ],
      [
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v2',
        '--kind',
        'Memcached',
        '--resource',
        '--controller=false',
      ],
      [
        'create',
        'webhook',
        '--group',
        'cache',
        '--version',
        'v1',
        '--kind',
        'Memcached',
        '--defaulting',
        '--programmatic-validation',
      ],
      [
        'create',
        'webhook',
        '--group',
        'cache',
        '--version',
        'v2',
        '--kind',
        'Memcached',
        '--conversion',
        '--spoke',
        'v1',
      ],
    ]) {
      const run = await tsop(...args);
      expect(run.exitCode, `${args.join(' ')}\n${run.all}`).toBe(0);
    }
    // The author's default and check, where the scaffold says to put them.
    const file = join(dir, 'src/webhooks/v1/memcached-webhook.ts');
    const source = readFileSync(file, 'utf8');
    const authored = source
      .replace(/^ {4}\/\/ Fill in your defaults here.*$/m, "    obj.spec ??= {};\n    obj.spec.foo ??= 'defaulted';")
      .replace(
        /^ {2}\/\/ e\.g\. if \(\(obj\.spec\?\.size.*$/m,
        "  if (obj.spec?.foo === 'bad') errors.push(new FieldError('spec.foo', 'must not be bad', obj.spec.foo));",
      );
    expect(authored).toContain("obj.spec.foo ??= 'defaulted'");
    expect(authored).toContain("new FieldError('spec.foo'");
    writeFileSync(file, authored);
    const tsc = await inProject(process.execPath, [TSC, '-p', 'tsconfig.build.json']);
    expect(tsc.exitCode, tsc.all).toBe(0);

    // Applied as a deployment would: no caBundle anywhere; 127.0.0.1 stands in for the Service.
    const port = await portBoundLater();
    client = createClient(env.cp.kubeConfig);
    const kubectl = env.cp.assets.kubectl;
    if (!kubectl) throw new Error('kubectl is built with the control plane by scripts/control-plane.sh');
    const crds = await inProject(kubectl, ['kustomize', 'config/crd']);
    expect(crds.exitCode, crds.all).toBe(0);
    for (const doc of parseAllDocuments(crds.stdout)) {
      const crd = doc.toJS() as Crd;
      const webhook = crd.spec.conversion?.webhook;
      if (webhook) webhook.clientConfig = { url: `https://127.0.0.1:${port}/convert` };
      await client.create(crd);
    }
    for (const doc of parseAllDocuments(readFileSync(join(dir, 'config/webhook/manifests.yaml'), 'utf8'))) {
      await client.create(rewriteClientConfig(doc.toJS() as KubeObject, `https://127.0.0.1:${port}`, ''));
    }

    const flags = [
      '--webhook-self-provision',
      `--webhook-port=${port}`,
      '--webhook-cert-hosts=127.0.0.1',
      '--webhook-mutating-configuration=mutating-webhook-configuration',
      '--webhook-validating-configuration=validating-webhook-configuration',
      `--webhook-conversion-crd=${CRD}`,
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ];
    manager = execa(process.execPath, ['build/main.js', ...flags], {
      cwd: dir,
      all: true,
      reject: false,
      env: { KUBECONFIG: env.cp.kubeconfigPath, POD_NAMESPACE: 'default', LOG_LEVEL: 'info' },
    });
    manager.all?.on('data', (c: Buffer) => (output += c.toString()));
    // The API server sees a new caBundle through its informer: wait until it calls the defaulter.
    await waitFor(
      'the API server to call the defaulter',
      async () =>
        (await client.create(memcached('probe'), { dryRun: true }).catch(() => undefined))?.spec?.foo === 'defaulted',
      60_000,
      250,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; the manager said:\n${output}`);
    });
  }, 10 * MINUTES);

  afterAll(async () => {
    if (manager) {
      manager.kill('SIGTERM');
      await manager;
    }
    client?.close();
  });

  it('keeps its CA and certificate in a Secret and writes the CA into both configurations and the CRD', async () => {
    const secret = await client.get<KubeObject & { data: Record<string, string> }>(
      { apiVersion: 'v1', kind: 'Secret' },
      { namespace: 'default', name: 'webhook-server-cert' },
    );
    // The Secret holds the CA PEM base64-encoded, which is exactly what a caBundle is.
    const caBundle = secret.data['ca.crt'] ?? '';
    expect(Buffer.from(caBundle, 'base64').toString()).toContain('BEGIN CERTIFICATE');
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const name = `${kind.startsWith('Mutating') ? 'mutating' : 'validating'}-webhook-configuration`;
      const config = await client.get<WebhookConfiguration>(
        { apiVersion: 'admissionregistration.k8s.io/v1', kind },
        { name },
      );
      expect(
        config.webhooks.map((w) => w.clientConfig.caBundle),
        output,
      ).toEqual(config.webhooks.map(() => caBundle));
    }
    const crd = await client.get<Crd>(
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
      { name: CRD },
    );
    expect(crd.spec.conversion?.webhook?.clientConfig?.caBundle).toBe(caBundle);
  });

  it("the API server calls the author's defaulter and validator: a default filled in, an update denied at its field path", async () => {
    const created = await client.create(memcached('sample'));
    expect(created.spec).toEqual({ foo: 'defaulted' });
    const err = await client.update({ ...created, spec: { foo: 'bad' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidError);
    expect((err as InvalidError).causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "bad": must not be bad', field: 'spec.foo' },
    ]);
  });

  it('converts a v1 object to v2 through the generated converter and back without loss', async () => {
    await client.create(memcached('converted', 'kept'));
    const v2 = await client.get<Memcached>(
      { apiVersion: 'cache.example.com/v2', kind: 'Memcached' },
      { namespace: 'default', name: 'converted' },
    );
    expect(v2.apiVersion).toBe('cache.example.com/v2');
    expect(v2.spec).toEqual({ foo: 'kept' });
    const v1 = await client.get<Memcached>(
      { apiVersion: 'cache.example.com/v1', kind: 'Memcached' },
      { namespace: 'default', name: 'converted' },
    );
    expect(v1.spec).toEqual({ foo: 'kept' });
  });
});
