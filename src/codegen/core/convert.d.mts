/** Types of convert.mjs (the OpenAPI v3 → CRD schema converter used by the generator script). */
import type { CoreSchema } from './types.js';

export declare const QUANTITY_PATTERN: string;
export declare const KNOWN_TYPES: Readonly<Record<string, CoreSchema>>;
export declare class ConvertError extends Error {}

/** What the Go source says about definitions; every question is optional. */
export interface GoSourceFacts {
  /** Whether the property carries a `+default` marker (controller-gen emits only those). */
  hasDefault?(definition: string, property: string): boolean;
  /** The property's doc comment as controller-gen renders it (line breaks kept). */
  fieldDoc?(definition: string, property: string): string | undefined;
  /** Schema keywords from the property's `+kubebuilder:validation:` markers. */
  fieldValidations?(definition: string, property: string): Record<string, unknown> | undefined;
  /** The doc of the property's named element type (items of `[]Capability`), if any. */
  elementDoc?(definition: string, property: string): string | undefined;
  /** The type's doc comment as controller-gen renders it. */
  typeDoc?(definition: string): string | undefined;
  /** Whether the type embeds inline a struct marked `+structType=atomic`. */
  embedsAtomic?(definition: string): boolean;
}

/** Where a node stands in definition `definition`: the type, one of its properties, or deeper. */
export interface NodeContext {
  definition: string;
  at: 'type' | 'property' | 'nested';
  property?: string;
  facts?: GoSourceFacts;
}

export declare function refName(ref: string): string;
export declare function convertNode(node: unknown, path?: string, ctx?: NodeContext): CoreSchema;
export declare function convertDefinition(name: string, raw: unknown, facts?: GoSourceFacts): CoreSchema;
export declare function refsOf(schema: unknown, into?: Set<string>): Set<string>;
export declare function collectReachable(
  roots: readonly string[],
  variants: (name: string) => unknown[],
  facts?: GoSourceFacts,
): Record<string, CoreSchema>;
export declare function clientNames(allNames: Iterable<string>): Map<string, string>;
export declare function sortKeysDeep<T>(value: T): T;
