/**
 * `tsop import kubebuilder` carrying what a kubebuilder project records besides its kinds, through
 * the built CLI: the Makefile's `crd:maxDescLen=0` kept as the project's manifests setting (so a
 * plain `tsop manifests --check` agrees with CRDs that have no descriptions), and with --scaffold
 * the PROJECT's controllers (deploy-image's with their image), webhooks (validation, conversion
 * with its spoke, a built-in kind's), and Helm chart, as kubebuilder's project-v4-with-plugins
 * records them with its dotted group `example.com`; what cannot be carried is one line each. The
 * result type-checks. A multigroup project with the dotted group `foo.policy` imports too.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { TSOP } from '../e2e/seeds/seed-project.js';
import { knownTypeSchema } from '../../src/codegen/known.js';
import { crdObject } from './crds.js';
import { linkNodeModules } from '../scaffold/node-modules.js';

const root = mkdtempSync(join(tmpdir(), 'tsop-import-kb-settings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tsop = (cwd: string, ...args: string[]) =>
  execa(process.execPath, [join(TSOP, 'bin/tsop.js'), ...args], {
    cwd,
    reject: false,
    all: true,
    env: { NO_COLOR: '1' },
  });

function writeProject(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const MAKEFILE = [
  '.PHONY: manifests',
  'manifests: controller-gen',
  '\t$(CONTROLLER_GEN) rbac:roleName=manager-role crd:maxDescLen=0 webhook paths="./..." output:crd:artifacts:config=config/crd/bases',
  '',
].join('\n');

const PLUGINS_PROJECT = `cliVersion: 4.15.0
domain: testproject.org
layout:
- go.kubebuilder.io/v4
plugins:
  deploy-image.go.kubebuilder.io/v1-alpha:
    resources:
    - domain: testproject.org
      group: example.com
      kind: Busybox
      options:
        image: busybox:1.36.1
        runAsUser: "1001"
      version: v1alpha1
  grafana.kubebuilder.io/v1-alpha: {}
  helm.kubebuilder.io/v2-alpha:
    manifests: dist/install.yaml
    output: dist
projectName: project-v4-with-plugins
repo: sigs.k8s.io/kubebuilder/testdata/project-v4-with-plugins
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  domain: testproject.org
  group: example.com
  kind: Busybox
  path: sigs.k8s.io/kubebuilder/testdata/project-v4-with-plugins/api/v1alpha1
  version: v1alpha1
  webhooks:
    validation: true
    webhookVersion: v1
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  domain: testproject.org
  group: example.com
  kind: Wordpress
  path: sigs.k8s.io/kubebuilder/testdata/project-v4-with-plugins/api/v1
  version: v1
  webhooks:
    conversion: true
    spoke:
    - v2
    webhookVersion: v1
- api:
    crdVersion: v1
    namespaced: true
  domain: testproject.org
  group: example.com
  kind: Wordpress
  path: sigs.k8s.io/kubebuilder/testdata/project-v4-with-plugins/api/v2
  version: v2
- group: core
  kind: Pod
  path: k8s.io/api/core/v1
  version: v1
  webhooks:
    defaulting: true
    webhookVersion: v1
- domain: io
  external: true
  group: cert-manager
  kind: Certificate
  path: github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1
  version: v1
  webhooks:
    defaulting: true
    webhookVersion: v1
version: "3"
`;

/** What controller-gen writes with crd:maxDescLen=0: the schema without a description anywhere. */
function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== 'description')
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

/** A kind as kubebuilder v4 scaffolds it: spec, and status with conditions. */
const kindSchema = (spec: Record<string, unknown>) =>
  withoutDescriptions({
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: { type: 'object', properties: spec },
      status: {
        type: 'object',
        properties: {
          conditions: {
            type: 'array',
            items: knownTypeSchema('Condition'),
            'x-kubernetes-list-map-keys': ['type'],
            'x-kubernetes-list-type': 'map',
          },
        },
      },
    },
    required: ['spec'],
  }) as Record<string, unknown>;

