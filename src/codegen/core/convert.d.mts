/** Types of convert.mjs (the OpenAPI v3 → CRD schema converter used by the generator script). */
import type { CoreSchema } from './types.js';

export declare const QUANTITY_PATTERN: string;
export declare const KNOWN_TYPES: Readonly<Record<string, CoreSchema>>;
export declare class ConvertError extends Error {}

/** Tells which properties of a definition carry a `+default` marker in the Go source. */
export interface DefaultMarkers {
  hasDefault(definition: string, property: string): boolean;
}

/** Where a node stands: inside which definition, as which property, or as items / map values. */
export interface NodeContext {
  definition: string;
  property?: string;
  isItem?: boolean;
  markers?: DefaultMarkers;
}

export declare function refName(ref: string): string;
export declare function convertNode(node: unknown, path?: string, ctx?: NodeContext): CoreSchema;
export declare function convertDefinition(name: string, raw: unknown, markers?: DefaultMarkers): CoreSchema;
export declare function refsOf(schema: unknown, into?: Set<string>): Set<string>;
export declare function collectReachable(
  roots: readonly string[],
  variants: (name: string) => unknown[],
  markers?: DefaultMarkers,
): Record<string, CoreSchema>;
export declare function clientNames(allNames: Iterable<string>): Map<string, string>;
export declare function sortKeysDeep<T>(value: T): T;
