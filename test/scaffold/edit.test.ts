/**
 * `tsop edit`: each setting changes PROJECT and the files that depend on it, and nothing else;
 * PROJECT after a whole command sequence is checked against a golden file.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCreateApi } from '../../src/cli/create-api.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { builtinClusterScoped } from '../../src/project/cluster-scope.js';
import { splitRules } from '../../src/plugins/helm/rbac.js';
import { GENERATED_HEADER } from '../../src/plugins/helm/template.js';
import { captured, expectGolden, oneLineDecorators, readTree, tempProject } from './harness.js';

async function project(name: string): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', owner: 'First Owner', skipInstall: true }, captured());
  await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
  return dir;
}

const changed = (before: Record<string, string>, after: Record<string, string>): string[] =>
  Object.keys(after)
    .filter((p) => before[p] !== after[p])
    .sort();

// Each case writes a whole project (about 140 files); allow for a loaded machine.
describe('tsop edit', { timeout: 30_000 }, () => {
  it("--namespaced switches the manager to one namespace with a RoleBinding and gives the controllers' @Rbac the namespace create api would have; --namespaced=false undoes it", async () => {
    const dir = await project('ns');
    await runCreateApi({ dir, group: 'cache', version: 'v1', kind: 'Redis', make: false }, captured());
    const before = readTree(dir);
    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    const after = readTree(dir);
    expect(changed(before, after)).toEqual([
      'PROJECT',
      'config/manager/manager.yaml',
      'config/rbac/role_binding.yaml',
      'src/controllers/memcached-controller.ts',
      'src/controllers/redis-controller.ts',
    ]);
    expect(after['PROJECT']).toContain('namespaced: true');
    expect(after['config/manager/manager.yaml']).toContain(
      '- name: WATCH_NAMESPACE\n          valueFrom:\n            fieldRef:\n              fieldPath: metadata.namespace',
    );
    expect(after['config/rbac/role_binding.yaml']).toContain('kind: RoleBinding');
    expect(oneLineDecorators(after['src/controllers/memcached-controller.ts'] ?? '')).toContain(
      "verbs: ['update'], namespace: 'ns-system' })",
    );
    expect(io.stderr).toBe(
      'updated PROJECT\nupdated config/manager/manager.yaml\nupdated config/rbac/role_binding.yaml\nupdated src/controllers/memcached-controller.ts\nupdated src/controllers/redis-controller.ts\n' +
        "note: run 'npm run manifests' to regenerate config/rbac/role.yaml from the updated @Rbac decorators\n",
    );

    // What create api writes in a project that was namespaced from the start (same name, same owner).
    const fresh = tempProject('ns');
    await runInit(
      { dir: fresh, domain: 'example.com', owner: 'First Owner', namespaced: true, skipInstall: true },
      captured(),
    );
    await runCreateApi({ dir: fresh, group: 'cache', version: 'v1', kind: 'Memcached', make: false }, captured());
    await runCreateApi({ dir: fresh, group: 'cache', version: 'v1', kind: 'Redis', make: false }, captured());
    const expected = readTree(fresh);
    for (const path of changed(before, after)) expect(after[path], path).toBe(expected[path]);

    await runEdit({ dir, namespaced: false }, captured());
    const back = readTree(dir);
    for (const path of ['src/controllers/memcached-controller.ts', 'src/controllers/redis-controller.ts'])
      expect(back[path], path).toBe(before[path]);
    expect(changed(before, back)).toEqual(['PROJECT']);
    expect(back['PROJECT']!.replace('namespaced: false\n', '')).toBe(before['PROJECT']);
  });

  it('--namespaced rewrites hand-written multi-line @Rbac too, keeps another namespace, and names what it cannot rewrite', async () => {
    const dir = await project('hand');
    const path = 'src/controllers/memcached-controller.ts';
    const file = join(dir, path);
    const scaffolded = readFileSync(file, 'utf8');
    const extra = [
      '@Rbac({',
      "  groups: ['apps'], // the Deployments it runs",
      "  resources: ['deployments'],",
      "  verbs: ['get', 'list', `watch`],",
      '})',
      "@Rbac({ groups: [''], resources: ['configmaps'], verbs: ['get'], namespace: 'other' })",
      "@Rbac({ ...events, verbs: ['create'] })",
      '',
    ].join('\n');
    const handEdited = scaffolded.replace(
      'export class MemcachedReconciler',
      `${extra}export class MemcachedReconciler`,
    );
    expect(handEdited).not.toBe(scaffolded);
    writeFileSync(file, handEdited);

    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    const edited = readFileSync(file, 'utf8');
    expect(edited).toContain("  verbs: ['get', 'list', `watch`],\n  namespace: 'hand-system',\n})\n");
    expect(edited).toContain(
      "@Rbac({ groups: [''], resources: ['configmaps'], verbs: ['get'], namespace: 'other' })\n",
    );
    expect(edited).toContain("@Rbac({ ...events, verbs: ['create'] })\n");
    // Every scaffolded @Rbac line, plus the hand-written multi-line one.
    const scaffoldedRules = scaffolded.match(/^@Rbac\(/gm)?.length ?? 0;
    expect(scaffoldedRules).toBeGreaterThanOrEqual(3);
    expect(edited.match(/namespace: 'hand-system'/g)).toHaveLength(scaffoldedRules + 1);
    const line = handEdited.split('\n').indexOf("@Rbac({ ...events, verbs: ['create'] })") + 1;
    expect(io.stderr).toContain(
      `note: ${path}:${line}: its object literal has a spread (...), which may hold a namespace; add namespace: 'hand-system' to its @Rbac decorators by hand\n`,
    );

    await runEdit({ dir, namespaced: false }, captured());
    expect(readFileSync(file, 'utf8')).toBe(handEdited);
  });

  it('--namespaced finds controllers created before edit --multigroup, and names a controller file that is gone', async () => {
    const dir = await project('moved');
    await runEdit({ dir, multigroup: true }, captured());
    await runCreateApi({ dir, group: 'apps', version: 'v1', kind: 'Guestbook', make: false }, captured());
    rmSync(join(dir, 'src/controllers/apps/guestbook-controller.ts'));
    const io = captured();
    await runEdit({ dir, namespaced: true }, io);
    expect(oneLineDecorators(readFileSync(join(dir, 'src/controllers/memcached-controller.ts'), 'utf8'))).toContain(
      "verbs: ['update'], namespace: 'moved-system' })",
    );
    expect(io.stderr).toContain(
      "note: src/controllers/apps/guestbook-controller.ts not found; if the controller lives elsewhere, add namespace: 'moved-system' to its @Rbac decorators by hand\n",
    );
  });

  it('--license none --owner rewrites the header of scaffolded files (sources and e2e tests), not the runtime', async () => {
    const dir = await project('lic');
    const before = readTree(dir);
    await runEdit({ dir, license: 'none', owner: 'New Owner' }, captured());
    const after = readTree(dir);
    // Every TypeScript file the scaffold wrote with the old header (whatever the templates hold today), the runtime excepted.
    const oldHeader = before['hack/boilerplate.ts.txt']!;
    const headed = Object.keys(before).filter(
      (p) => p.endsWith('.ts') && !p.startsWith('src/runtime/') && before[p]!.startsWith(`${oldHeader}\n`),
    );
    expect(headed).toEqual(
      expect.arrayContaining([
        'src/main.ts',
        'src/api/v1/memcached.ts',
        'src/controllers/memcached-controller.ts',
        'test/e2e/e2e.test.ts',
      ]),
    );
    expect(changed(before, after)).toEqual(['PROJECT', 'hack/boilerplate.ts.txt', 'package.json', ...headed].sort());
    expect(after['hack/boilerplate.ts.txt']).toBe('/*\nCopyright 2026 New Owner.\n*/\n');
    expect(after['src/main.ts']!.startsWith('/*\nCopyright 2026 New Owner.\n*/\n\n/**\n * The operator')).toBe(true);
    expect(after['src/main.ts']).not.toContain('Apache');
    expect(after['package.json']).toContain('"license": "UNLICENSED"');
    expect(after['PROJECT']).toContain('license: none\n    owner: New Owner');
  });

  it.each([
    [
      {},
      'edit: nothing to change; pass --multigroup, --namespaced, --sharding, --license, --owner or --plugins helm/v2-alpha',
    ],
    [{ license: 'gpl' }, "--license: 'gpl' is not a known license; use 'apache2' or 'none'"],
  ])('rejects %o with one line', async (flags, expected) => {
    const dir = await project('bad');
    await expect(runEdit({ dir, ...flags }, captured())).rejects.toThrow(expected);
  });

  it('leaves PROJECT as recorded after init, create api, edit --multigroup, create api, edit --owner (golden: project-sequence)', async () => {
    const dir = await project('sequence');
    await runEdit({ dir, multigroup: true }, captured());
    await runCreateApi(
      { dir, group: 'apps', version: 'v1beta1', kind: 'Guestbook', controller: false, make: false },
      captured(),
    );
    await runEdit({ dir, owner: 'Second Owner' }, captured());
    expectGolden('project-sequence', { PROJECT: readFileSync(join(dir, 'PROJECT'), 'utf8') });
  });
});

