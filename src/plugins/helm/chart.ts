/**
 * What `edit --plugins helm/v2-alpha` writes (plugin.ts is its catalog entry): a Helm chart in
 * `<output-dir>/chart/` built from the project's kustomize output, so whatever config/ installs,
 * the chart installs — with values for what operators tune per cluster.
 *
 * Who owns what, as kubebuilder decides: Chart.yaml is the user's from the start (its version is
 * theirs to raise) and is never rewritten; values.yaml, .helmignore, _helpers.tpl, NOTES.txt,
 * the network policies and .github/workflows/test-chart.yml are the user's once written (kept, unless --force; values.yaml gets the
 * sections a new feature needs appended); every other template mirrors config/ and is written
 * afresh each run. PROJECT records the plugin with its manifests file and output directory; the
 * first run adds `npm run helm-deploy` / `helm-uninstall` / `helm-status` to package.json.
 */
import type { ProjectConfig } from '../../project/config.js';
import { renderTemplate } from '../../scaffold/render.js';
import type { Tree } from '../../scaffold/tree.js';
import { clusterScopedIn } from '../../project/cluster-scope.js';
import { addMissingScripts } from '../../scaffold/package-scripts.js';
import { parseManifests } from './manifests.js';
import { objectTemplates } from './objects.js';
import { GENERATED_HEADER } from './template.js';
import { mergeValues, renderValues, valueSections } from './values.js';

export const HELM_PLUGIN = 'helm/v2-alpha';
/** Where PROJECT records the plugin's settings (tsop's domain, as deploy-image's). */
export const HELM_PROJECT_KEY = 'helm.typescript.tsop.dev/v2-alpha';
export const DEFAULT_MANIFESTS = 'dist/install.yaml';
export const DEFAULT_OUTPUT_DIR = 'dist';

export interface HelmOptions {
  /** The kustomize output (a multi-document YAML). */
  manifests: string;
  /** Where it was read from, recorded in PROJECT and used in messages. */
  manifestsFile: string;
  outputDir: string;
  force: boolean;
}

export function scaffoldHelm(
  tree: Tree,
  config: ProjectConfig,
  o: HelmOptions,
): { config: ProjectConfig; notes: string[] } {
  const parsed = parseManifests(o.manifests, o.manifestsFile, config.projectName);
  const { layout, features } = parsed;
  const chartDir = `${o.outputDir.replace(/\/+$/, '')}/chart`;
  const notes = parsed.skipped.map((s) => `not in the chart: ${s}`);
  const fill = (text: string): string => text.replaceAll('__chart__', layout.chart);

  // Chart.yaml: written once; its versions are the user's from then on.
  const chartFile = `${chartDir}/Chart.yaml`;
  if (!tree.exists(chartFile)) {
    const appVersion = projectVersion(tree.read('package.json'));
    tree.create(
      chartFile,
      renderTemplate('helm/Chart.yaml.hbs', { chart: layout.chart, version: '0.1.0', appVersion }),
    );
  }
  const userOwned = (path: string, content: string): void => {
    if (o.force || !tree.exists(path)) tree.create(path, content, { force: true });
  };
  const namespacedRbac = config.namespaced === true;
  const sections = valueSections(parsed.manager, features, namespacedRbac);
  const templatesDir = `${chartDir}/templates`;
  const valuesFile = `${chartDir}/values.yaml`;
  const current = tree.read(valuesFile);
  if (o.force || current === undefined) {
    tree.create(valuesFile, renderValues(sections), { force: true });
  } else {
    const merged = mergeValues(current, sections, valuesFile);
    if (merged.added.length > 0) {
      tree.overwrite(valuesFile, merged.text);
      notes.push(`${valuesFile}: added ${merged.added.join(', ')} (your other values are kept)`);
    }
  }
  userOwned(`${chartDir}/.helmignore`, renderTemplate('helm/helmignore', {}));
  // A CI check that the chart is current, lints and renders (kubebuilder writes one too).
  userOwned(
    '.github/workflows/test-chart.yml',
    fill(
      renderTemplate('helm/github/test-chart.yml', {})
        .replaceAll('__chartdir__', chartDir)
        .replaceAll('__namespace__', layout.namespace),
    ),
  );
  userOwned(`${chartDir}/templates/_helpers.tpl`, fill(renderTemplate('helm/templates/_helpers.tpl', {})));
  userOwned(`${chartDir}/templates/NOTES.txt`, renderTemplate('helm/templates/NOTES.txt', {}));

  // A cluster-wide project's chart can install it namespaced (rbac.namespaced): its rules split by scope.
  const generated = objectTemplates(
    parsed.objects,
    layout,
    features,
    namespacedRbac ? undefined : clusterScopedIn(config),
  );
  const paths = new Set(generated.map((f) => f.path));
  // Defaults for what config/ may leave out (kubebuilder adds the same two).
  if (!features.networkPolicy) {
    userOwned(
      `${chartDir}/templates/network-policy/allow-metrics-traffic.yaml`,
      fill(renderTemplate('helm/templates/network-policy/allow-metrics-traffic.yaml', {})),
    );
    if (features.webhooks)
      userOwned(
        `${chartDir}/templates/network-policy/allow-webhook-traffic.yaml`,
        fill(renderTemplate('helm/templates/network-policy/allow-webhook-traffic.yaml', {})),
      );
  }
  if (!features.prometheus && features.metrics && !paths.has('prometheus/monitor.yaml')) {
    generated.push({
      path: 'prometheus/monitor.yaml',
      content: GENERATED_HEADER + fill(renderTemplate('helm/templates/prometheus/monitor.yaml', {})),
    });
  }
  for (const file of generated) tree.create(`${templatesDir}/${file.path}`, file.content, { force: true });
  // Templates an earlier run generated for what the project no longer has (cert-manager's, after a
  // switch to self-provisioned certificates; a kind's CRD after its removal) go; the user's stay.
  const written = new Set(generated.map((f) => `${templatesDir}/${f.path}`));
  for (const path of tree.list(templatesDir)) {
    if (!written.has(path) && tree.read(path)?.startsWith(GENERATED_HEADER)) tree.delete(path);
  }

  // The first run adds npm scripts for the chart, as kubebuilder adds Makefile targets.
  if (config.plugins[HELM_PROJECT_KEY] === undefined)
    addHelmScripts(tree, config.projectName, layout.namespace, chartDir);

  const next: ProjectConfig = {
    ...config,
    plugins: { ...config.plugins, [HELM_PROJECT_KEY]: { manifests: o.manifestsFile, output: o.outputDir } },
  };
  return { config: next, notes };
}

/** helm-deploy (IMG sets the image; HELM_EXTRA_ARGS passes more flags), helm-uninstall, helm-status; existing scripts stay. */
function addHelmScripts(tree: Tree, release: string, namespace: string, chartDir: string): void {
  const ns = `--namespace ${namespace}`;
  addMissingScripts(tree, {
    // The whole reference (a tag, a digest or neither) as the repository: the chart uses it as it is.
    'helm-deploy': `helm upgrade --install ${release} ${chartDir} ${ns} --create-namespace --wait --timeout 5m \${IMG:+--set manager.image.repository=$IMG} \${HELM_EXTRA_ARGS:-}`,
    'helm-uninstall': `helm uninstall ${release} ${ns}`,
    'helm-status': `helm status ${release} ${ns}`,
  });
}

function projectVersion(pkg: string | undefined): string {
  try {
    const v = (JSON.parse(pkg ?? '{}') as { version?: unknown }).version;
    return typeof v === 'string' && v !== '' ? v : '0.1.0';
  } catch {
    return '0.1.0';
  }
}
