/**
 * Turns webhooks on in the kustomize layers, as kubebuilder's `create webhook` does by
 * uncommenting its [WEBHOOK] and [CERTMANAGER] sections. config/default gets ../webhook, and two
 * ways to get the serving certificate, chosen by which entries are commented out:
 * - [CERTMANAGER] (on): ../certmanager, the manager patch that mounts cert-manager's Secret, and
 *   certmanager_replacements.yaml (the Certificate's DNS names, cert-manager's CA-injection
 *   annotations);
 * - [SELF-PROVISION] (off): ../self-provision (RBAC), the manager patch that passes
 *   --webhook-self-provision and the names it needs, and self_provision_replacements.yaml (those
 *   names after namePrefix, into the flags and the ClusterRole's resourceNames).
 * Each webhook configuration and conversion CRD is added to both once; config/webhook lists
 * manifests.yaml once there is an admission webhook. config/crd gets the CRD's
 * conversion patch, config/network-policy the webhook's NetworkPolicy. Text edits, each done
 * once, so comments and the user's own entries stay as they are.
 */
import type { Tree } from '../../scaffold/tree.js';

export interface KustomizeWebhooks {
  /** For the app.kubernetes.io/name label. */
  projectName: string;
  defaulting: boolean;
  validation: boolean;
  /** A CRD whose conversion goes through the webhook: its name and its patch (relative to config/crd). */
  crd: { name: string; patch: string } | undefined;
}

const DEFAULT = 'config/default/kustomization.yaml';
const CM_REPLACEMENTS = 'config/default/certmanager_replacements.yaml';
const SP_REPLACEMENTS = 'config/default/self_provision_replacements.yaml';
const SP_PATCH = 'config/default/manager_webhook_self_provision_patch.yaml';
const SP_CLUSTER_ROLE = 'config/self-provision/cluster_role.yaml';
const CRD = 'config/crd/kustomization.yaml';
const NETWORK_POLICY = 'config/network-policy/kustomization.yaml';
const WEBHOOK = 'config/webhook/kustomization.yaml';
const CRD_PATCH_MARKER = '+kubebuilder:scaffold:crdkustomizewebhookpatch';

/** Something whose caBundle must hold the CA: a webhook configuration or a conversion CRD. */
interface CaTarget {
  /** Tag of its entries, e.g. 'MutatingWebhookConfiguration'. */
  what: string;
  kind: string;
  group: string;
  resource: string;
  /** Its name before namePrefix (CRDs keep theirs). */
  name: string;
  /** The manager flag that names it with --webhook-self-provision. */
  flag: string;
  prefixed: boolean;
}

