/**
 * `@Webhook` entries → config/webhook/manifests.yaml, as controller-gen's webhook generator writes
 * it: a MutatingWebhookConfiguration `mutating-webhook-configuration` and a
 * ValidatingWebhookConfiguration `validating-webhook-configuration` (each only when it has
 * webhooks; `@WebhookConfiguration` renames them), every webhook pointing at the Service
 * `webhook-service` in `system` (kustomize renames both) unless it names its own Service or a
 * `url`, webhooks sorted by name, keys sorted. Also checks `@Hub()`: one per kind.
 */
import type { Diagnostic, KindDef } from '../codegen/model.js';
import type { LabelSelector, WebhookConfigurationName, WebhookEntry, WebhookSet } from '../codegen/marker-outputs.js';

export type { LabelSelector, WebhookConfigurationName, WebhookEntry, WebhookSet };
import { toYamlDocument } from '../yaml/go-yaml-writer.js';

/** The names controller-gen gives the two configurations (kustomize and the scaffold refer to them). */
const DEFAULT_CONFIGURATION_NAMES = {
  mutating: 'mutating-webhook-configuration',
  validating: 'validating-webhook-configuration',
} as const;

export const WEBHOOK_MANIFESTS = 'webhook/manifests.yaml';

const defaultName = (mutating: boolean): string => DEFAULT_CONFIGURATION_NAMES[mutating ? 'mutating' : 'validating'];

/** The mutating or validating configuration's name: the first `@WebhookConfiguration`'s, or controller-gen's default. */
function configurationName(configurations: readonly WebhookConfigurationName[], mutating: boolean): string {
  return configurations.find((c) => c.mutating === mutating)?.name ?? defaultName(mutating);
}

/** Both configurations as one YAML file; undefined when there is no webhook (controller-gen writes none). */
export function renderWebhooks({ entries, configurations }: WebhookSet): string | undefined {
  if (entries.length === 0) return undefined;
  const docs: object[] = [];
  for (const mutating of [true, false]) {
    const mine = entries
      .filter((e) => e.mutating === mutating)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (mine.length === 0) continue;
    docs.push({
      apiVersion: ADMISSION_V1,
      kind: mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
      metadata: { name: configurationName(configurations, mutating) },
      webhooks: mine.map(toWebhook),
    });
  }
  return writeConfigurations(docs);
}

const ADMISSION_V1 = 'admissionregistration.k8s.io/v1';

function writeConfigurations(docs: readonly unknown[]): string {
  // go-yaml writes the core group as `""`; the shared writer says `''`.
  return docs
    .map(toYamlDocument)
    .join('')
    .replace(/^(\s*- )''$/gm, '$1""');
}

/**
 * Whether a config/webhook/manifests.yaml (its text and parsed objects) is the generator's own, so
 * it can go once no `@Webhook` is left: only admission configurations, either under controller-gen's
 * two names or — renamed by a `@WebhookConfiguration` since removed — each with webhooks and the
 * file exactly as the generator writes it. Anything else there is the user's and stays.
 */
export function isGeneratedWebhookManifest(text: string, objects: readonly unknown[]): boolean {
  if (objects.length === 0) return false;
  const configurations = objects.map((doc) => {
    const o = doc as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown }; webhooks?: unknown } | null;
    if (o === null || typeof o !== 'object' || o.apiVersion !== ADMISSION_V1) return undefined;
    const mutating =
      o.kind === 'MutatingWebhookConfiguration'
        ? true
        : o.kind === 'ValidatingWebhookConfiguration'
          ? false
          : undefined;
    return mutating === undefined
      ? undefined
      : { mutating, name: o.metadata?.name, hooks: Array.isArray(o.webhooks) ? o.webhooks.length : 0 };
  });
  if (configurations.some((c) => c === undefined)) return false;
  if (configurations.every((c) => c!.name === defaultName(c!.mutating))) return true;
  return configurations.every((c) => c!.hooks > 0) && writeConfigurations(objects) === text;
}

