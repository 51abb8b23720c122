/**
 * End to end, as a user would: `tsop init` (which runs a real `npm install`, tsop itself
 * installed from this checkout) + `tsop create api` (and a second, named controller of the kind,
 * `--controller-name`) into a temp dir, then in the generated project `npm run build`,
 * `npm run manifests`, `npm test` (each controller test starts its own control plane and watches
 * the reconciler mark the object Available). Against a second, harness control
 * plane: `kubectl kustomize config/default` is accepted by `kubectl apply --dry-run=server`, and
 * `npm run run` reconciles the sample, serves its metrics over HTTPS to an RBAC-bound
 * token only, sends its spans to an OTLP receiver in the test as the service OTEL_SERVICE_NAME
 * names (the SDK came with npm install: tracing is one variable), and exits 0 on SIGTERM.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { beforeAll, expect, it, onTestFinished } from 'vitest';
import { locateAssets } from '../../runtime/envtest/index.js';
import { otlpReceiver } from '../../runtime/test-fixtures/otlp-receiver.js';
import { describeWithControlPlane } from '../../runtime/testing/control-plane.js';
import { tempProject } from '../scaffold/harness.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const MINUTES = 60_000;

/** GET over HTTPS without verifying the server (the manager's certificate is self-signed). */
function httpsGet(url: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describeWithControlPlane('generated project, end to end', { shared: true }, (env) => {
  const dir = tempProject('guestbook-operator');
  const kubectl = join(locateAssets()?.kubectl ?? 'kubectl');
  const run = (cmd: string, args: string[], extra: Record<string, string> = {}) =>
    execa(cmd, args, { cwd: dir, env: { NO_COLOR: '1', ...extra }, all: true, reject: false });

  beforeAll(async () => {
    // The CLI runs from dist/ (bin/tsop.js, with the precompiled templates), also inside the generated project.
    expect(existsSync(join(TSOP, 'dist/src/cli/main.js'))).toBe(true);
    const tsop = (...args: string[]) =>
      execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
        cwd: dir,
        env: { TSOP_DEPENDENCY: `file:${TSOP}` },
        all: true,
        reject: false,
      });
    // Without --skip-install, init runs npm install in the new project itself.
    const init = await tsop('init', '--domain', 'example.com', '--owner', 'E2E Authors');
    expect(init.exitCode, init.all).toBe(0);
    expect(init.all).toContain('running npm install...');
    expect(existsSync(join(dir, 'node_modules/tsop/bin/tsop.js'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules/@kubernetes/client-node'))).toBe(true);
    const create = await tsop(
      'create',
      'api',
      '--group',
      'webapp',
      '--version',
      'v1',
      '--kind',
      'Guestbook',
      '--make=false',
    );
    expect(create.exitCode, create.all).toBe(0);
    // A second controller of the same kind, by name (kubebuilder's --controller-name).
    const second = await tsop(
      'create',
      'api',
      '--group',
      'webapp',
      '--version',
      'v1',
      '--kind',
      'Guestbook',
      '--resource=false',
      '--controller',
      '--controller-name',
      'guestbook-audit',
      '--make=false',
    );
    expect(second.exitCode, second.all).toBe(0);
  }, 10 * MINUTES);

  it(
    'builds, generates manifests and passes its own tests against a real control plane',
    async () => {
      const build = await run('npm', ['run', 'build']);
      expect(build.exitCode, build.all).toBe(0);
      expect(existsSync(join(dir, 'build/main.js'))).toBe(true);
      const manifests = await run('npm', ['run', 'manifests']);
      expect(manifests.exitCode, manifests.all).toBe(0);
      expect(readFileSync(join(dir, 'config/crd/bases/webapp.example.com_guestbooks.yaml'), 'utf8')).toContain(
        'kind: CustomResourceDefinition',
      );
      const test = await run('npm', ['test']);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/✓ src\/controllers\/guestbook-controller\.test\.ts/);
      expect(test.all).toMatch(/✓ src\/controllers\/guestbook-audit-controller\.test\.ts/);
      expect(test.all).toMatch(/Tests\s+4 passed/);
    },
    10 * MINUTES,
  );

  it(
    "builds the image's builder stage from the build context alone, and the result starts",
    async () => {
      // No Docker engine here: the builder stage's COPY and RUN steps run in a directory holding
      // only what the Dockerfile copies, which is what `docker build` would see of this project.
      const context = join(tempProject('image-context'), 'workspace');
      mkdirSync(context);
      const builder = readFileSync(join(dir, 'Dockerfile'), 'utf8').split(/^FROM /m)[1] ?? '';
      for (const [, op, args] of builder.matchAll(/^(COPY|RUN) (.+)$/gm)) {
        if (op === 'COPY') {
          const sources = args!.split(' ').slice(0, -1);
          for (const source of sources) {
            const path = join(dir, source.replace(/\*$/, ''));
            if (existsSync(path)) cpSync(path, join(context, source.replace(/\*$/, '')), { recursive: true });
          }
        } else {
          const step = await execa('sh', ['-c', args!], { cwd: context, all: true, reject: false });
          expect(step.exitCode, `${args}\n${step.all}`).toBe(0);
        }
      }
      expect(existsSync(join(context, 'build/main.js'))).toBe(true);
      expect(existsSync(join(context, 'node_modules/vitest'))).toBe(false); // dev dependencies pruned
      const help = await execa(process.execPath, ['build/main.js', '--help'], {
        cwd: context,
        all: true,
        reject: false,
      });
      expect(help.exitCode, help.all).toBe(0); // every runtime import resolved from the pruned node_modules
      expect(help.stdout).toMatch(/^Usage: node build\/main.js \[flags\]\n/);
      const bad = await execa(process.execPath, ['build/main.js', '--metrics-addr=:8080'], {
        cwd: context,
        all: true,
        reject: false,
      });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr.split('\n')[0]).toMatch(/Unknown option '--metrics-addr'/);
      expect(bad.stderr).not.toMatch(/^\s+at /m);
    },
    10 * MINUTES,
  );

  it(
    'renders config/default into objects the API server accepts',
    async () => {
      const rendered = await run(kubectl, ['kustomize', 'config/default']);
      expect(rendered.exitCode, rendered.all).toBe(0);
      const kinds = [...rendered.stdout.matchAll(/^kind: (\w+)$/gm)].map((m) => m[1]).sort();
      expect(kinds).toEqual([
        'ClusterRole',
        'ClusterRole',
        'ClusterRole',
        'ClusterRole',
        'ClusterRole',
        'ClusterRole',
        'ClusterRoleBinding',
        'ClusterRoleBinding',
        'CustomResourceDefinition',
        'Deployment',
        'Namespace',
        'Role',
        'RoleBinding',
        'Service',
        'ServiceAccount',
      ]);
      const kc = { KUBECONFIG: env.cp.kubeconfigPath };
      // A server-side dry run does not create the namespace, so the objects in it need it to exist.
      const ns = await run(kubectl, ['create', 'namespace', 'guestbook-operator-system'], kc);
      expect(ns.exitCode, ns.all).toBe(0);
      const apply = await execa(kubectl, ['apply', '--dry-run=server', '-f', '-'], {
        input: rendered.stdout,
        env: kc,
        all: true,
        reject: false,
      });
      expect(apply.exitCode, apply.all).toBe(0);
      expect(apply.stdout).toContain('deployment.apps/guestbook-operator-controller-manager created (server dry run)');
      expect(apply.stdout).toContain(
        'customresourcedefinition.apiextensions.k8s.io/guestbooks.webapp.example.com created (server dry run)',
      );
    },
    2 * MINUTES,
  );

  it(
    'runs against the harness kubeconfig, reconciles the sample, serves secure metrics, traces to OTLP as OTEL_SERVICE_NAME, and stops cleanly on SIGTERM',
    async () => {
      const receiver = await otlpReceiver();
      onTestFinished(() => receiver.close());
      const kc = { KUBECONFIG: env.cp.kubeconfigPath };
      const tracing = {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'guestbook-e2e',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e',
      };
      expect((await run(kubectl, ['apply', '-f', 'config/crd/bases'], kc)).exitCode).toBe(0);
      await env.cp.waitForCRDs(['guestbooks.webapp.example.com']);
      expect(
        (await run(kubectl, ['apply', '-n', 'default', '-f', 'config/samples/webapp_v1_guestbook.yaml'], kc)).exitCode,
      ).toBe(0);

      const operator: ResultPromise = execa(
        'npm',
        ['run', 'run', '--', '--health-probe-bind-address=0', '--metrics-bind-address=127.0.0.1:0'],
        { cwd: dir, env: { ...kc, ...tracing }, all: true, reject: false },
      );
      // The port the metrics server bound, from its 'serving metrics' log line.
      let metrics: { port: number; secure: boolean } | undefined;
      let logged = '';
      operator.all?.on('data', (chunk: Buffer) => {
        logged += chunk.toString();
        const line = logged.split('\n').find((l) => l.includes('"msg":"serving metrics"'));
        if (line && !metrics) metrics = JSON.parse(line) as { port: number; secure: boolean };
      });
      let status = '';
      for (let i = 0; i < 240 && status !== 'True'; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const got = await run(
          kubectl,
          [
            'get',
            'guestbook',
            'guestbook-sample',
            '-n',
            'default',
            '-o',
            'jsonpath={.status.conditions[?(@.type=="Available")].status}',
          ],
          kc,
        );
        status = got.stdout;
      }
      expect(status).toBe('True');

      // Metrics are served over HTTPS by default, only to tokens RBAC lets `get` /metrics.
      expect(metrics?.secure).toBe(true);
      const url = `https://127.0.0.1:${metrics!.port}/metrics`;
      expect(await httpsGet(url)).toMatchObject({ status: 401, body: 'Unauthorized\n' });
      for (const args of [
        ['create', 'serviceaccount', 'scraper', '-n', 'default'],
        ['create', 'clusterrole', 'e2e-metrics-reader', '--verb=get', '--non-resource-url=/metrics'],
        [
          'create',
          'clusterrolebinding',
          'e2e-metrics-reader',
          '--clusterrole=e2e-metrics-reader',
          '--serviceaccount=default:scraper',
        ],
      ]) {
        const created = await run(kubectl, args, kc);
        expect(created.exitCode, created.all).toBe(0);
      }
      const token = (await run(kubectl, ['create', 'token', 'scraper', '-n', 'default'], kc)).stdout.trim();
      const scraped = await httpsGet(url, token);
      expect(scraped.status, scraped.body).toBe(200);
      expect(scraped.body).toMatch(
        /^controller_runtime_reconcile_total\{controller="guestbook",result="success"\} [1-9]/m,
      );
      // Both controllers of the kind run in the manager, each under its name.
      expect(scraped.body).toMatch(
        /^controller_runtime_reconcile_total\{controller="guestbook-audit",result="[a-z_]+"\} [1-9]/m,
      );
      operator.kill('SIGTERM');
      const result = await operator;
      expect(result.exitCode, result.all as string).toBe(0);
      expect(result.all).toContain('"msg":"manager stopped"');
      // The spans batched so far were sent before the process exited, under the service the variable names.
      const batches = receiver.batches();
      expect(new Set(batches.map((b) => b.resource['service.name']))).toEqual(new Set(['guestbook-e2e']));
      expect(batches[0]?.resource['deployment.environment.name']).toBe('e2e');
      const spans = batches.flatMap((b) => b.spans);
      expect(spans).toContainEqual({
        name: 'Reconcile',
        attributes: expect.objectContaining({ controller: 'guestbook', objectKey: 'default/guestbook-sample' }),
      });
      expect(spans.map((sp) => sp.name)).toContain('k8s.Status.Patch');
    },
    5 * MINUTES,
  );

  it(
    'renders a namespaced multigroup project into objects the API server accepts, with a Role for the manager',
    async () => {
      const other = tempProject('fleet-operator');
      const tsop = (...args: string[]) =>
        execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], { cwd: other, all: true, reject: false });
      expect(
        (await tsop('init', '--domain', 'fleet.io', '--namespaced', '--multigroup', '--skip-install')).exitCode,
      ).toBe(0);
      expect((await tsop('create', 'api', '--group', 'ship', '--version', 'v1', '--kind', 'Frigate')).exitCode).toBe(0);
      const harbor = await tsop(
        'create',
        'api',
        '--group',
        'sea',
        '--version',
        'v1',
        '--kind',
        'Harbor',
        '--namespaced=false',
      );
      expect(harbor.exitCode, harbor.all).toBe(0);
      const rendered = await execa(kubectl, ['kustomize', 'config/default'], { cwd: other, all: true, reject: false });
      expect(rendered.exitCode, rendered.all).toBe(0);
      expect(rendered.stdout).toMatch(
        /kind: Role\nmetadata:\n {2}name: fleet-operator-manager-role\n {2}namespace: fleet-operator-system\n/,
      );
      expect(rendered.stdout).toContain('- name: WATCH_NAMESPACE');
      const kc = { KUBECONFIG: env.cp.kubeconfigPath };
      expect(
        (await execa(kubectl, ['create', 'namespace', 'fleet-operator-system'], { env: kc, reject: false })).exitCode,
      ).toBe(0);
      const apply = await execa(kubectl, ['apply', '--dry-run=server', '-f', '-'], {
        input: rendered.stdout,
        env: kc,
        all: true,
        reject: false,
      });
      expect(apply.exitCode, apply.all).toBe(0);
      expect(apply.stdout).toContain(
        'customresourcedefinition.apiextensions.k8s.io/harbors.sea.fleet.io created (server dry run)',
      );
      expect(apply.stdout).toContain(
        'rolebinding.rbac.authorization.k8s.io/fleet-operator-manager-rolebinding created (server dry run)',
      );
    },
    2 * MINUTES,
  );
});