export function enableWebhookKustomize(tree: Tree, w: KustomizeWebhooks): void {
  let text = tree.read(DEFAULT);
  if (text === undefined) {
    tree.overwrite(DEFAULT, ''); // records the missing-file problem
    return;
  }
  text = addToList(
    text,
    'resources',
    [
      '- ../webhook',
      '# [CERTMANAGER] cert-manager issues the webhook certificate. To serve webhooks without cert-manager,',
      '# comment out the [CERTMANAGER] entries (here, in patches and in replacements) and uncomment the',
      '# [SELF-PROVISION] ones: the manager then makes and renews its own CA and certificate',
      '# (--webhook-self-provision) and writes the CA into its webhook configurations and CRDs.',
      '- ../certmanager',
      '# [SELF-PROVISION] RBAC for the manager: its certificate Secret, the caBundle of its webhook',
      '# configurations and conversion CRDs (by name).',
      '#- ../self-provision',
    ],
    '- ../manager',
  );
  text = addToList(text, 'patches', [
    '# [CERTMANAGER] Mount the webhook serving certificate and open the webhook port.',
    '- path: manager_webhook_patch.yaml',
    '  target:',
    '    kind: Deployment',
    '# [SELF-PROVISION] Pass --webhook-self-provision and the names it needs; open the webhook port.',
    '#- path: manager_webhook_self_provision_patch.yaml',
    '#  target:',
    '#    kind: Deployment',
  ]);
  text = addToList(text, 'replacements', [
    "# [CERTMANAGER] The Certificate's DNS names and the cert-manager.io/inject-ca-from annotations.",
    '- path: certmanager_replacements.yaml',
    "# [SELF-PROVISION] The Service's and webhook configurations' names, into the manager's flags and RBAC.",
    '#- path: self_provision_replacements.yaml',
  ]);
  tree.overwrite(DEFAULT, text);

  const targets: CaTarget[] = [];
  const config = (kind: string, flag: string): CaTarget => ({
    what: kind,
    kind,
    group: 'admissionregistration.k8s.io',
    resource: `${kind.toLowerCase()}s`,
    name: `${kind.startsWith('Mutating') ? 'mutating' : 'validating'}-webhook-configuration`,
    flag,
    prefixed: true,
  });
  if (w.validation) targets.push(config('ValidatingWebhookConfiguration', 'webhook-validating-configuration'));
  if (w.defaulting) targets.push(config('MutatingWebhookConfiguration', 'webhook-mutating-configuration'));
  if (w.crd) {
    const c = w.crd.name;
    targets.push({
      what: `CustomResourceDefinition ${c}`,
      kind: 'CustomResourceDefinition',
      group: 'apiextensions.k8s.io',
      resource: 'customresourcedefinitions',
      name: c,
      flag: 'webhook-conversion-crd',
      prefixed: false,
    });
  }
  appendOnce(
    tree,
    CM_REPLACEMENTS,
    CM_REPLACEMENTS_HEAD,
    targets.map((t) => [`# CA injection: ${t.what}`, caInjection(t)]),
  );
  appendOnce(
    tree,
    SP_REPLACEMENTS,
    SP_REPLACEMENTS_HEAD,
    targets.filter((t) => t.prefixed).map((t) => [`# Name of the ${t.what}`, nameIntoFlagAndRole(t)]),
  );
  appendOnce(
    tree,
    SP_PATCH,
    SP_PATCH_HEAD,
    targets.map((t) => [
      `# CA into ${t.what}`,
      `- op: add\n  path: /spec/template/spec/containers/0/args/-\n  value: --${t.flag}=${t.name}\n`,
    ]),
  );
  appendOnce(
    tree,
    SP_CLUSTER_ROLE,
    clusterRoleHead(w.projectName),
    targets.map((t) => [`# caBundle of ${t.what}`, roleRule(t)]),
  );

  // A project that had conversion webhooks only has no manifests.yaml listed yet.
  const webhookLayer = tree.read(WEBHOOK);
  if ((w.defaulting || w.validation) && webhookLayer !== undefined && !/^- manifests\.yaml$/m.test(webhookLayer)) {
    tree.overwrite(
      WEBHOOK,
      addToList(webhookLayer.replace(/^# manifests\.yaml \(the webhook[^\n]*\n# [^\n]*\n/m, ''), 'resources', [
        '- manifests.yaml',
      ]),
    );
  }

  const policies = tree.read(NETWORK_POLICY);
  if (policies !== undefined && !policies.includes('- allow-webhook-traffic.yaml'))
    tree.overwrite(NETWORK_POLICY, addToList(policies, 'resources', ['- allow-webhook-traffic.yaml']));

  if (w.crd) {
    tree.insert(CRD, CRD_PATCH_MARKER, `- path: ${w.crd.patch}`);
    const crd = tree.read(CRD);
    if (crd !== undefined && !/^configurations:/m.test(crd)) {
      tree.overwrite(
        CRD,
        `${crd.replace(/\n*$/, '\n')}\n# Teaches kustomize that the conversion webhook's Service name is a reference (name prefix).\nconfigurations:\n- kustomizeconfig.yaml\n`,
      );
    }
  }
}

/** Appends each [tag, block] to `path` unless the tag is there; a missing file starts as `head`. */
function appendOnce(tree: Tree, path: string, head: string, blocks: Array<[string, string]>): void {
  const current = tree.read(path);
  let text = current ?? head;
  for (const [tag, block] of blocks)
    if (!text.includes(`${tag}\n`)) text = `${text.replace(/\n*$/, '\n')}${tag}\n${block}`;
  if (current === undefined) tree.create(path, text);
  else tree.overwrite(path, text);
}

/**
 * Adds `lines` to the top-level list `key` once (known by its first `- ` line): after the item
 * `after` if given and present, else at the end of the list; a missing key is added at the end.
 */
