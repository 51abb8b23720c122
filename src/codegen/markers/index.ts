/**
 * The marker catalog: ONE list of every marker tsop understands. The schema builder, the CRD
 * settings, the RBAC collector and `tsop manifests --help` all read it; adding a marker means
 * adding its definition here (and its no-op decorator in runtime/markers).
 */
import type { MarkerDef } from './define.js';
import { FIELD_MARKERS } from './fields.js';
import { KIND_MARKERS } from './kind.js';
import { RBAC_MARKERS } from './rbac.js';
import { STRUCTURE_ITEMS_MARKERS, STRUCTURE_MARKERS } from './structure.js';
import { ITEMS_MARKERS, ITEM_MARKERS } from './validation.js';
import { WEBHOOK_MARKERS } from './webhook.js';
import { CSV_MARKERS } from './csv.js';

export type { MarkerDef, SchemaMarker, KindMarker, RbacMarker, WebhookMarker, ApplyContext } from './define.js';
export { emptyKindSettings, type KindSettings, type PrintColumn } from './kind-settings.js';

export const MARKERS: readonly MarkerDef[] = [...ITEM_MARKERS, ...FIELD_MARKERS, ...STRUCTURE_MARKERS, ...ITEMS_MARKERS, ...STRUCTURE_ITEMS_MARKERS, ...KIND_MARKERS, ...RBAC_MARKERS, ...WEBHOOK_MARKERS, ...CSV_MARKERS];

const BY_NAME = new Map(MARKERS.map((m) => [m.name, m]));

export function markerByName(name: string): MarkerDef | undefined {
  return BY_NAME.get(name);
}

/** The reference table for `tsop manifests --help`, generated from the catalog. */
export function markerHelp(): string {
  const sections: Array<[string, (m: MarkerDef) => boolean]> = [
    ['Kind markers (on a @Resource class)', (m) => m.target === 'kind' && !m.name.startsWith('Csv')],
    ['Field and type markers', (m) => m.target === 'schema' && !m.name.startsWith('Items') && !m.name.startsWith('Csv')],
    ['Array element markers', (m) => m.target === 'schema' && m.name.startsWith('Items')],
    ['Controller markers', (m) => m.target === 'controller'],
    ['Webhook markers (on a defaulter or validator class)', (m) => m.target === 'webhook'],
    ['ClusterServiceVersion markers (OLM bundles: tsop generate kustomize manifests)', (m) => m.name.startsWith('Csv')],
  ];
  const lines: string[] = [];
  for (const [title, pick] of sections) {
    lines.push('', `${title}:`);
    for (const m of MARKERS.filter(pick)) {
      lines.push(`  @${m.name}${m.args.usage}  [${m.controllerGen}]`, `      ${m.doc}`, `      e.g. ${m.example}`);
    }
  }
  lines.push(
    '',
    'Group-version options (in `export const groupVersion = { group, version, … }`, for the kinds of that directory):',
    "  fields: 'optional' | 'required'  [+kubebuilder:validation:Optional on the package]",
    "      'optional': fields are optional unless @Required(), even without '?'.",
    "      e.g. export const groupVersion = { group: 'batch.example.com', version: 'v1', fields: 'optional' };",
    '  skip: true  [+kubebuilder:skip on the package]',
    '      Generate nothing for the kinds under this directory.',
    "      e.g. export const groupVersion = { group: 'batch.example.com', version: 'v1', skip: true };",
  );
  return lines.join('\n');
}