/** A kustomize output as `kubectl kustomize config/default` writes it for a project named 'shop'. */
const SHOP_INSTALL = `apiVersion: v1
kind: Namespace
metadata:
  labels:
    app.kubernetes.io/managed-by: kustomize
    app.kubernetes.io/name: shop
  name: shop-system
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.toys.example.com
spec:
  group: toys.example.com
  names:
    kind: Gizmo
    plural: gizmos
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        description: Prints {{ .name }} as written; shop-system is a word here
        type: object
---
apiVersion: v1
kind: ServiceAccount
metadata:
  labels:
    app.kubernetes.io/managed-by: kustomize
    app.kubernetes.io/name: shop
  name: shop-controller-manager
  namespace: shop-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: shop-manager-rolebinding
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: shop-manager-role
subjects:
- kind: ServiceAccount
  name: shop-controller-manager
  namespace: shop-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: shop-settings
  namespace: shop-system
data:
  url: http://shop-api.shop-system.svc:8080
---
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app.kubernetes.io/name: shop
    control-plane: controller-manager
  name: shop-controller-manager
  namespace: shop-system
spec:
  replicas: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: shop
      control-plane: controller-manager
  template:
    metadata:
      labels:
        app.kubernetes.io/name: shop
        control-plane: controller-manager
    spec:
      containers:
      - args:
        - --metrics-bind-address=:8443
        - --leader-elect
        - --health-probe-bind-address=:8081
        - --webhook-service-name=shop-webhook-service
        command:
        - /nodejs/bin/node
        - build/main.js
        env:
        - name: GIZMO_IMAGE
          value: gizmo:1.0
        image: registry.example.com/shop:0.4.0
        name: manager
        resources:
          limits:
            memory: 256Mi
      serviceAccountName: shop-controller-manager
---
apiVersion: toys.example.com/v1
kind: Gizmo
metadata:
  name: gizmo-sample
`;