const busybox = crdObject({
  group: 'example.com.testproject.org',
  kind: 'Busybox',
  plural: 'busyboxes',
  versions: ['v1alpha1'],
  schema: kindSchema({ size: { type: 'integer', format: 'int32', minimum: 1, maximum: 3 } }),
});
const wordpress = crdObject({
  group: 'example.com.testproject.org',
  kind: 'Wordpress',
  plural: 'wordpresses',
  versions: ['v1', 'v2'],
  schema: kindSchema({ foo: { type: 'string' } }),
});

describe('a project shaped as kubebuilder project-v4-with-plugins', () => {
  const kb = join(root, 'kb');
  const out = join(root, 'out');
  let result: Awaited<ReturnType<typeof tsop>>;

  beforeAll(async () => {
    writeProject(kb, {
      PROJECT: PLUGINS_PROJECT,
      Makefile: MAKEFILE,
      'config/crd/bases/example.com.testproject.org_busyboxes.yaml': `---\n${stringify(busybox)}`,
      'config/crd/bases/example.com.testproject.org_wordpresses.yaml': `---\n${stringify(wordpress)}`,
      'cmd/main.go': 'package main\n\nfunc main() {}\n',
      'internal/controller/wordpress_controller.go':
        'package controller\n\nfunc (r *WordpressReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {\n\treturn ctrl.Result{}, nil\n}\n',
    });
    // No --allow-lossy: with the Makefile's crd:maxDescLen=0 the CRDs come back whole.
    result = await tsop(root, 'import', 'kubebuilder', 'kb', '--dir', 'out', '--scaffold');
  }, 300_000);

  it('keeps the Makefile crd:maxDescLen=0 in PROJECT, which a plain tsop manifests --check reads', async () => {
    expect(result.exitCode, result.all).toBe(0);
    const project = parse(readFileSync(join(out, 'PROJECT'), 'utf8'));
    expect(project.plugins['manifests.typescript.tsop.dev/v1']).toEqual({ maxDescLen: 0 });
    expect(result.stderr).toContain('kept in PROJECT (plugins.manifests.typescript.tsop.dev/v1)');
    const check = await tsop(out, 'manifests', '--check');
    expect(check.exitCode, check.all).toBe(0);
  }, 120_000);

  it('scaffolds the controllers, webhooks and Helm chart PROJECT records', () => {
    expect(result.exitCode, result.all).toBe(0);
    const project = parse(readFileSync(join(out, 'PROJECT'), 'utf8'));
    const byKind = (kind: string, version: string) =>
      project.resources.find((r: { kind: string; version: string }) => r.kind === kind && r.version === version);
    expect(byKind('Busybox', 'v1alpha1')).toMatchObject({ controller: true, webhooks: { validation: true } });
    expect(byKind('Wordpress', 'v1')).toMatchObject({
      controller: true,
      webhooks: { conversion: true, spoke: ['v2'] },
    });
    expect(byKind('Pod', 'v1')).toMatchObject({ webhooks: { defaulting: true } });
    expect(project.plugins['deploy-image.typescript.tsop.dev/v1-alpha'].resources).toEqual([
      expect.objectContaining({ kind: 'Busybox', options: expect.objectContaining({ image: 'busybox:1.36.1' }) }),
    ]);
    expect(project.plugins['helm.typescript.tsop.dev/v2-alpha']).toMatchObject({ output: 'dist' });
    for (const path of [
      'src/controllers/busybox-controller.ts',
      'src/controllers/wordpress-controller.ts',
      'src/webhooks/v1alpha1/busybox-webhook.ts',
      'dist/chart/Chart.yaml',
    ])
      expect(existsSync(join(out, path)), path).toBe(true);
    expect(readFileSync(join(out, 'config/manager/manager.yaml'), 'utf8')).toContain('BUSYBOX_IMAGE');
    // deploy-image's controller over the imported kind: the types stay the imported ones.
    expect(readFileSync(join(out, 'src/api/v1alpha1/busybox.ts'), 'utf8')).toContain('@Maximum(3)');
  });

  it('names what it cannot carry, one line each, and prints paths from where the user stands', () => {
    const lines = result.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('tsop: note: PROJECT:'))).toEqual([
      expect.stringMatching(
        /^tsop: note: PROJECT: the webhooks of Certificate \(cert-manager\/v1, external: .*\) are not scaffolded/,
      ),
      'tsop: note: PROJECT: plugins.grafana.kubebuilder.io/v1-alpha is not carried: tsop has no such plugin',
    ]);
    expect(lines).toContain(
      '  kb/cmd/main.go (main) → src/main.ts (each controller and webhook tsop scaffolds registers itself there)',
    );
    expect(lines).toContain(
      '  kb/internal/controller/wordpress_controller.go (controller) → scaffolded: tsop create api --group example.com --version v1 --kind Wordpress --resource=false --controller',
    );
  });

  it('type-checks', async () => {
    linkNodeModules(out);
    const tsc = await execa(process.execPath, [join(TSOP, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: out,
      all: true,
      reject: false,
    });
    expect(tsc.exitCode, tsc.all).toBe(0);
  }, 180_000);
});