function addToList(text: string, key: string, lines: string[], after?: string): string {
  const first = lines.find((l) => l.startsWith('- '))!;
  const all = text.split('\n');
  const start = all.indexOf(`${key}:`);
  if (start < 0) return `${text.replace(/\n*$/, '\n')}\n${key}:\n${lines.join('\n')}\n`;
  let end = start + 1;
  while (end < all.length && (all[end] === '' || /^[\s#-]/.test(all[end]!))) end++;
  // Trailing blank and comment lines belong to what follows.
  while (end > start + 1 && (all[end - 1] === '' || all[end - 1]!.startsWith('#'))) end--;
  const block = all.slice(start + 1, end);
  if (block.some((l) => l === first)) return text;
  const at = after === undefined ? -1 : block.indexOf(after);
  all.splice(at >= 0 ? start + 1 + at + 1 : end, 0, ...lines);
  return all.join('\n');
}

const CM_REPLACEMENTS_HEAD = `# [CERTMANAGER] kustomize replacements (config/default/kustomization.yaml): the webhook Service's
# name and namespace become the Certificate's DNS names, and the Certificate's namespace/name the
# cert-manager.io/inject-ca-from annotation of what calls the webhooks (cert-manager's CA injector
# then fills in their caBundle).
${[0, 1]
  .map(
    (index) => `- source:
    kind: Service
    version: v1
    name: webhook-service
    fieldPath: .metadata.${index === 0 ? 'name' : 'namespace'}
  targets:
  - select:
      kind: Certificate
      group: cert-manager.io
      version: v1
      name: serving-cert
    fieldPaths:
    - .spec.dnsNames.0
    - .spec.dnsNames.1
    options:
      delimiter: '.'
      index: ${index}
      create: true
`,
  )
  .join('')}`;

function caInjection(t: CaTarget): string {
  const select = t.prefixed ? `      kind: ${t.kind}\n` : `      kind: ${t.kind}\n      name: ${t.name}\n`;
  return [0, 1]
    .map(
      (index) => `- source:
    kind: Certificate
    group: cert-manager.io
    version: v1
    name: serving-cert
    fieldPath: .metadata.${index === 0 ? 'namespace' : 'name'}
  targets:
  - select:
${select}    fieldPaths:
    - .metadata.annotations.[cert-manager.io/inject-ca-from]
    options:
      delimiter: '/'
      index: ${index}
      create: true
`,
    )
    .join('');
}

const SP_REPLACEMENTS_HEAD = `# [SELF-PROVISION] kustomize replacements (config/default/kustomization.yaml): the names the
# manager's --webhook-* flags and its ClusterRole give before namePrefix become the rendered ones.
- source:
    kind: Service
    version: v1
    name: webhook-service
    fieldPath: .metadata.name
  targets:
  - select:
      kind: Deployment
      name: controller-manager
    fieldPaths:
    - .spec.template.spec.containers.[name=manager].args.[=--webhook-service-name=webhook-service]
    options:
      delimiter: '='
      index: 1
`;

function nameIntoFlagAndRole(t: CaTarget): string {
  return `- source:
    kind: ${t.kind}
    name: ${t.name}
    fieldPath: .metadata.name
  targets:
  - select:
      kind: Deployment
      name: controller-manager
    fieldPaths:
    - .spec.template.spec.containers.[name=manager].args.[=--${t.flag}=${t.name}]
    options:
      delimiter: '='
      index: 1
  - select:
      kind: ClusterRole
      name: webhook-ca-injection-role
    fieldPaths:
    - .rules.*.resourceNames.[=${t.name}]
`;
}

const SP_PATCH_HEAD = `# [SELF-PROVISION] The manager makes and renews its own webhook certificate, keeps it in the
# Secret webhook-server-cert of its namespace (shared by replicas) and writes the CA into the
# caBundle of the configurations and CRDs named below; no cert-manager needed. Names are the ones
# before namePrefix: self_provision_replacements.yaml fills in the rendered ones.
- op: add
  path: /spec/template/spec/containers/0/args/-
  value: --webhook-self-provision
- op: add
  path: /spec/template/spec/containers/0/args/-
  value: --webhook-service-name=webhook-service
- op: add
  path: /spec/template/spec/containers/0/ports/-
  value:
    containerPort: 9443
    name: webhook-server
    protocol: TCP
`;

const clusterRoleHead = (
  projectName: string,
): string => `# [SELF-PROVISION] Lets the manager write its CA into the caBundle of its own webhook
# configurations and conversion CRDs, by name (names before namePrefix; see
# config/default/self_provision_replacements.yaml).
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    app.kubernetes.io/name: ${projectName}
    app.kubernetes.io/managed-by: kustomize
  name: webhook-ca-injection-role
rules:
`;

function roleRule(t: CaTarget): string {
  return `- apiGroups:
  - ${t.group}
  resources:
  - ${t.resource}
  resourceNames:
  - ${t.name}
  verbs:
  - get
  - update
  - patch
`;
}
