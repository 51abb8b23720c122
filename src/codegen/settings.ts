/**
 * Kind and controller markers through the catalog: a kind's markers → its CRD settings, the
 * controllers' `@Rbac` markers → RBAC rules. Schema markers are the schema builder's business.
 */
import type { RbacRule, WebhookSet } from './marker-outputs.js';
import {
  emptyKindSettings,
  markerByName,
  type KindMarker,
  type KindSettings,
  type RbacMarker,
  type WebhookMarker,
} from './markers/index.js';
import type { ControllerDef, Diagnostic, KindDef } from './model.js';

export function kindSettings(kind: KindDef, diagnostics: Diagnostic[]): KindSettings {
  const settings = emptyKindSettings();
  for (const use of kind.markers) {
    const def = markerByName(use.name);
    if (def?.target !== 'kind') continue;
    const d = def as unknown as KindMarker<unknown>;
    const parsed = d.args.parse(use.args);
    const err = parsed.ok ? d.apply(settings, parsed.value) : `@${use.name}${d.args.usage} ${parsed.error}`;
    if (err) diagnostics.push({ pos: use.pos, message: `${kind.kind}: ${err}` });
  }
  return settings;
}

export function rbacRules(controllers: ControllerDef[], diagnostics: Diagnostic[]): RbacRule[] {
  const rules: RbacRule[] = [];
  for (const c of controllers) {
    for (const use of c.markers) {
      const def = markerByName(use.name);
      if (def?.target !== 'controller') continue;
      const d = def as unknown as RbacMarker<unknown>;
      const parsed = d.args.parse(use.args);
      const err = parsed.ok ? d.apply(rules, parsed.value) : `@${use.name}${d.args.usage} ${parsed.error}`;
      if (err) diagnostics.push({ pos: use.pos, message: `${c.name}: ${err}` });
    }
  }
  return rules;
}

/** The webhook markers of the webhook classes → checked entries and names for config/webhook/manifests.yaml. */
export function webhookSet(classes: ControllerDef[], diagnostics: Diagnostic[]): WebhookSet {
  const set: WebhookSet = { entries: [], configurations: [] };
  for (const c of classes) {
    for (const use of c.markers) {
      const def = markerByName(use.name);
      if (def?.target !== 'webhook') continue;
      const d = def as unknown as WebhookMarker<unknown>;
      const parsed = d.args.parse(use.args);
      const before = { entries: set.entries.length, configurations: set.configurations.length };
      const err = parsed.ok ? d.apply(set, parsed.value) : `@${use.name}${d.args.usage} ${parsed.error}`;
      if (err) diagnostics.push({ pos: use.pos, message: `${c.name}: ${err}` });
      const source = `${use.pos.file}:${use.pos.line}`;
      for (const e of set.entries.slice(before.entries)) e.source = source;
      for (const n of set.configurations.slice(before.configurations)) n.source = source;
    }
  }
  return set;
}
