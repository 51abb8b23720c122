/**
 * `tsop generate bundle` as a plan: bundle/manifests (the CSV, the CRDs, Services and the other
 * objects OLM installs as they are), bundle/metadata/annotations.yaml, bundle.Dockerfile and
 * bundle/tests/scorecard/config.yaml, file names and layout as operator-sdk writes them. The
 * manifests folder is written whole: files a previous run left there and this one does not write
 * are removed, so a renamed object leaves no stale copy behind.
 */
import type { Tree } from '../scaffold/tree.js';
import { csvFileName, type Csv } from './csv.js';
import type { Collected } from './collector.js';
import { serviceAccountOf } from './collector.js';
import { groupVersionOf, nameOf, obj, str, type Obj } from './objects.js';
import { toYaml } from '../yaml/sorted-writer.js';

/** Kinds OLM's registry+v1 format installs from a bundle besides the CSV's own content. */
export const SUPPORTED_KINDS: ReadonlySet<string> = new Set([
  'ClusterServiceVersion',
  'CustomResourceDefinition',
  'Secret',
  'ClusterRole',
  'ClusterRoleBinding',
  'ConfigMap',
  'ServiceAccount',
  'Service',
  'Role',
  'RoleBinding',
  'PrometheusRule',
  'ServiceMonitor',
  'PodDisruptionBudget',
  'PriorityClass',
  'VerticalPodAutoscaler',
  'ConsoleYAMLSample',
  'ConsoleQuickStart',
  'ConsoleCLIDownload',
  'ConsoleLink',
  'ConsolePlugin',
  'NetworkPolicy',
]);

export interface BundleMetadata {
  packageName: string;
  channels: string;
  defaultChannel?: string;
  /** Extra labels (tsop's builder and layout), written sorted after the core ones. */
  labels: Record<string, string>;
  scorecard: boolean;
}

/** The objects copied into bundle/manifests as they are, each with its file name. */
export function manifestFiles(c: Collected): Array<{ file: string; object: Obj }> {
  const objects: Obj[] = [
    ...c.crds,
    ...c.services,
    ...c.others.filter((o) => SUPPORTED_KINDS.has(str(o['kind']))),
    ...rbacOutsideCsv(c),
  ];
  const out: Array<{ file: string; object: Obj }> = [];
  const seen = new Map<string, number>();
  for (const object of objects) {
    const copy = structuredClone(object);
    const meta = obj(copy['metadata']);
    delete meta['namespace'];
    copy['metadata'] = meta;
    let file = fileNameOf(copy);
    const n = seen.get(file) ?? 0;
    seen.set(file, n + 1);
    if (n > 0) file = file.replace(/\.yaml$/, `-${n}.yaml`);
    out.push({ file, object: copy });
  }
  return out;
}

function fileNameOf(o: Obj): string {
  const { group, version, kind } = groupVersionOf(o);
  if (kind === 'CustomResourceDefinition') {
    const spec = obj(o['spec']);
    const plural = str(obj(spec['names'])['plural']);
    if (str(spec['group']) !== '' && plural !== '') return `${str(spec['group'])}_${plural}.yaml`;
  }
  return group === ''
    ? `${nameOf(o)}_${version}_${kind.toLowerCase()}.yaml`
    : `${nameOf(o)}_${group}_${version}_${kind.toLowerCase()}.yaml`;
}

/**
 * RBAC the CSV does not absorb: roles bound to none of the Deployments' service accounts (such as
 * the admin, editor and viewer roles for users), and every binding. The ones bound to an operator
 * account become CSV permissions and are left out.
 */
function rbacOutsideCsv(c: Collected): Obj[] {
  const accounts = new Set(c.deployments.map(serviceAccountOf));
  const boundToOperator = (bindings: readonly Obj[], kind: string): Set<string> =>
    new Set(
      bindings
        .filter(
          (b) =>
            str(obj(b['roleRef'])['kind']) === kind &&
            ((b['subjects'] as Obj[] | undefined) ?? []).some(
              (s) => s['kind'] === 'ServiceAccount' && accounts.has(str(s['name'])),
            ),
        )
        .map((b) => str(obj(b['roleRef'])['name'])),
    );
  const roles = boundToOperator(c.roleBindings, 'Role');
  const clusterRoles = new Set([
    ...boundToOperator(c.roleBindings, 'ClusterRole'),
    ...boundToOperator(c.clusterRoleBindings, 'ClusterRole'),
  ]);
  // A binding only for operator accounts is absorbed into the CSV; one with other subjects stays.
  const otherSubjects = (b: Obj): boolean =>
    ((b['subjects'] as Obj[] | undefined) ?? []).some(
      (s) => !(s['kind'] === 'ServiceAccount' && accounts.has(str(s['name']))),
    );
  return [
    ...c.roles.filter((r) => !roles.has(nameOf(r))),
    ...c.clusterRoles.filter((r) => !clusterRoles.has(nameOf(r))),
    ...c.roleBindings.filter(otherSubjects),
    ...c.clusterRoleBindings.filter(otherSubjects),
    ...c.serviceAccounts.filter((sa) => !accounts.has(nameOf(sa))),
  ];
}