function toWebhook(e: WebhookEntry): Record<string, unknown> {
  return {
    admissionReviewVersions: e.admissionReviewVersions,
    clientConfig:
      e.url !== undefined
        ? { url: e.url }
        : {
            service: {
              name: e.service?.name ?? 'webhook-service',
              namespace: e.service?.namespace ?? 'system',
              path: e.path,
              port: e.service?.port,
            },
          },
    failurePolicy: e.failurePolicy,
    matchPolicy: e.matchPolicy,
    name: e.name,
    namespaceSelector: e.namespaceSelector,
    objectSelector: e.objectSelector,
    reinvocationPolicy: e.mutating ? e.reinvocationPolicy : undefined,
    rules: [
      {
        apiGroups: e.groups,
        apiVersions: e.versions,
        operations: e.verbs.map((v) => (v === '*' ? '*' : v.toUpperCase())),
        resources: e.resources,
      },
    ],
    sideEffects: e.sideEffects,
    timeoutSeconds: e.timeoutSeconds,
  };
}

/** Two webhooks with one name: the API server refuses the configuration, so say where. */
export function duplicateWebhookNames(
  entries: readonly WebhookEntry[],
): Array<{ entry: WebhookEntry; message: string }> {
  const seen = new Map<string, WebhookEntry>();
  const out: Array<{ entry: WebhookEntry; message: string }> = [];
  for (const e of entries) {
    const key = `${e.mutating ? 'm' : 'v'}/${e.name}`;
    const prev = seen.get(key);
    if (prev)
      out.push({
        entry: e,
        message: `@Webhook: name '${e.name}' is also used at ${prev.source ?? 'another @Webhook'}; webhook names must be unique in their configuration`,
      });
    else seen.set(key, e);
  }
  return out;
}

/** Two `@WebhookConfiguration` names for the same configuration: say where the other one is. */
export function conflictingConfigurationNames(
  configurations: readonly WebhookConfigurationName[],
): Array<{ at: WebhookConfigurationName; message: string }> {
  const first = new Map<boolean, WebhookConfigurationName>();
  const out: Array<{ at: WebhookConfigurationName; message: string }> = [];
  for (const c of configurations) {
    const prev = first.get(c.mutating);
    if (!prev) first.set(c.mutating, c);
    else if (prev.name !== c.name) {
      const which = c.mutating ? 'mutating' : 'validating';
      out.push({
        at: c,
        message:
          `@WebhookConfiguration: the ${which} configuration is named '${c.name}' here and ` +
          `'${prev.name}' at ${prev.source ?? 'another @WebhookConfiguration'}; there is one ` +
          `${which} configuration, keep one name`,
      });
    }
  }
  return out;
}

/** A configuration written under another name than controller-gen's default. */
export interface RenamedConfiguration {
  from: string;
  to: string;
  /** The `@WebhookConfiguration` that renamed it (file:line). */
  source: string;
}

/** The configurations manifests.yaml holds under a `@WebhookConfiguration` name (only those with webhooks). */
export function renamedConfigurations({ entries, configurations }: WebhookSet): RenamedConfiguration[] {
  const out: RenamedConfiguration[] = [];
  for (const mutating of [true, false]) {
    const named = configurations.find((c) => c.mutating === mutating);
    const from = defaultName(mutating);
    if (named && named.name !== from && entries.some((e) => e.mutating === mutating))
      out.push({ from, to: named.name, source: named.source ?? 'src' });
  }
  return out;
}

/** Versions of one kind marked `@Hub()` more than once: conversion needs exactly one hub. */
export function hubProblems(kinds: readonly KindDef[]): Diagnostic[] {
  const hubs = new Map<string, KindDef[]>();
  for (const k of kinds) {
    if (!k.markers.some((m) => m.name === 'Hub')) continue;
    const key = `${k.group}/${k.kind}`;
    hubs.set(key, [...(hubs.get(key) ?? []), k]);
  }
  const out: Diagnostic[] = [];
  for (const list of hubs.values()) {
    if (list.length < 2) continue;
    const [first, ...rest] = list;
    for (const k of rest)
      out.push({
        pos: k.pos,
        message: `${k.kind}: @Hub() is on ${first!.version} and ${k.version} of ${k.group}; keep it on one version (the hub others convert through)`,
      });
  }
  return out;
}