const SHOP_WEBHOOK = `---
apiVersion: v1
kind: Service
metadata:
  name: shop-webhook-service
  namespace: shop-system
spec:
  ports:
  - port: 443
    targetPort: 9443
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: shop-validating-webhook-configuration
webhooks:
- name: vgizmo-v1.kb.io
  clientConfig:
    service:
      name: shop-webhook-service
      namespace: shop-system
      path: /validate-toys-example-com-v1-gizmo
  admissionReviewVersions: [v1]
  sideEffects: None
`;

describe('tsop edit --plugins helm/v2-alpha', { timeout: 30_000 }, () => {
  async function shop(): Promise<string> {
    const dir = tempProject('shop');
    await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
    writeFileSync(join(dir, 'install.yaml'), SHOP_INSTALL);
    return dir;
  }
  const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

  it('writes one template per object with the release names, the CRD schema untouched, and values from the manager', async () => {
    const dir = await shop();
    const io = captured();
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, io);
    expect(io.stderr).toContain('created dist/chart/Chart.yaml\n');
    for (const t of [
      'crd/gizmos.toys.example.com',
      'rbac/controller-manager',
      'rbac/manager-rolebinding',
      'manager/manager',
      'extras/settings',
    ]) {
      expect(io.stderr).toContain(`created dist/chart/templates/${t}.yaml\n`);
    }
    expect(io.stderr).toContain('note: not in the chart: Namespace shop-system');
    expect(io.stderr).toContain(
      'note: not in the chart: Gizmo gizmo-sample: custom resources are not part of the chart',
    );

    const crd = read(dir, 'dist/chart/templates/crd/gizmos.toys.example.com.yaml');
    expect(crd.startsWith(`${GENERATED_HEADER}{{- if .Values.crd.enabled }}\n`)).toBe(true);
    expect(crd).toContain(
      '  annotations:\n{{- if .Values.crd.keep }}\n    "helm.sh/resource-policy": keep\n{{- end }}\n',
    );
    // Text in the schema reaches the cluster as written: braces escaped, no renaming.
    expect(crd).toContain('description: Prints {{ "{{" }} .name }} as written; shop-system is a word here');

    const binding = read(dir, 'dist/chart/templates/rbac/manager-rolebinding.yaml');
    expect(binding).toContain('  name: {{ include "shop.resourceName" (dict "suffix" "manager-role" "context" $) }}\n');
    expect(binding).toContain(
      '- kind: ServiceAccount\n  name: {{ include "shop.serviceAccountName" $ }}\n  namespace: {{ .Release.Namespace }}\n',
    );
    const settings = read(dir, 'dist/chart/templates/extras/settings.yaml');
    expect(settings).toContain(
      'url: http://{{ include "shop.resourceName" (dict "suffix" "api" "context" $) }}.{{ .Release.Namespace }}.svc:8080',
    );
    expect(settings).not.toContain('{{- if');

    const manager = read(dir, 'dist/chart/templates/manager/manager.yaml');
    expect(manager).toContain(
      '  name: {{ include "shop.resourceName" (dict "suffix" "controller-manager" "context" $) }}\n',
    );
    expect(manager).toContain('  replicas: {{ .Values.manager.replicas }}\n');
    expect(manager).toContain('        - name: GIZMO_IMAGE\n          value: gizmo:1.0\n');
    expect(manager).toContain('{{- if .Values.leaderElection.enabled }}\n        - --leader-elect\n{{- end }}');
    expect(manager).toContain(
      '{{- with .Values.sharding }}{{- with .ring }}\n        - --sharding={{ . }}\n{{- end }}{{- end }}',
    );
    expect(manager).toContain(
      '        - "--webhook-service-name={{ include "shop.resourceName" (dict "suffix" "webhook-service" "context" $) }}"\n',
    );
    expect(manager).not.toContain('.Values.webhook');

    const values = read(dir, 'dist/chart/values.yaml');
    expect(values).toContain('  image:\n    repository: registry.example.com/shop\n    tag: 0.4.0\n');
    expect(values).toContain('  resources:\n    limits:\n      memory: 256Mi\n');
    expect(values).toContain('crd:\n  enabled: true\n  keep: true\n');
    expect(values).toContain('sharding:\n  ring: ""\n');
    expect(values).not.toContain('webhook:');
    expect(read(dir, 'PROJECT')).toContain(
      '  helm.typescript.tsop.dev/v2-alpha:\n    manifests: install.yaml\n    output: dist\n',
    );
    expect(read(dir, 'dist/chart/templates/_helpers.tpl')).toContain('{{- define "shop.resourceName" -}}');
    const workflow = read(dir, '.github/workflows/test-chart.yml');
    expect(workflow).toContain('if [ -n "$(git status --porcelain -- dist/chart)" ]; then\n');
    expect(workflow).toContain('helm template shop dist/chart --namespace shop-system > /dev/null\n');
    const scripts = (JSON.parse(read(dir, 'package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['helm-deploy']).toBe(
      'helm upgrade --install shop dist/chart --namespace shop-system --create-namespace --wait --timeout 5m ${IMG:+--set manager.image.repository=$IMG} ${HELM_EXTRA_ARGS:-}',
    );
    expect(scripts['helm-uninstall']).toBe('helm uninstall shop --namespace shop-system');
    expect(scripts['build-installer']).toBeDefined();
  });

  it("again after a webhook: Chart.yaml, values.yaml and helpers stay the user's, values gain the webhook section, templates follow; --force rewrites all but Chart.yaml", async () => {
    const dir = await shop();
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, captured());
    const edit = (path: string, from: string, to: string): void => {
      const text = read(dir, path);
      expect(text).toContain(from);
      writeFileSync(join(dir, path), text.replace(from, to));
    };
    edit('dist/chart/values.yaml', 'replicas: 1', 'replicas: 4 # ours');
    edit('dist/chart/Chart.yaml', 'version: 0.1.0', 'version: 0.3.0');
    edit('dist/chart/templates/_helpers.tpl', '{{/* The chart', '{{/* ours */}}\n{{/* The chart');
    writeFileSync(join(dir, 'install.yaml'), SHOP_INSTALL + SHOP_WEBHOOK);

    const io = captured();
    await runEdit({ dir, plugins: 'helm.kubebuilder.io/v2-alpha', manifests: 'install.yaml' }, io);
    expect(io.stderr).toContain('created dist/chart/templates/webhook/validating-webhook-configuration.yaml\n');
    expect(io.stderr).toContain('updated dist/chart/templates/manager/manager.yaml\n');
    expect(io.stderr).toContain('note: dist/chart/values.yaml: added webhook (your other values are kept)\n');
    expect(io.stderr).not.toMatch(/(Chart\.yaml|_helpers\.tpl|package\.json)\n/);
    expect(read(dir, 'dist/chart/values.yaml')).toContain('replicas: 4 # ours');
    expect(read(dir, 'dist/chart/values.yaml')).toContain('webhook:\n  enabled: true\n  port: 9443\n');
    expect(read(dir, 'dist/chart/templates/webhook/webhook-service.yaml')).toContain(
      'targetPort: {{ .Values.webhook.port }}',
    );
    expect(read(dir, 'dist/chart/templates/_helpers.tpl')).toContain('{{/* ours */}}');

    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml', force: true }, captured());
    expect(read(dir, 'dist/chart/values.yaml')).toContain('  replicas: 1\n');
    expect(read(dir, 'dist/chart/templates/_helpers.tpl')).not.toContain('{{/* ours */}}');
    expect(read(dir, 'dist/chart/Chart.yaml')).toContain('version: 0.3.0');
  });

  it("removes the templates an earlier run generated for objects the project no longer has, never the user's own", async () => {
    const dir = await shop();
    writeFileSync(join(dir, 'install.yaml'), SHOP_INSTALL + SHOP_WEBHOOK);
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, captured());
    const mine = 'dist/chart/templates/extras/my-config.yaml';
    writeFileSync(join(dir, mine), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n');
    expect(existsSync(join(dir, 'dist/chart/templates/webhook/validating-webhook-configuration.yaml'))).toBe(true);
    writeFileSync(join(dir, 'install.yaml'), SHOP_INSTALL);
    const io = captured();
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, io);
    expect(io.stderr).toContain('deleted dist/chart/templates/webhook/validating-webhook-configuration.yaml\n');
    expect(existsSync(join(dir, 'dist/chart/templates/webhook/validating-webhook-configuration.yaml'))).toBe(false);
    expect(read(dir, mine)).toContain('name: mine');
    expect(existsSync(join(dir, 'dist/chart/templates/manager/manager.yaml'))).toBe(true);
  });

  it("adds the keys a newer chart reads to an older values.yaml, inside its sections, keeping the user's values and comments", async () => {
    const dir = await shop();
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, captured());
    const values = join(dir, 'dist/chart/values.yaml');
    // As an older tsop wrote it: no digest, annotations, PDB or extra volumes; and a value of the user's.
    const older = read(dir, 'dist/chart/values.yaml')
      .replace(/^ {4}digest: .*\n/m, '')
      .replace(/^ {2}annotations: \{\}\n/m, '')
      .replace(/^ {2}podDisruptionBudget:\n(^ {4}.*\n)+/m, '')
      .replace(/^ {2}extraVolumes: \[\]\n {2}extraVolumeMounts: \[\]\n/m, '')
      .replace('replicas: 1', 'replicas: 2 # ours');
    writeFileSync(values, older);
    const io = captured();
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, io);
    expect(io.stderr).toContain(
      'note: dist/chart/values.yaml: added manager.image.digest, manager.extraVolumes, ' +
        'manager.extraVolumeMounts, manager.podDisruptionBudget, serviceAccount.annotations (your ' +
        'other values are kept)\n',
    );
    const merged = read(dir, 'dist/chart/values.yaml');
    expect(merged).toContain('replicas: 2 # ours');
    expect(merged).toContain('# Leader election');
    expect(merged).toMatch(/^ {2}podDisruptionBudget:\n {4}enabled: false\n {4}minAvailable: 1\n/m);
    expect(merged).toMatch(/^serviceAccount:\n(^ {2}.*\n)* {2}annotations: \{\}\n/m);
  });

  it('reads an image digest from the kustomize output into manager.image.digest; a project watching every namespace gets rbac.namespaced', async () => {
    const dir = await shop();
    const digest = 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
    writeFileSync(
      join(dir, 'install.yaml'),
      SHOP_INSTALL.replace('image: registry.example.com/shop:0.4.0', `image: registry.example.com:5000/shop@${digest}`),
    );
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml' }, captured());
    const values = read(dir, 'dist/chart/values.yaml');
    expect(values).toContain(
      `  image:\n    repository: registry.example.com:5000/shop\n    tag: ""\n    digest: ${digest}\n`,
    );
    expect(values).toContain('rbac:\n  helpers:\n    enabled: false\n  namespaced: false\n');
    const binding = read(dir, 'dist/chart/templates/rbac/manager-rolebinding.yaml');
    expect(binding).toContain(
      '{{- if not .Values.rbac.namespaced }}\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n',
    );
    expect(binding).toContain(
      '{{- if .Values.rbac.namespaced }}\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n',
    );
    expect(read(dir, 'dist/chart/templates/manager/pod-disruption-budget.yaml')).toContain('kind: PodDisruptionBudget');
  });

  it("rbac.namespaced splits the manager's rules: namespaced resources into the Role, cluster-scoped ones and URLs stay in a ClusterRole", () => {
    const rules = [
      { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get'] },
      { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get'] },
      { apiGroups: ['toys.example.com'], resources: ['gizmos', 'gizmos/status'], verbs: ['get', 'update'] },
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
    ];
    expect(splitRules(rules, builtinClusterScoped)).toEqual({
      namespaced: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: ['toys.example.com'], resources: ['gizmos', 'gizmos/status'], verbs: ['get', 'update'] },
      ],
      cluster: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get'] },
        { nonResourceURLs: ['/metrics'], verbs: ['get'] },
      ],
    });
  });

  it('--output-dir puts the chart in <dir>/chart and PROJECT records it', async () => {
    const dir = await shop();
    await runEdit({ dir, plugins: 'helm/v2-alpha', manifests: 'install.yaml', outputDir: 'charts' }, captured());
    expect(read(dir, 'charts/chart/Chart.yaml')).toContain('name: shop\n');
    expect(read(dir, 'PROJECT')).toContain('    output: charts\n');
  });

  it.each([
    [{ plugins: 'helm/v3' }, "--plugins: 'helm/v3' is not a plugin of tsop edit; the one there is: 'helm/v2-alpha'"],
    [
      { plugins: 'helm/v2-alpha', namespaced: true },
      "edit: --plugins helm/v2-alpha builds the chart from config/ on disk; run 'tsop edit' with --multigroup, --namespaced, --license or --owner first, then 'tsop edit --plugins helm/v2-alpha'",
    ],
    [{ manifests: 'install.yaml' }, '--manifests belongs to the Helm plugin; add --plugins helm/v2-alpha to use it'],
    [
      { plugins: 'helm/v2-alpha', manifests: 'missing.yaml' },
      "--manifests: missing.yaml not found; create it with 'npm run build-installer' or name another file",
    ],
    [
      { plugins: 'helm/v2-alpha', manifests: 'install.yaml', outputDir: '../elsewhere' },
      "--output-dir: '../elsewhere' is outside the project; name a path inside it (e.g. dist)",
    ],
  ])('rejects %o with one line, writing nothing', async (flags, expected) => {
    const dir = await shop();
    const before = readTree(dir);
    await expect(runEdit({ dir, ...flags }, captured())).rejects.toThrow(expected);
    expect(readTree(dir)).toEqual(before);
  });
});
