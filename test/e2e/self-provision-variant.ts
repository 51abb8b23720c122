/**
 * What a user does to serve webhooks without cert-manager: in config/default/kustomization.yaml,
 * comment out the [CERTMANAGER] entries and uncomment the [SELF-PROVISION] ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const SWITCHES: ReadonlyArray<readonly [from: string, to: string]> = [
  ['- ../certmanager\n', '#- ../certmanager\n'],
  ['#- ../self-provision\n', '- ../self-provision\n'],
  [
    '- path: manager_webhook_patch.yaml\n  target:\n    kind: Deployment\n',
    '#- path: manager_webhook_patch.yaml\n#  target:\n#    kind: Deployment\n',
  ],
  [
    '#- path: manager_webhook_self_provision_patch.yaml\n#  target:\n#    kind: Deployment\n',
    '- path: manager_webhook_self_provision_patch.yaml\n  target:\n    kind: Deployment\n',
  ],
  ['- path: certmanager_replacements.yaml\n', '#- path: certmanager_replacements.yaml\n'],
  ['#- path: self_provision_replacements.yaml\n', '- path: self_provision_replacements.yaml\n'],
];

/** Switches the kustomization at `file` to the [SELF-PROVISION] variant; throws when an entry is not where init put it. */
export function switchToSelfProvision(file: string): void {
  let text = readFileSync(file, 'utf8');
  for (const [from, to] of SWITCHES) {
    if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)} to switch`);
    text = text.replace(from, to);
  }
  writeFileSync(file, text);
}
