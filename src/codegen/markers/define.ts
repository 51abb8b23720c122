/**
 * What a marker definition is: data (name, controller-gen equivalent, where it may stand, argument
 * shape, doc, example) plus one small `apply`. Three families, by what `apply` changes: a schema
 * node, a kind's CRD settings, or the RBAC rule list.
 */
import type { JSONSchemaProps } from '../jsonschema.js';
import type { RbacRule, WebhookSet } from '../marker-outputs.js';
import type { ArgShape } from './args.js';
import type { KindSettings } from './kind-settings.js';

/** What a schema marker may know about the field it stands on. */
export interface ApplyContext {
  /** Present when the marker is on a field: whether the parent will list it as required. */
  field?: { required: boolean };
  /** Write controller-gen's text where tsop writes otherwise (ManifestOptions.controllerGenCompat). */
  controllerGenCompat?: boolean;
}

interface Common<T> {
  name: string;
  /** The controller-gen marker it mirrors. */
  controllerGen: string;
  args: ArgShape<T>;
  doc: string;
  example: string;
}

export interface SchemaMarker<T = unknown> extends Common<T> {
  target: 'schema';
  /** Where it may stand: on a field, on a class used as a type, or both. */
  on: 'field' | 'type' | 'both';
  /**
   * 0: replaces the schema's type (applied first); 1: the rest; 2 and up: needs the finished node
   * (the one-of rules take 2, 3, 4: controller-gen's order AtMostOneOf, ExactlyOneOf, AtLeastOneOf).
   */
  phase: 0 | 1 | 2 | 3 | 4;
  /** Changes one thing, or returns why it cannot. */
  apply(schema: JSONSchemaProps, value: T, ctx: ApplyContext): string | undefined;
}

export interface KindMarker<T = unknown> extends Common<T> {
  target: 'kind';
  apply(kind: KindSettings, value: T): string | undefined;
}

export interface RbacMarker<T = unknown> extends Common<T> {
  target: 'controller';
  apply(rules: RbacRule[], value: T): string | undefined;
}

/** On a defaulter or validator class: an admission webhook entry (`@Webhook`), or a configuration's name. */
export interface WebhookMarker<T = unknown> extends Common<T> {
  target: 'webhook';
  apply(set: WebhookSet, value: T): string | undefined;
}

export type MarkerDef = SchemaMarker<never> | KindMarker<never> | RbacMarker<never> | WebhookMarker<never>;

/** Helpers that keep each definition's `T` while the list holds them side by side. */
export const schemaMarker = <T>(
  def: Omit<SchemaMarker<T>, 'target' | 'phase' | 'on'> & Partial<Pick<SchemaMarker<T>, 'phase' | 'on'>>,
): MarkerDef => ({ target: 'schema', phase: 1, on: 'both', ...def }) as unknown as MarkerDef;
export const kindMarker = <T>(def: Omit<KindMarker<T>, 'target'>): MarkerDef =>
  ({ target: 'kind', ...def }) as unknown as MarkerDef;
export const webhookMarker = <T>(def: Omit<WebhookMarker<T>, 'target'>): MarkerDef =>
  ({ target: 'webhook', ...def }) as unknown as MarkerDef;
export const rbacMarker = <T>(def: Omit<RbacMarker<T>, 'target'>): MarkerDef =>
  ({ target: 'controller', ...def }) as unknown as MarkerDef;
