/**
 * The config/ files the OLM plugins add (operator-sdk's manifests/v2 and scorecard/v2 plugins):
 * config/manifests/kustomization.yaml, the kustomize overlay the bundle is built from, and
 * config/scorecard/, the scorecard configuration that `generate bundle` copies into the bundle.
 * They are the user's once written: created when missing, never overwritten.
 */
import type { Tree } from '../../scaffold/tree.js';

/** The scorecard test image the configuration names, so operator-sdk's own scorecard can run it too. */
const SCORECARD_IMAGE = 'quay.io/operator-framework/scorecard-test:v1.42.3';

/** The scorecard tests of the basic and olm suites, in operator-sdk's order. */
const SCORECARD_TESTS: ReadonlyArray<{ test: string; suite: 'basic' | 'olm' }> = [
  { test: 'basic-check-spec', suite: 'basic' },
  { test: 'olm-bundle-validation', suite: 'olm' },
  { test: 'olm-crds-have-validation', suite: 'olm' },
  { test: 'olm-crds-have-resources', suite: 'olm' },
  { test: 'olm-spec-descriptors', suite: 'olm' },
  { test: 'olm-status-descriptors', suite: 'olm' },
];

const CERT_PATCH = [
  '# OLM makes and mounts the webhook serving certificate itself (it does not run cert-manager),',
  "# so the manager's own certificate volume and its mount are taken out of the bundle. Update the",
  '# indices if you add containers, volume mounts or volumes to the manager Deployment.',
  'patches:',
  '- target:',
  '    group: apps',
  '    version: v1',
  '    kind: Deployment',
  '    name: controller-manager',
  '    namespace: system',
  '  patch: |-',
  '    - op: remove',
  '      path: /spec/template/spec/containers/0/volumeMounts/0',
  '    - op: remove',
  '      path: /spec/template/spec/volumes/0',
];
const COMMENTED_CERT_PATCH = [
  // Worded as in projects already made, so `create webhook` finds it there too.
  '# [WEBHOOK] With webhooks, uncomment the patch below (tsop writes it uncommented when the',
  '# project has webhooks at the time this file is made).',
  ...CERT_PATCH.map((l) => `#${l}`),
].join('\n');
const MANIFESTS_KUSTOMIZATION = 'config/manifests/kustomization.yaml';

export function manifestsKustomization(packageName: string, webhooks: boolean): string {
  const lines = [
    '# What the bundle is built from: the CSV base, the operator as config/default deploys it,',
    "# the samples (they become the CSV's alm-examples) and the scorecard configuration.",
    '# `tsop generate bundle` runs `kubectl kustomize` on this directory.',
    'resources:',
    `- bases/${packageName}.clusterserviceversion.yaml`,
    '- ../default',
    '- ../samples',
    '- ../scorecard',
  ];
  if (webhooks) return [...lines, '', ...CERT_PATCH, ''].join('\n');
  return [...lines, '', COMMENTED_CERT_PATCH, ''].join('\n');
}

/**
 * With the project's first webhook (`create webhook`), the patch above uncommented in
 * config/manifests/kustomization.yaml, so the bundle leaves the certificate to OLM. A file whose
 * patch is already on, or that the user rewrote, stays as it is.
 */
export function enableOlmCertPatch(tree: Tree): void {
  const text = tree.read(MANIFESTS_KUSTOMIZATION);
  if (text === undefined || !text.includes(COMMENTED_CERT_PATCH)) return;
  tree.overwrite(MANIFESTS_KUSTOMIZATION, text.replace(COMMENTED_CERT_PATCH, CERT_PATCH.join('\n')));
}

function scorecardPatch(suite: string, test: string): string {
  return [
    '- op: add',
    '  path: /stages/0/tests/-',
    '  value:',
    '    entrypoint:',
    '    - scorecard-test',
    `    - ${test}`,
    `    image: ${SCORECARD_IMAGE}`,
    '    labels:',
    `      suite: ${suite}`,
    `      test: ${test}-test`,
    '',
  ].join('\n');
}

const SCORECARD_FILES: Readonly<Record<string, string>> = {
  'config/scorecard/bases/config.yaml': [
    'apiVersion: scorecard.operatorframework.io/v1alpha3',
    'kind: Configuration',
    'metadata:',
    '  name: config',
    'stages:',
    '- parallel: true',
    '  tests: []',
    '',
  ].join('\n'),
  'config/scorecard/kustomization.yaml': [
    'resources:',
    '- bases/config.yaml',
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'patches:',
    ...['basic', 'olm'].flatMap((suite) => [
      `- path: patches/${suite}.config.yaml`,
      '  target:',
      '    group: scorecard.operatorframework.io',
      '    kind: Configuration',
      '    name: config',
      '    version: v1alpha3',
    ]),
    '# +kubebuilder:scaffold:patches',
    '',
  ].join('\n'),
  'config/scorecard/patches/basic.config.yaml': SCORECARD_TESTS.filter((t) => t.suite === 'basic')
    .map((t) => scorecardPatch(t.suite, t.test))
    .join(''),
  'config/scorecard/patches/olm.config.yaml': SCORECARD_TESTS.filter((t) => t.suite === 'olm')
    .map((t) => scorecardPatch(t.suite, t.test))
    .join(''),
};

/** Creates whichever of the OLM overlay files are missing; returns the paths it planned. */
export function scaffoldOlmConfig(
  tree: Tree,
  packageName: string,
  webhooks: boolean,
  parts: { manifests: boolean; scorecard: boolean },
): string[] {
  const planned: string[] = [];
  const create = (path: string, content: string): void => {
    if (tree.exists(path)) return;
    tree.create(path, content);
    planned.push(path);
  };
  if (parts.manifests) create('config/manifests/kustomization.yaml', manifestsKustomization(packageName, webhooks));
  if (parts.scorecard) for (const [path, content] of Object.entries(SCORECARD_FILES)) create(path, content);
  return planned;
}
