/**
 * The Helm chart of `tsop edit --plugins helm/v2-alpha`, checked with a real `helm` (v3, built
 * from the Go module proxy by scripts/helm.sh) against a real control plane with kwok nodes, so
 * `helm install --wait` sees the manager's pods Ready.
 *
 * The project has a webhook (so the chart has webhook, cert-manager and metrics objects) and a
 * kind whose spec embeds a pod template, whose CRD is too large for client-side apply's
 * last-applied annotation: it is applied server-side, as users must. cert-manager's CRDs come
 * from the Go module proxy, as in webhook.int.test.ts.
 *
 * Checked: `helm lint --strict` is clean; `helm template` passes `kubectl apply --dry-run=server`;
 * `helm install` (CRDs from the chart) and `helm upgrade` (new values) reach the API server;
 * `helm uninstall` keeps the CRDs (crd.keep); a second release installs with the CRDs applied
 * server-side beforehand (crd.enabled=false); `alpha generate` re-creates the chart from PROJECT; a new kind after the user edited values.yaml gets
 * its CRD template while the user's values stay, and the upgrade carries both; `npm run helm-deploy`
 * (IMG by tag or digest, HELM_EXTRA_ARGS) and helm-status / helm-uninstall work as added to package.json.
 * What production installs set (IRSA annotations, extra volumes, scheduling, priority class, a
 * PodDisruptionBudget the disruption controller counts, a digest, your own webhook certificate,
 * rbac.namespaced) installs; the pods carry the label NOTES.txt selects on; and switching
 * config/default to self-provisioned webhook certificates removes cert-manager's templates when
 * the chart is regenerated, which then lints strictly and installs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithControlPlane, SKIPPED_ENV } from '../../runtime/testing/control-plane.js';
import { tempProject } from '../scaffold/harness.js';
import { switchToSelfProvision } from './self-provision-variant.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;
const CERT_MANAGER = 'github.com/cert-manager/cert-manager@v1.16.2';
const CI = process.env.CI === 'true' || process.env.CI === '1';

/** helm from $HELM, scripts/helm.sh's cache, a helm v3 on PATH, or built now by the script; undefined only without Go outside CI. */
function locateHelm(): string | undefined {
  if (process.env.HELM) return process.env.HELM;
  const cached = spawnSync('bash', [join(TSOP, 'scripts/helm.sh'), '--print'], { encoding: 'utf8' });
  if (cached.status === 0) return cached.stdout.trim();
  const onPath = spawnSync('helm', ['version', '--short'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.startsWith('v3.')) return 'helm';
  if (CI) throw new Error('helm is missing: .ci/run builds it with scripts/helm.sh before the tests');
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const built = spawnSync('bash', [join(TSOP, 'scripts/helm.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (built.status !== 0) throw new Error('scripts/helm.sh failed to build helm');
  return built.stdout.trim().split('\n').pop();
}

const helmBinary = locateHelm();
if (helmBinary === undefined)
  console.warn(
    'skipping the Helm chart test: no helm and no Go to build it; install Go 1.26+ and run `bash scripts/helm.sh`, or set HELM to a helm v3 binary',
  );

const dir = tempProject('memcached-operator');
const tsop = (...args: string[]) =>
  execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], { cwd: dir, all: true, reject: false });
const chart = join(dir, 'dist/chart');

// Without helm (and no Go to build it, outside CI) the suite is reported as skipped, not absent.
const suite: typeof describeWithControlPlane =
  helmBinary === undefined
    ? (name, _options, body) => describe.skip(name, () => body(SKIPPED_ENV))
    : describeWithControlPlane;

suite('the Helm chart of helm/v2-alpha on the real API server', {
  shared: true,
  controllers: true,
  nodes: 1,
}, (env) => {
  let work = '';
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });
  const helm = helmBinary!;
  // helm and kubectl keep caches (discovery, repositories) under HOME; point them into `work`.
  const helmEnv = () => ({
    KUBECONFIG: env.cp.kubeconfigPath,
    KUBECACHEDIR: join(work, 'kube-cache'),
    HELM_CACHE_HOME: join(work, 'cache'),
    HELM_CONFIG_HOME: join(work, 'config'),
    HELM_DATA_HOME: join(work, 'data'),
  });
  const kubectl = (args: string[], input?: string) =>
    execa(env.cp.assets.kubectl ?? 'kubectl', args, {
      cwd: dir,
      env: { KUBECONFIG: env.cp.kubeconfigPath, KUBECACHEDIR: join(work, 'kube-cache') },
      all: true,
      reject: false,
      ...(input !== undefined ? { input } : {}),
    });
  // A failed helm command (an install whose --wait ran out, above all) comes with what the
  // cluster shows of its namespace, so the assertion says why the pods were not Ready.
  const explained = async <R extends { exitCode?: number | undefined; all: string }>(run: R, namespace: string) => {
    if (run.exitCode === 0) return run;
    const seen = await Promise.all([
      kubectl(['get', 'nodes,deployments,replicasets,pods', '-n', namespace, '-o', 'wide']),
      kubectl(['get', 'events', '-n', namespace, '--sort-by=.lastTimestamp']),
    ]);
    return { ...run, all: [run.all, ...seen.map((s) => s.all)].join('\n') };
  };
  const runHelm = async (...args: string[]) => {
    const run = await execa(helm, args, { cwd: dir, env: helmEnv(), all: true, reject: false });
    return explained(run, args.includes('--namespace') ? args[args.indexOf('--namespace') + 1]! : 'default');
  };
  const tsopEnv = () => ({
    KUBECTL: env.cp.assets.kubectl ?? 'kubectl',
    IMG: 'registry.example.com/memcached-operator:0.1.0',
  });
  const editHelm = (...extra: string[]) =>
    execa(process.execPath, [join(TSOP, 'bin/tsop.js'), 'edit', '--plugins', 'helm/v2-alpha', ...extra], {
      cwd: dir,
      env: tsopEnv(),
      all: true,
      reject: false,
    });
  const json = async <T>(args: string[]): Promise<T> => {
    const r = await kubectl([...args, '-o', 'json']);
    expect(r.exitCode, r.all).toBe(0);
    return JSON.parse(r.stdout) as T;
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tsop-helm-'));
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
        '--make=false',
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
        '--make=false',
      ],
    ]) {
      const run = await tsop(...args);
      expect(run.exitCode, `${args.join(' ')}\n${run.all}`).toBe(0);
    }
    // A pod template in the spec: the CRD outgrows client-side apply's annotation.
    const types = join(dir, 'src/api/v1alpha1/memcached.ts');
    const source = readFileSync(types, 'utf8');
    const withTemplate = 'export class MemcachedSpec {\n  /** The pods to run. */\n  template?: V1PodTemplateSpec;\n';
    writeFileSync(
      types,
      `import type { V1PodTemplateSpec } from '@kubernetes/client-node';\n${source.replace('export class MemcachedSpec {', withTemplate)}`,
    );
    const edit = await editHelm();
    expect(edit.exitCode, edit.all).toBe(0);
    expect(edit.all).toContain('created dist/chart/templates/manager/manager.yaml');

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
    const install = await kubectl(['apply', '--server-side', '-f', '-'], crds);
    expect(install.exitCode, install.all).toBe(0);
    await env.cp.waitForCRDs(['certificates.cert-manager.io', 'issuers.cert-manager.io']);
  }, 8 * MINUTES);

  it(
    'helm lint --strict is clean',
    async () => {
      const lint = await runHelm('lint', '--strict', chart);
      expect(lint.exitCode, lint.all).toBe(0);
      expect(lint.all).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(lint.all).not.toMatch(/\[(WARNING|ERROR)\]/);
    },
    MINUTES,
  );

  it(
    'alpha generate re-creates the same chart from PROJECT, which records the plugin',
    async () => {
      expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain(
        '  helm.typescript.tsop.dev/v2-alpha:\n    manifests: dist/install.yaml\n    output: dist\n',
      );
      const output = join(work, 'generated');
      const generate = await execa(
        process.execPath,
        [join(TSOP, 'bin/tsop.js'), 'alpha', 'generate', '--output-dir', output],
        { cwd: dir, env: tsopEnv(), all: true, reject: false },
      );
      expect(generate.exitCode, generate.all).toBe(0);
      expect(generate.all).not.toContain('note:');
      const files = (root: string, rel = ''): string[] =>
        readdirSync(join(root, rel), { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? files(root, join(rel, e.name)) : [join(rel, e.name)]))
          .sort();
      const chartFiles = files(chart);
      expect(chartFiles).toContain('templates/webhook/validating-webhook-configuration.yaml');
      expect(files(join(output, 'dist/chart'))).toEqual(chartFiles);
      // The CRD differs: alpha generate carries no user code, so the pod template added to the spec is not there.
      for (const f of chartFiles.filter((f) => !f.startsWith('templates/crd/')))
        expect(readFileSync(join(output, 'dist/chart', f), 'utf8'), f).toBe(readFileSync(join(chart, f), 'utf8'));
    },
    2 * MINUTES,
  );

  it(
    'helm template renders objects kubectl apply --dry-run=server accepts, with the image of IMG',
    async () => {
      expect((await kubectl(['create', 'namespace', 'dry-run'])).exitCode).toBe(0);
      const rendered = await runHelm('template', 'shop', chart, '--namespace', 'dry-run');
      expect(rendered.exitCode, rendered.all).toBe(0);
      const yaml = rendered.stdout;
      expect(yaml).toContain('image: "registry.example.com/memcached-operator:0.1.0"');
      expect(yaml).toContain('cert-manager.io/inject-ca-from: dry-run/shop-memcached-operator-serving-cert');
      expect(yaml).toContain('- shop-memcached-operator-webhook-service.dry-run.svc\n');
      expect(yaml).toContain('"helm.sh/resource-policy": keep');
      expect(yaml).not.toContain('memcached-operator-system');
      // The CRD is over the annotation limit of client-side apply: server-side, as users apply it.
      const applied = await kubectl(['apply', '--server-side', '--dry-run=server', '-f', '-'], yaml);
      expect(applied.exitCode, applied.all).toBe(0);
      for (const object of [
        'customresourcedefinition.apiextensions.k8s.io/memcacheds.cache.example.com',
        'deployment.apps/shop-memcached-operator-controller-manager',
        'clusterrole.rbac.authorization.k8s.io/shop-memcached-operator-manager-role',
        'validatingwebhookconfiguration.admissionregistration.k8s.io/shop-memcached-operator-validating-webhook-configuration',
        'certificate.cert-manager.io/shop-memcached-operator-serving-cert',
      ])
        expect(applied.stdout).toContain(`${object} serverside-applied (server dry run)`);
      const clientSide = await kubectl(['apply', '--dry-run=server', '-f', '-'], yaml);
      expect(clientSide.all, 'the CRD embedding a pod template is too large for client-side apply').toContain(
        'metadata.annotations: Too long',
      );
    },
    2 * MINUTES,
  );

  it(
    'helm template with sharding.ring passes --sharding to every replica; a values.yaml without the section renders no flag',
    async () => {
      const sharded = await runHelm(
        'template',
        'shop',
        chart,
        '--namespace',
        'dry-run',
        '--set',
        'sharding.ring=memcached',
        '--set',
        'manager.replicas=3',
      );
      expect(sharded.exitCode, sharded.all).toBe(0);
      expect(sharded.stdout).toContain('- --sharding=memcached\n');
      expect(sharded.stdout).toMatch(/\n {2}replicas: 3\n/);
      // A chart written before the value existed has no sharding section: null removes it.
      const older = await runHelm('template', 'shop', chart, '--namespace', 'dry-run', '--set', 'sharding=null');
      expect(older.exitCode, older.all).toBe(0);
      expect(older.stdout).toContain('- --leader-elect\n');
      expect(older.stdout).not.toContain('--sharding');
    },
    2 * MINUTES,
  );

  it(
    'helm install (CRDs in the chart), helm upgrade with new values, and helm uninstall keeping the CRDs',
    async () => {
      const install = await runHelm(
        'install',
        'shop',
        chart,
        '--namespace',
        'shop',
        '--create-namespace',
        '--wait',
        '--timeout',
        '2m',
      );
      expect(install.exitCode, install.all).toBe(0);
      expect(install.all).toContain('STATUS: deployed');
      const deployment = await json<{
        spec: { replicas: number; template: { spec: { containers: { args: string[]; image: string }[] } } };
      }>(['get', 'deployment', 'shop-memcached-operator-controller-manager', '-n', 'shop']);
      expect(deployment.spec.replicas).toBe(1);
      expect(deployment.spec.template.spec.containers[0]!.args).toEqual([
        '--metrics-bind-address=:8443',
        '--health-probe-bind-address=:8081',
        '--leader-elect',
        '--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs',
      ]);
      const crd = await json<{ metadata: { annotations: Record<string, string> }; spec: { versions: unknown[] } }>([
        'get',
        'crd',
        'memcacheds.cache.example.com',
      ]);
      expect(crd.metadata.annotations['meta.helm.sh/release-name']).toBe('shop');
      // NOTES.txt's command finds the manager's pods: they carry the release's instance label.
      expect(install.all).toContain('kubectl get pods -n shop -l app.kubernetes.io/instance=shop');
      const pods = await kubectl(['get', 'pods', '-n', 'shop', '-l', 'app.kubernetes.io/instance=shop', '-o', 'name']);
      expect(
        pods.stdout
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('pod/')),
      ).toHaveLength(1);

      const upgrade = await runHelm(
        'upgrade',
        'shop',
        chart,
        '--namespace',
        'shop',
        '--set',
        'manager.replicas=2',
        '--set',
        'leaderElection.enabled=false',
        '--set',
        'manager.args={--zap-log-level=debug}',
        '--set',
        'manager.podLabels.team=shop',
        '--set',
        'manager.env[0].name=LOG_FORMAT',
        '--set',
        'manager.env[0].value=json',
        '--wait',
        '--timeout',
        '2m',
      );
      expect(upgrade.exitCode, upgrade.all).toBe(0);
      expect(upgrade.all).toContain('REVISION: 2');
      const upgraded = await json<{
        spec: {
          replicas: number;
          template: {
            metadata: { labels: Record<string, string> };
            spec: { containers: { args: string[]; env?: { name: string; value: string }[] }[] };
          };
        };
        status: { readyReplicas?: number };
      }>(['get', 'deployment', 'shop-memcached-operator-controller-manager', '-n', 'shop']);
      expect(upgraded.spec.replicas).toBe(2);
      expect(upgraded.status.readyReplicas).toBe(2);
      expect(upgraded.spec.template.spec.containers[0]!.args).toEqual([
        '--metrics-bind-address=:8443',
        '--health-probe-bind-address=:8081',
        '--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs',
        '--zap-log-level=debug',
      ]);
      expect(
        (await kubectl(['get', 'role', 'shop-memcached-operator-leader-election-role', '-n', 'shop'])).all,
      ).toContain('NotFound');
      expect(upgraded.spec.template.metadata.labels['team']).toBe('shop');
      expect(upgraded.spec.template.spec.containers[0]!.env).toEqual([{ name: 'LOG_FORMAT', value: 'json' }]);

      const uninstall = await runHelm('uninstall', 'shop', '--namespace', 'shop', '--wait');
      expect(uninstall.exitCode, uninstall.all).toBe(0);
      expect(uninstall.all).toContain('kept due to the resource policy');
      expect((await kubectl(['get', 'crd', 'memcacheds.cache.example.com'])).exitCode).toBe(0);
      expect(
        (await kubectl(['get', 'deployment', 'shop-memcached-operator-controller-manager', '-n', 'shop'])).all,
      ).toContain('NotFound');
    },
    5 * MINUTES,
  );

  it(
    'what real clusters set: IRSA annotation, extra volumes, scheduling, priority class, a PodDisruptionBudget, an image digest, your own webhook certificate and a namespaced install',
    async () => {
      const digest = 'sha256:9b2d3c7a1e0f4a5b6c7d8e9f00112233445566778899aabbccddeeff00112233';
      expect((await kubectl(['create', 'priorityclass', 'operator-critical', '--value=1000000'])).exitCode).toBe(0);
      const values = join(work, 'prod-values.yaml');
      writeFileSync(
        values,
        [
          'crd: { enabled: false }',
          'serviceAccount:',
          '  annotations: { eks.amazonaws.com/role-arn: "arn:aws:iam::123456789012:role/memcached-operator" }',
          'rbac: { namespaced: true }',
          'certManager: { enabled: false }',
          'webhook: { certSecret: memcached-webhook-tls, caBundle: Q0EtY2VydGlmaWNhdGU= }',
          'manager:',
          `  image: { repository: registry.example.com/memcached-operator, digest: "${digest}" }`,
          '  extraVolumes: [{ name: scratch, emptyDir: { medium: Memory } }]',
          '  extraVolumeMounts: [{ name: scratch, mountPath: /scratch }]',
          '  nodeSelector: { kubernetes.io/os: linux }',
          '  tolerations: [{ key: dedicated, operator: Equal, value: operators, effect: NoSchedule }]',
          '  affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: type, operator: In, values: [kwok] }] } }] } }',
          '  priorityClassName: operator-critical',
          '  podDisruptionBudget: { enabled: true, minAvailable: 1 }',
          '',
        ].join('\n'),
      );
      const lint = await runHelm('lint', '--strict', chart, '-f', values);
      expect(lint.exitCode, lint.all).toBe(0);
      const install = await runHelm(
        'install',
        'prod',
        chart,
        '--namespace',
        'prod',
        '--create-namespace',
        '-f',
        values,
        '--wait',
        '--timeout',
        '2m',
      );
      expect(install.exitCode, install.all).toBe(0);
      const account = await json<{ metadata: { annotations?: Record<string, string> } }>([
        'get',
        'serviceaccount',
        'prod-memcached-operator-controller-manager',
        '-n',
        'prod',
      ]);
      expect(account.metadata.annotations?.['eks.amazonaws.com/role-arn']).toBe(
        'arn:aws:iam::123456789012:role/memcached-operator',
      );
      type Pod = {
        metadata: { labels: Record<string, string> };
        spec: {
          nodeSelector?: Record<string, string>;
          tolerations?: unknown[];
          affinity?: unknown;
          priorityClassName?: string;
          volumes: Array<{ name: string; secret?: { secretName: string }; emptyDir?: unknown }>;
          containers: Array<{
            image: string;
            args: string[];
            env?: Array<{ name: string; value?: string }>;
            volumeMounts: Array<{ name: string; mountPath: string }>;
          }>;
        };
      };
      const deployment = await json<{ spec: { template: Pod } }>([
        'get',
        'deployment',
        'prod-memcached-operator-controller-manager',
        '-n',
        'prod',
      ]);
      const pod = deployment.spec.template.spec;
      const container = pod.containers[0]!;
      expect(container.image).toBe(`registry.example.com/memcached-operator@${digest}`);
      expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
      expect(pod.tolerations).toEqual([
        { key: 'dedicated', operator: 'Equal', value: 'operators', effect: 'NoSchedule' },
      ]);
      expect(pod.affinity).toMatchObject({
        nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }] },
      });
      expect(pod.priorityClassName).toBe('operator-critical');
      expect(pod.volumes).toEqual(
        expect.arrayContaining([
          { name: 'webhook-certs', secret: expect.objectContaining({ secretName: 'memcached-webhook-tls' }) },
          { name: 'scratch', emptyDir: { medium: 'Memory' } },
        ]),
      );
      expect(container.volumeMounts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'webhook-certs', mountPath: '/tmp/k8s-webhook-server/serving-certs' }),
          { name: 'scratch', mountPath: '/scratch' },
        ]),
      );
      expect(container.args).toContain('--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs');
      expect(container.env).toContainEqual({ name: 'WATCH_NAMESPACE', value: 'prod' });
      // The API server trusts your CA; no cert-manager objects were made.
      const webhook = await json<{ webhooks: Array<{ clientConfig: { caBundle?: string } }> }>([
        'get',
        'validatingwebhookconfiguration',
        'prod-memcached-operator-validating-webhook-configuration',
      ]);
      expect(webhook.webhooks.every((w) => w.clientConfig.caBundle === 'Q0EtY2VydGlmaWNhdGU=')).toBe(true);
      expect((await kubectl(['get', 'certificates.cert-manager.io', '-n', 'prod', '-o', 'name'])).stdout.trim()).toBe(
        '',
      );
      // Namespaced: a Role and RoleBinding in the release namespace, no ClusterRole for the manager.
      const role = await json<{ rules: Array<{ resources: string[] }> }>([
        'get',
        'role',
        'prod-memcached-operator-manager-role',
        '-n',
        'prod',
      ]);
      expect(role.rules.flatMap((r) => r.resources)).toContain('memcacheds');
      expect(
        (await kubectl(['get', 'rolebinding', 'prod-memcached-operator-manager-rolebinding', '-n', 'prod'])).exitCode,
      ).toBe(0);
      expect((await kubectl(['get', 'clusterrole', 'prod-memcached-operator-manager-role'])).all).toContain('NotFound');
      // The PodDisruptionBudget selects the manager's pod (the disruption controller counts it).
      await expect
        .poll(
          async () =>
            (
              await json<{ status?: { expectedPods?: number; currentHealthy?: number } }>([
                'get',
                'pdb',
                'prod-memcached-operator-controller-manager',
                '-n',
                'prod',
              ])
            ).status,
          { timeout: 60_000, interval: 500 },
        )
        .toMatchObject({ expectedPods: 1, currentHealthy: 1 });
      expect((await runHelm('uninstall', 'prod', '--namespace', 'prod', '--wait')).exitCode).toBe(0);
      expect((await kubectl(['delete', 'priorityclass', 'operator-critical'])).exitCode).toBe(0);
    },
    5 * MINUTES,
  );

  it(
    'a new kind after the user edited values.yaml: its CRD joins the chart, the user values stay, and the upgrade carries both (CRDs applied server-side)',
    async () => {
      const values = join(chart, 'values.yaml');
      writeFileSync(values, readFileSync(values, 'utf8').replace('replicas: 1', 'replicas: 3 # ours'));
      writeFileSync(
        join(chart, 'Chart.yaml'),
        readFileSync(join(chart, 'Chart.yaml'), 'utf8').replace('version: 0.1.0', 'version: 0.2.0'),
      );
      const api = await tsop(
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v1alpha1',
        '--kind',
        'Redis',
        '--resource',
        '--controller',
        '--make=false',
      );
      expect(api.exitCode, api.all).toBe(0);
      const edit = await editHelm();
      expect(edit.exitCode, edit.all).toBe(0);
      expect(edit.all).toContain('created dist/chart/templates/crd/redis.cache.example.com.yaml');
      expect(edit.all).not.toContain('dist/chart/values.yaml');
      expect(edit.all).not.toContain('dist/chart/Chart.yaml');
      expect(readFileSync(values, 'utf8')).toContain('replicas: 3 # ours');
      expect(readFileSync(join(chart, 'Chart.yaml'), 'utf8')).toContain('version: 0.2.0');

      // The documented path for large CRDs: server-side apply, then the chart without them.
      const crds = await kubectl(['apply', '--server-side', '--force-conflicts', '-f', join(dir, 'config/crd/bases')]);
      expect(crds.exitCode, crds.all).toBe(0);
      const install = await runHelm(
        'install',
        'shop2',
        chart,
        '--namespace',
        'shop2',
        '--create-namespace',
        '--set',
        'crd.enabled=false',
        '--wait',
        '--timeout',
        '2m',
      );
      expect(install.exitCode, install.all).toBe(0);
      const deployment = await json<{ spec: { replicas: number } }>([
        'get',
        'deployment',
        'shop2-memcached-operator-controller-manager',
        '-n',
        'shop2',
      ]);
      expect(deployment.spec.replicas).toBe(3);
      const role = await json<{ rules: { resources: string[] }[] }>([
        'get',
        'clusterrole',
        'shop2-memcached-operator-manager-role',
      ]);
      expect(role.rules.flatMap((r) => r.resources)).toContain('redis');
      const upgrade = await runHelm(
        'upgrade',
        'shop2',
        chart,
        '--namespace',
        'shop2',
        '--reuse-values',
        '--set',
        'crd.enabled=false',
        '--set',
        'manager.image.tag=0.2.0',
        '--wait',
        '--timeout',
        '2m',
      );
      expect(upgrade.exitCode, upgrade.all).toBe(0);
      const upgraded = await json<{ spec: { template: { spec: { containers: { image: string }[] } } } }>([
        'get',
        'deployment',
        'shop2-memcached-operator-controller-manager',
        '-n',
        'shop2',
      ]);
      expect(upgraded.spec.template.spec.containers[0]!.image).toBe('registry.example.com/memcached-operator:0.2.0');
      expect((await runHelm('uninstall', 'shop2', '--namespace', 'shop2', '--wait')).exitCode).toBe(0);

      // The npm scripts the plugin added: the release is the project, the namespace kustomize's.
      const npmEnv = {
        ...helmEnv(),
        PATH: `${dirname(helm)}:${process.env.PATH ?? ''}`,
        IMG: 'registry.example.com/memcached-operator:0.3.0',
        HELM_EXTRA_ARGS: '--set crd.enabled=false',
      };
      const deploy = await explained(
        await execa('npm', ['run', 'helm-deploy'], { cwd: dir, env: npmEnv, all: true, reject: false }),
        'memcached-operator-system',
      );
      expect(deploy.exitCode, deploy.all).toBe(0);
      const deployed = await json<{ spec: { template: { spec: { containers: { image: string }[] } } } }>([
        'get',
        'deployment',
        'memcached-operator-controller-manager',
        '-n',
        'memcached-operator-system',
      ]);
      expect(deployed.spec.template.spec.containers[0]!.image).toBe('registry.example.com/memcached-operator:0.3.0');
      const status = await execa('npm', ['run', '--silent', 'helm-status'], {
        cwd: dir,
        env: npmEnv,
        all: true,
        reject: false,
      });
      expect(status.all).toContain('STATUS: deployed');
      expect(
        (await execa('npm', ['run', 'helm-uninstall'], { cwd: dir, env: npmEnv, all: true, reject: false })).exitCode,
      ).toBe(0);
    },
    5 * MINUTES,
  );
  it(
    'npm run helm-deploy with IMG pinned by digest: the image is the reference as given, no tag appended',
    async () => {
      const pinned =
        'registry.example.com/memcached-operator@sha256:0000000000000000000000000000000000000000000000000000000000000abc';
      const npmEnv = {
        ...helmEnv(),
        PATH: `${dirname(helm)}:${process.env.PATH ?? ''}`,
        IMG: pinned,
        HELM_EXTRA_ARGS: '--set crd.enabled=false',
      };
      const deploy = await explained(
        await execa('npm', ['run', 'helm-deploy'], { cwd: dir, env: npmEnv, all: true, reject: false }),
        'memcached-operator-system',
      );
      expect(deploy.exitCode, deploy.all).toBe(0);
      const deployed = await json<{ spec: { template: { spec: { containers: { image: string }[] } } } }>([
        'get',
        'deployment',
        'memcached-operator-controller-manager',
        '-n',
        'memcached-operator-system',
      ]);
      expect(deployed.spec.template.spec.containers[0]!.image).toBe(pinned);
      expect(
        (await execa('npm', ['run', 'helm-uninstall'], { cwd: dir, env: npmEnv, all: true, reject: false })).exitCode,
      ).toBe(0);
    },
    5 * MINUTES,
  );

  it(
    "the self-provision variant: switching config/default away from cert-manager and regenerating removes its templates; the chart lints strictly and installs, its RBAC naming the release's objects",
    async () => {
      switchToSelfProvision(join(dir, 'config/default/kustomization.yaml'));
      const edit = await editHelm();
      expect(edit.exitCode, edit.all).toBe(0);
      for (const gone of ['serving-cert', 'selfsigned-issuer', 'metrics-certs'])
        expect(edit.all).toContain(`deleted dist/chart/templates/cert-manager/${gone}.yaml`);
      expect(readdirSync(join(chart, 'templates/cert-manager'))).toEqual([]);
      expect(edit.all).toContain('created dist/chart/templates/rbac/webhook-ca-injection-role.yaml');
      const lint = await runHelm('lint', '--strict', chart);
      expect(lint.exitCode, lint.all).toBe(0);
      expect(lint.all).not.toMatch(/\[(WARNING|ERROR)\]/);
      const install = await runHelm(
        'install',
        'sp',
        chart,
        '--namespace',
        'sp',
        '--create-namespace',
        '--set',
        'crd.enabled=false',
        '--wait',
        '--timeout',
        '2m',
      );
      expect(install.exitCode, install.all).toBe(0);
      const deployment = await json<{ spec: { template: { spec: { containers: { args: string[] }[] } } } }>([
        'get',
        'deployment',
        'sp-memcached-operator-controller-manager',
        '-n',
        'sp',
      ]);
      expect(deployment.spec.template.spec.containers[0]!.args).toEqual(
        expect.arrayContaining([
          '--webhook-self-provision',
          '--webhook-service-name=sp-memcached-operator-webhook-service',
          '--webhook-validating-configuration=sp-memcached-operator-validating-webhook-configuration',
        ]),
      );
      const injection = await json<{ rules: Array<{ resourceNames?: string[] }> }>([
        'get',
        'clusterrole',
        'sp-memcached-operator-webhook-ca-injection-role',
      ]);
      expect(injection.rules.flatMap((r) => r.resourceNames ?? [])).toEqual(
        expect.arrayContaining([
          'sp-memcached-operator-validating-webhook-configuration',
          'sp-memcached-operator-mutating-webhook-configuration',
        ]),
      );
      expect((await kubectl(['get', 'role', 'sp-memcached-operator-webhook-cert-role', '-n', 'sp'])).exitCode).toBe(0);
      expect((await kubectl(['get', 'certificates.cert-manager.io', '-n', 'sp', '-o', 'name'])).stdout.trim()).toBe('');
      expect((await runHelm('uninstall', 'sp', '--namespace', 'sp', '--wait')).exitCode).toBe(0);
    },
    5 * MINUTES,
  );
});