describe('a multigroup project with the dotted group foo.policy', () => {
  it('imports, the group kept whole', async () => {
    const kb = join(root, 'mg');
    writeProject(kb, {
      PROJECT: `domain: testproject.org
layout:
- go.kubebuilder.io/v4
multigroup: true
projectName: project-v4-multigroup
repo: sigs.k8s.io/kubebuilder/testdata/project-v4-multigroup
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  domain: testproject.org
  group: foo.policy
  kind: HealthCheckPolicy
  path: sigs.k8s.io/kubebuilder/testdata/project-v4-multigroup/api/foo.policy/v1
  version: v1
version: "3"
`,
      'cmd/main.go': 'package main\n\nfunc main() {}\n',
      'config/crd/bases/foo.policy.testproject.org_healthcheckpolicies.yaml': `---\n${stringify(
        crdObject({ group: 'foo.policy.testproject.org', kind: 'HealthCheckPolicy', plural: 'healthcheckpolicies' }),
      )}`,
    });
    // Run from another directory with the project's absolute path: paths print as typed, not as ../../…
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const out = join(root, 'mg-ts');
    const r = await tsop(elsewhere, 'import', 'kubebuilder', kb, '--dir', out, '--scaffold');
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stderr.split('\n')).toContain(
      `  ${kb}/cmd/main.go (main) → src/main.ts (each controller and webhook tsop scaffolds registers itself there)`,
    );
    expect(parse(readFileSync(join(out, 'PROJECT'), 'utf8')).resources).toEqual([
      expect.objectContaining({ group: 'foo.policy', kind: 'HealthCheckPolicy', controller: true }),
    ]);
    // --make=false: neither the import nor the scaffolded steps generate config/ (npm run manifests does).
    const noMake = join(root, 'mg-no-make');
    const quiet = await tsop(root, 'import', 'kubebuilder', kb, '--dir', noMake, '--scaffold', '--make=false');
    expect(quiet.exitCode, quiet.all).toBe(0);
    expect(existsSync(join(noMake, 'src/controllers/foo.policy/healthcheckpolicy-controller.ts'))).toBe(true);
    expect(existsSync(join(noMake, 'config/crd/bases/foo.policy.testproject.org_healthcheckpolicies.yaml'))).toBe(
      false,
    );
    for (const path of [
      'src/api/foo.policy/v1/healthcheckpolicy.ts',
      'src/controllers/foo.policy/healthcheckpolicy-controller.ts',
      'config/crd/bases/foo.policy.testproject.org_healthcheckpolicies.yaml',
      'config/rbac/foo.policy_healthcheckpolicy_editor_role.yaml',
    ])
      expect(existsSync(join(out, path)), path).toBe(true);
  }, 180_000);
});

