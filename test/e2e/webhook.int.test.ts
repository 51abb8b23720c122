/**
 * Webhooks in a project made with the built CLI: `init`, two versions of a kind, `create webhook
 * --defaulting --programmatic-validation` on v1alpha1, `--conversion --spoke v1alpha1` on v2, and
 * a defaulter and validator for the built-in Pod at paths of their own (`--defaulting-path`,
 * `--validation-path`).
 * The project type-checks, its manifests are current (`tsop manifests --check`), its own webhook
 * tests pass (v1alpha1's through the real API server), and `kubectl kustomize config/default`
 * renders objects the real API server accepts with `kubectl apply --dry-run=server`: as
 * scaffolded (certificates from cert-manager) and with the [SELF-PROVISION] entries switched on
 * instead (no cert-manager objects; the manager's flags and RBAC, checked with `kubectl auth can-i`
 * as the manager's service account).
 *
 * cert-manager's CRDs are needed for the Issuer and Certificates. There is no internet here, so
 * they come from the Go module proxy: the module github.com/cert-manager/cert-manager at a release
 * tag carries them in deploy/crds/ (`go mod download -json` gives the directory). They are Helm
 * templates; the few `{{ }}` label values are replaced before installing. Nothing is committed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { readManagerFlags, type ManagerFlags } from '../../runtime/manager/flags.js';
import { cpSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { tempProject } from '../scaffold/harness.js';
import { switchToSelfProvision } from './self-provision-variant.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;
const CERT_MANAGER = 'github.com/cert-manager/cert-manager@v1.16.2';

const dir = tempProject('memcached-webhooks');
const tsop = (...args: string[]) =>
  execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], { cwd: dir, all: true, reject: false });
const inProject = (cmd: string, args: string[]) =>
  execa(cmd, args, { cwd: dir, env: { NO_COLOR: '1' }, all: true, reject: false });

describe('a project with webhooks from the built CLI', () => {
  beforeAll(async () => {
    expect((await tsop('init', '--domain', 'example.com', '--skip-install')).exitCode).toBe(0);
    linkNodeModules(dir);
    for (const args of [
      [
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v1alpha1',
        '--kind',
        'Memcached',
        '--resource',
        '--controller',
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
        'v1alpha1',
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
        'v1alpha1',
      ],
      // The Pod's at paths of their own (kubebuilder's --defaulting-path / --validation-path).
      [
        'create',
        'webhook',
        '--group',
        'core',
        '--version',
        'v1',
        '--kind',
        'Pod',
        '--defaulting',
        '--programmatic-validation',
        '--defaulting-path',
        '/mutate-pods',
        '--validation-path',
        '/validate-pods',
      ],
    ]) {
      const run = await tsop(...args);
      expect(run.exitCode, `${args.join(' ')}\n${run.all}`).toBe(0);
    }
  }, 5 * MINUTES);

  it(
    'type-checks, its manifests are current, and its webhook tests pass',
    async () => {
      const tsc = await inProject(process.execPath, [
        join(TSOP, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.json',
        '--noEmit',
      ]);
      expect(tsc.exitCode, tsc.all).toBe(0);
      const check = await tsop('manifests', '--check');
      expect(check.exitCode, check.all).toBe(0);
      const manifests = readFileSync(join(dir, 'config/webhook/manifests.yaml'), 'utf8');
      expect(manifests).toContain('name: vmemcached-v1alpha1.kb.io\n');
      expect(manifests).toContain('      path: /mutate-pods\n');
      const test = await inProject(process.execPath, [
        join(TSOP, 'node_modules/vitest/vitest.mjs'),
        'run',
        'src/webhooks',
      ]);
      expect(test.exitCode, test.all).toBe(0);
      // Through the real API server, v1alpha1's and the built-in Pod's (create, update with the old object); v2's round trip.
      expect(test.all).toMatch(/Tests\s+5 passed/);
      expect(test.all).toMatch(/✓ .*src\/webhooks\/v1\/pod-webhook\.test\.ts \(2 tests\)/);
    },
    5 * MINUTES,
  );
});

describeWithControlPlane('config/default with webhooks on the real API server', { shared: true }, (env) => {
  const work = mkdtempSync(join(tmpdir(), 'tsop-webhook-kustomize-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let kubectl: string;
  const run = (args: string[], input?: string) =>
    execa(kubectl, args, {
      env: { KUBECONFIG: env.cp.kubeconfigPath },
      all: true,
      reject: false,
      ...(input !== undefined ? { input } : {}),
    });

  beforeAll(async () => {
    kubectl = env.cp.assets.kubectl ?? '';
    expect(kubectl, 'kubectl is built with the control plane by scripts/control-plane.sh').not.toBe('');
    const download = await execa('go', ['mod', 'download', '-json', CERT_MANAGER], {
      cwd: work,
      all: true,
      reject: false,
      env: { GOFLAGS: '-mod=mod' },
    });
    expect(
      download.exitCode,
      `cert-manager's CRDs come from the Go module proxy (${CERT_MANAGER}):\n${download.all}`,
    ).toBe(0);
    const crdDir = join((JSON.parse(download.stdout) as { Dir: string }).Dir, 'deploy/crds');
    const crds = readdirSync(crdDir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => readFileSync(join(crdDir, f), 'utf8').replace(/'\{\{[^}]*\}\}'/g, 'cert-manager'))
      .join('\n---\n');
    writeFileSync(join(work, 'cert-manager-crds.yaml'), crds);
    const install = await run(['apply', '--server-side', '-f', join(work, 'cert-manager-crds.yaml')]);
    expect(install.exitCode, install.all).toBe(0);
    await env.cp.waitForCRDs(['certificates.cert-manager.io', 'issuers.cert-manager.io']);
    // Namespaced objects are checked against their namespace, which a dry run does not create.
    expect((await run(['create', 'namespace', 'memcached-webhooks-system'])).exitCode).toBe(0);
  }, 5 * MINUTES);

  it(
    'renders objects that kubectl apply --dry-run=server accepts',
    async () => {
      const rendered = await run(['kustomize', join(dir, 'config/default')]);
      expect(rendered.exitCode, rendered.all).toBe(0);
      const yaml = rendered.stdout;
      for (const kind of [
        'MutatingWebhookConfiguration',
        'ValidatingWebhookConfiguration',
        'Certificate',
        'Issuer',
        'CustomResourceDefinition',
      ])
        expect(yaml).toContain(`kind: ${kind}\n`);
      // kustomize filled the replacements: the Certificate's DNS names and the CA-injection annotations.
      expect(yaml).toContain('- memcached-webhooks-webhook-service.memcached-webhooks-system.svc\n');
      expect(yaml).toContain(
        'cert-manager.io/inject-ca-from: memcached-webhooks-system/memcached-webhooks-serving-cert\n',
      );
      expect(yaml).toMatch(
        /strategy: Webhook\n\s+webhook:\n\s+clientConfig:\n\s+service:\n\s+name: memcached-webhooks-webhook-service\n\s+namespace: memcached-webhooks-system\n\s+path: \/convert/,
      );
      const applied = await run(['apply', '--dry-run=server', '-f', '-'], yaml);
      expect(applied.exitCode, applied.all).toBe(0);
      expect(applied.stdout).toContain(
        'mutatingwebhookconfiguration.admissionregistration.k8s.io/memcached-webhooks-mutating-webhook-configuration created (server dry run)',
      );
      expect(applied.stdout).toContain(
        'certificate.cert-manager.io/memcached-webhooks-serving-cert created (server dry run)',
      );
    },
    5 * MINUTES,
  );

  it(
    'renders the network policies (webhook traffic included) that the API server accepts',
    async () => {
      const rendered = await run(['kustomize', join(dir, 'config/network-policy')]);
      expect(rendered.exitCode, rendered.all).toBe(0);
      const applied = await run(
        ['apply', '--dry-run=server', '--namespace', 'memcached-webhooks-system', '-f', '-'],
        rendered.stdout.replace(/namespace: system/g, 'namespace: memcached-webhooks-system'),
      );
      expect(applied.exitCode, applied.all).toBe(0);
      expect(applied.stdout).toContain(
        'networkpolicy.networking.k8s.io/allow-webhook-traffic created (server dry run)',
      );
    },
    MINUTES,
  );

  it(
    'with [SELF-PROVISION] instead of [CERTMANAGER]: no cert-manager objects, the manager flags and RBAC by name, accepted by the API server',
    async () => {
      // What a user does: comment out the [CERTMANAGER] entries and uncomment the [SELF-PROVISION] ones.
      const config = join(work, 'self-provisioned');
      cpSync(join(dir, 'config'), config, { recursive: true });
      switchToSelfProvision(join(config, 'default/kustomization.yaml'));
      const rendered = await run(['kustomize', join(config, 'default')]);
      expect(rendered.exitCode, rendered.all).toBe(0);
      const yaml = rendered.stdout;
      expect(yaml).not.toContain('cert-manager');
      expect(yaml).not.toContain('webhook-certs'); // no Secret volume to wait for
      const docs = parseAllDocuments(yaml).map(
        (d) => d.toJS() as { kind: string; metadata: { name: string }; spec?: unknown; rules?: unknown },
      );
      const deployment = docs.find((d) => d.kind === 'Deployment') as
        | { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } }
        | undefined;
      const args = deployment?.spec.template.spec.containers[0]?.args ?? [];
      // The rendered flags are ones the manager reads, with the names after namePrefix.
      const flags = readManagerFlags(args) as ManagerFlags;
      expect(flags).toMatchObject({
        webhookSelfProvision: true,
        webhookCertPath: '',
        webhookServiceName: 'memcached-webhooks-webhook-service',
        webhookMutatingConfigurations: ['memcached-webhooks-mutating-webhook-configuration'],
        webhookValidatingConfigurations: ['memcached-webhooks-validating-webhook-configuration'],
        webhookConversionCrds: ['memcacheds.cache.example.com'],
      });
      const applied = await run(['apply', '--dry-run=server', '-f', '-'], yaml);
      expect(applied.exitCode, applied.all).toBe(0);
      expect(applied.stdout).toContain(
        'clusterrole.rbac.authorization.k8s.io/memcached-webhooks-webhook-ca-injection-role created (server dry run)',
      );

      // The RBAC for real, then the API server's authorizer asked as the manager's service account.
      const rbac = docs.filter(
        (d) =>
          ['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'].includes(d.kind) &&
          /webhook-c|controller-manager$/.test(d.metadata.name),
      );
      const created = await run(['apply', '-f', '-'], rbac.map((d) => JSON.stringify(d)).join('\n'));
      expect(created.exitCode, created.all).toBe(0);
      const sa = 'system:serviceaccount:memcached-webhooks-system:memcached-webhooks-controller-manager';
      const can = async (verb: string, what: string, ns?: string): Promise<string> =>
        (await run(['auth', 'can-i', verb, what, '--as', sa, ...(ns ? ['-n', ns] : [])])).stdout.trim();
      expect(await can('create', 'secrets', 'memcached-webhooks-system')).toBe('yes');
      expect(await can('update', 'secrets/webhook-server-cert', 'memcached-webhooks-system')).toBe('yes');
      expect(await can('get', 'secrets/other', 'memcached-webhooks-system')).toBe('no');
      expect(await can('create', 'secrets', 'default')).toBe('no');
      expect(
        await can('update', 'mutatingwebhookconfigurations/memcached-webhooks-mutating-webhook-configuration'),
      ).toBe('yes');
      expect(
        await can('patch', 'validatingwebhookconfigurations/memcached-webhooks-validating-webhook-configuration'),
      ).toBe('yes');
      expect(await can('update', 'customresourcedefinitions/memcacheds.cache.example.com')).toBe('yes');
      expect(await can('update', 'mutatingwebhookconfigurations/someone-elses')).toBe('no');
      expect(await can('update', 'customresourcedefinitions/certificates.cert-manager.io')).toBe('no');
    },
    2 * MINUTES,
  );

  it(
    'with @WebhookConfiguration names, another Service port and a webhook called at a url: manifests warns where the tree says the old name, and the API server accepts what kustomize renders',
    async () => {
      const copy = join(work, 'renamed');
      for (const path of ['PROJECT', 'package.json', 'tsconfig.json', 'src', 'config'])
        cpSync(join(dir, path), join(copy, path), { recursive: true });
      linkNodeModules(copy);
      const edit = (file: string, from: string, to: string): void => {
        const text = readFileSync(join(copy, file), 'utf8');
        expect(text, `${file}: ${from}`).toContain(from);
        writeFileSync(join(copy, file), text.replace(from, to));
      };
      const memcached = 'src/webhooks/v1alpha1/memcached-webhook.ts';
      edit(memcached, 'import { Webhook }', 'import { Webhook, WebhookConfiguration }');
      edit(
        memcached,
        "@Webhook({\n  path: '/mutate-",
        "@WebhookConfiguration({ mutating: true, name: 'defaulting' })\n@Webhook({\n  path: '/mutate-",
      );
      edit(memcached, "name: 'mmemcached-v1alpha1.kb.io'", "name: 'mmemcached-v1alpha1.kb.io', servicePort: 9443");
      edit(
        'src/webhooks/v1/pod-webhook.ts',
        "path: '/validate-pods'",
        "url: 'https://hooks.example.com:8443/validate-pods'",
      );
      const configurationLine =
        readFileSync(join(copy, memcached), 'utf8')
          .split('\n')
          .findIndex((l) => l.startsWith('@WebhookConfiguration(')) + 1;
      const generated = await execa(process.execPath, [join(TSOP, 'bin/tsop.js'), 'manifests'], {
        cwd: copy,
        all: true,
        reject: false,
      });
      expect(generated.exitCode, generated.all).toBe(0);
      // The [SELF-PROVISION] files name the configuration the manager patches; this tree builds the
      // [CERTMANAGER] variant, so they are one warning, for when the user switches.
      expect(generated.stderr.split('\n').filter((l) => l.includes('@WebhookConfiguration'))).toEqual([
        `tsop: warning: config/default/manager_webhook_self_provision_patch.yaml:24, ` +
          `config/default/self_provision_replacements.yaml:39,46,54, ` +
          `config/self-provision/cluster_role.yaml:29 (not in config/default's build yet) still name ` +
          `mutating-webhook-configuration, which @WebhookConfiguration ` +
          `(${memcached}:${configurationLine}) renames to 'defaulting'; write 'defaulting' there ` +
          `before you enable them`,
      ]);
      const rendered = await run(['kustomize', join(copy, 'config/default')]);
      expect(rendered.exitCode, rendered.all).toBe(0);
      expect(rendered.stdout).toMatch(/clientConfig:\n\s+url: https:\/\/hooks\.example\.com:8443\/validate-pods\n/);
      expect(rendered.stdout).toMatch(
        /name: memcached-webhooks-webhook-service\n\s+namespace: memcached-webhooks-system\n\s+path: \/mutate-cache-example-com-v1alpha1-memcached\n\s+port: 9443\n/,
      );
      const applied = await run(['apply', '--dry-run=server', '-f', '-'], rendered.stdout);
      expect(applied.exitCode, applied.all).toBe(0);
      expect(applied.stdout).toContain(
        'mutatingwebhookconfiguration.admissionregistration.k8s.io/memcached-webhooks-defaulting created (server dry run)',
      );
      expect(applied.stdout).toContain(
        'validatingwebhookconfiguration.admissionregistration.k8s.io/memcached-webhooks-validating-webhook-configuration created (server dry run)',
      );
    },
    2 * MINUTES,
  );
});
