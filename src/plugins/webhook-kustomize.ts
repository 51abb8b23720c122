/**
 * Turns webhooks on in the kustomize layers, as kubebuilder's `create webhook` does by
 * uncommenting its [WEBHOOK] and [CERTMANAGER] sections: config/default gets ../webhook and
 * ../certmanager, the manager webhook patch, and the replacements that fill the Certificate's DNS
 * names and cert-manager's CA-injection annotations (one block per configuration that exists, one
 * per CRD with a conversion webhook); config/crd gets the conversion patch of the CRD, and
 * config/network-policy the webhook's NetworkPolicy (still off until enabled there). Text edits,
 * each done once, so comments and the user's own entries stay as they are.
 */
import type { Tree } from '../scaffold/tree.js';

export interface KustomizeWebhooks {
  defaulting: boolean;
  validation: boolean;
  /** A CRD whose conversion goes through the webhook: its name and its patch (relative to config/crd). */
  crd: { name: string; patch: string } | undefined;
}

const DEFAULT = 'config/default/kustomization.yaml';
const CRD = 'config/crd/kustomization.yaml';
const NETWORK_POLICY = 'config/network-policy/kustomization.yaml';
const REPLACEMENTS_MARKER = '# +tsop:scaffold:webhook-replacements';
const CRD_PATCH_MARKER = '+kubebuilder:scaffold:crdkustomizewebhookpatch';

export function enableWebhookKustomize(tree: Tree, w: KustomizeWebhooks): void {
  let text = tree.read(DEFAULT);
  if (text === undefined) {
    tree.overwrite(DEFAULT, ''); // records the missing-file problem
    return;
  }
  text = addToList(text, 'resources', ['- ../webhook', '- ../certmanager'], '- ../manager');
  text = addToList(text, 'patches', ['# Mount the webhook serving certificate and open the webhook port.', '- path: manager_webhook_patch.yaml', '  target:', '    kind: Deployment']);
  if (!text.includes(REPLACEMENTS_MARKER)) {
    text = `${text.replace(/\n*$/, '\n')}\n# [CERTMANAGER] The webhook Service's name and namespace become the Certificate's DNS names, and the\n# Certificate's namespace/name the cert-manager.io/inject-ca-from annotation of what calls the webhooks.\nreplacements:\n${serviceToCertificate()}${REPLACEMENTS_MARKER}\n`;
  }
  const blocks: Array<[string, string]> = [];
  if (w.validation) blocks.push(['ValidatingWebhookConfiguration', '    kind: ValidatingWebhookConfiguration']);
  if (w.defaulting) blocks.push(['MutatingWebhookConfiguration', '    kind: MutatingWebhookConfiguration']);
  if (w.crd) blocks.push([`CustomResourceDefinition ${w.crd.name}`, `    kind: CustomResourceDefinition\n    name: ${w.crd.name}`]);
  for (const [what, select] of blocks) {
    const tag = `# CA injection: ${what}`;
    if (text.includes(tag)) continue;
    text = text.replace(REPLACEMENTS_MARKER, `${tag}\n${caInjection(select)}${REPLACEMENTS_MARKER}`);
  }
  tree.overwrite(DEFAULT, text);

  const policies = tree.read(NETWORK_POLICY);
  if (policies !== undefined && !policies.includes('- allow-webhook-traffic.yaml')) tree.overwrite(NETWORK_POLICY, addToList(policies, 'resources', ['- allow-webhook-traffic.yaml']));

  if (w.crd) {
    tree.insert(CRD, CRD_PATCH_MARKER, `- path: ${w.crd.patch}`);
    const crd = tree.read(CRD);
    if (crd !== undefined && !/^configurations:/m.test(crd)) {
      tree.overwrite(CRD, `${crd.replace(/\n*$/, '\n')}\n# Teaches kustomize that the conversion webhook's Service name is a reference (name prefix).\nconfigurations:\n- kustomizeconfig.yaml\n`);
    }
  }
}

/**
 * Adds `lines` to the top-level list `key` once (known by its first `- ` line): after the item
 * `after` if given and present, else at the end of the list; a missing key is added at the end.
 */
function addToList(text: string, key: string, lines: string[], after?: string): string {
  const first = lines.find((l) => l.startsWith('- '))!;
  const all = text.split('\n');
  const start = all.findIndex((l) => l === `${key}:`);
  if (start < 0) return `${text.replace(/\n*$/, '\n')}\n${key}:\n${lines.join('\n')}\n`;
  let end = start + 1;
  while (end < all.length && (all[end] === '' || /^[\s#-]/.test(all[end]!))) end++;
  // Trailing blank and comment lines belong to what follows.
  while (end > start + 1 && (all[end - 1] === '' || all[end - 1]!.startsWith('#'))) end--;
  const block = all.slice(start + 1, end);
  if (block.some((l) => l === first)) return text;
  const at = after === undefined ? -1 : block.findIndex((l) => l === after);
  all.splice(at >= 0 ? start + 1 + at + 1 : end, 0, ...lines);
  return all.join('\n');
}

function serviceToCertificate(): string {
  return [0, 1]
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
    .join('');
}

function caInjection(select: string): string {
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
${select.replace(/^ {4}/gm, '      ')}
    fieldPaths:
    - .metadata.annotations.[cert-manager.io/inject-ca-from]
    options:
      delimiter: '/'
      index: ${index}
      create: true
`,
    )
    .join('');
}