describe('bad input and --dry-run', () => {
  const files = () => ({
    PROJECT: PLUGINS_PROJECT,
    'config/crd/bases/example.com.testproject.org_busyboxes.yaml': `---\n${stringify(busybox)}`,
    'config/crd/bases/example.com.testproject.org_wordpresses.yaml': `---\n${stringify(wordpress)}`,
  });

  it('a Makefile option tsop cannot read is one line, and nothing is written', async () => {
    const kb = join(root, 'bad-makefile');
    writeProject(kb, { ...files(), Makefile: MAKEFILE.replace('crd:maxDescLen=0', 'crd:maxDescLen=short') });
    const r = await tsop(root, 'import', 'kubebuilder', 'bad-makefile', '--dir', 'bad-out', '--scaffold');
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'tsop: import kubebuilder: bad-makefile/Makefile:3: crd:maxDescLen=short is not a whole number of 0 or more; fix the Makefile (e.g. crd:maxDescLen=0) and import again',
    ]);
    expect(existsSync(join(root, 'bad-out'))).toBe(false);
  }, 60_000);

  it('--dry-run --scaffold lists the steps it would run and writes nothing', async () => {
    const kb = join(root, 'dry');
    writeProject(kb, { ...files(), Makefile: MAKEFILE });
    const r = await tsop(root, 'import', 'kubebuilder', 'dry', '--dir', 'dry-out', '--scaffold', '--dry-run');
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('would run: '))).toEqual([
      'would run: tsop create api --group example.com --version v1alpha1 --kind Busybox --plugins deploy-image/v1-alpha --image busybox:1.36.1 --run-as-user 1001 --force',
      'would run: tsop create api --group example.com --version v1 --kind Wordpress --resource=false --controller',
      'would run: tsop create webhook --group example.com --version v1alpha1 --kind Busybox --programmatic-validation',
      'would run: tsop create webhook --group example.com --version v1 --kind Wordpress --conversion --spoke v2',
      'would run: tsop create webhook --group core --version v1 --kind Pod --defaulting',
      'would run: tsop edit --plugins helm/v2-alpha --output-dir dist',
    ]);
    expect(existsSync(join(root, 'dry-out'))).toBe(false);
  }, 60_000);
});

it('a kind tsop cannot express whole stops the import, named as import kubebuilder', async () => {
  const kb = join(root, 'lossy');
  const widget = crdObject({
    group: 'example.com.testproject.org',
    kind: 'Widget',
    plural: 'widgets',
    spec: { type: 'object', properties: { mode: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }] } } },
  });
  writeProject(kb, {
    PROJECT: `domain: testproject.org
layout:
- go.kubebuilder.io/v4
projectName: lossy
repo: example.org/lossy
resources:
- api:
    crdVersion: v1
    namespaced: true
  domain: testproject.org
  group: example.com
  kind: Widget
  version: v1
version: "3"
`,
    'config/crd/bases/example.com.testproject.org_widgets.yaml': `---\n${stringify(widget)}`,
  });
  const r = await tsop(root, 'import', 'kubebuilder', 'lossy', '--dir', 'lossy-out');
  expect(r.exitCode).toBe(1);
  expect(r.stderr.trimEnd().split('\n').pop()).toMatch(
    /^tsop: import kubebuilder: 1 thing of the CRD cannot be said in TypeScript \(listed above\), so nothing was written/,
  );
  expect(existsSync(join(root, 'lossy-out'))).toBe(false);
}, 60_000);

it('into a tsop project whose manifests setting differs from the Makefile: one line, nothing written', async () => {
  const dir = join(root, 'existing');
  mkdirSync(dir);
  expect((await tsop(dir, 'init', '--domain', 'testproject.org', '--skip-install')).exitCode).toBe(0);
  const projectFile = join(dir, 'PROJECT');
  writeFileSync(
    projectFile,
    `${readFileSync(projectFile, 'utf8').replace(/\nplugins:\n/, '\nplugins:\n  manifests.typescript.tsop.dev/v1:\n    maxDescLen: 40\n')}`,
  );
  const before = readFileSync(projectFile, 'utf8');
  expect(before).toContain('maxDescLen: 40');
  const kb = join(root, 'kb-existing');
  writeProject(kb, {
    PROJECT: PLUGINS_PROJECT,
    Makefile: MAKEFILE,
    'config/crd/bases/example.com.testproject.org_busyboxes.yaml': `---\n${stringify(busybox)}`,
    'config/crd/bases/example.com.testproject.org_wordpresses.yaml': `---\n${stringify(wordpress)}`,
  });
  const r = await tsop(root, 'import', 'kubebuilder', kb, '--dir', dir);
  expect(r.exitCode).toBe(1);
  expect(r.stderr.trimEnd().split('\n')).toEqual([
    expect.stringMatching(
      /^tsop: import kubebuilder: the Makefile's controller-gen call sets maxDescLen 0, and .*existing's PROJECT \(plugins.manifests.typescript.tsop.dev\/v1\) has 40/,
    ),
  ]);
  expect(readFileSync(projectFile, 'utf8')).toBe(before);
}, 60_000);