function annotationPairs(m: BundleMetadata): Array<[string, string]> {
  return [
    ['operators.operatorframework.io.bundle.mediatype.v1', 'registry+v1'],
    ['operators.operatorframework.io.bundle.manifests.v1', 'manifests/'],
    ['operators.operatorframework.io.bundle.metadata.v1', 'metadata/'],
    ['operators.operatorframework.io.bundle.package.v1', m.packageName],
    ['operators.operatorframework.io.bundle.channels.v1', m.channels],
    ...(m.defaultChannel
      ? [['operators.operatorframework.io.bundle.channel.default.v1', m.defaultChannel] as [string, string]]
      : []),
  ];
}

const SCORECARD_ANNOTATIONS: Array<[string, string]> = [
  ['operators.operatorframework.io.test.mediatype.v1', 'scorecard+v1'],
  ['operators.operatorframework.io.test.config.v1', 'tests/scorecard/'],
];

export function annotationsYaml(m: BundleMetadata): string {
  const pair = ([k, v]: [string, string]): string => `  ${k}: ${v}`;
  const extra = Object.entries(m.labels).sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = ['annotations:', '  # Core bundle annotations.', ...annotationPairs(m).map(pair), ...extra.map(pair)];
  if (m.scorecard) lines.push('', '  # Annotations for testing.', ...SCORECARD_ANNOTATIONS.map(pair));
  return `${lines.join('\n')}\n`;
}

export function bundleDockerfile(m: BundleMetadata, bundleDir: string): string {
  const label = ([k, v]: [string, string]): string => `LABEL ${k}=${v}`;
  const extra = Object.entries(m.labels).sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = ['FROM scratch', '', '# Core bundle labels.', ...annotationPairs(m).map(label), ...extra.map(label)];
  if (m.scorecard) lines.push('', '# Labels for testing.', ...SCORECARD_ANNOTATIONS.map(label));
  lines.push(
    '',
    '# Copy files to locations specified by labels.',
    `COPY ${bundleDir}/manifests /manifests/`,
    `COPY ${bundleDir}/metadata /metadata/`,
  );
  if (m.scorecard) lines.push(`COPY ${bundleDir}/tests/scorecard /tests/scorecard/`);
  return `${lines.join('\n')}\n`;
}

export interface BundlePlan {
  csv: Csv;
  collected: Collected;
  metadata: BundleMetadata;
  /** Bundle directory relative to the project (bundle). */
  outputDir: string;
  /** Files now in <outputDir>/manifests, to remove those this run does not write. */
  existingManifests: readonly string[];
}

/** Plans the bundle's files on the tree; returns the stale manifests to remove with them. */
export function planBundle(tree: Tree, plan: BundlePlan): string[] {
  const { outputDir: dir } = plan;
  const written: string[] = [];
  const put = (path: string, content: string): void => {
    if (tree.exists(path)) tree.overwrite(path, content);
    else tree.create(path, content);
    written.push(path);
  };
  put(`${dir}/manifests/${csvFileName(plan.metadata.packageName)}`, toYaml(plan.csv));
  for (const { file, object } of manifestFiles(plan.collected)) put(`${dir}/manifests/${file}`, toYaml(object));
  if (plan.collected.scorecardConfig)
    put(`${dir}/tests/scorecard/config.yaml`, toYaml(scorecardConfig(plan.collected.scorecardConfig)));
  put(`${dir}/metadata/annotations.yaml`, annotationsYaml(plan.metadata));
  put('bundle.Dockerfile', bundleDockerfile(plan.metadata, dir));
  const keep = new Set(written);
  return plan.existingManifests
    .map((name) => `${dir}/manifests/${name}`)
    .filter((path) => !keep.has(path) && /\.ya?ml$/.test(path));
}

/** The configuration as operator-sdk writes it: each test and the whole with an empty storage mount. */
export function scorecardConfig(config: Obj): Obj {
  const out = structuredClone(config);
  delete out['apiVersion'];
  delete out['kind'];
  const stages = ((out['stages'] as Obj[] | undefined) ?? []).map((stage) => ({
    ...stage,
    tests: ((stage['tests'] as Obj[] | undefined) ?? []).map((t) => ({ ...t, storage: { spec: { mountPath: {} } } })),
  }));
  return {
    apiVersion: str(config['apiVersion']),
    kind: str(config['kind']),
    metadata: obj(out['metadata']),
    stages,
    storage: { spec: { mountPath: {} } },
  };
}
