/** Types of go-markers.mjs (what the generator script reads from Go API source). */

export interface GoField {
  /** The description controller-gen derives from the field's doc comment. */
  doc: string;
  /** A `+default=` (not `ref(...)`) or `+kubebuilder:default=` marker is present. */
  hasDefault: boolean;
  /** The named element type of a slice or map field (`Capability`, `metav1.Condition`). */
  element: string | undefined;
  /** Schema keywords set by `+kubebuilder:validation:` markers (maxLength, pattern, enum, …). */
  validations: Record<string, unknown>;
}

export interface GoEmbed {
  /** The package of the embedded struct; undefined for the same package. */
  importPath: string | undefined;
  type: string;
}

/** A named type: a struct, or another type (`type Capability string`) with only a doc. */
export interface GoStruct {
  doc: string;
  struct: boolean;
  /** `+structType=atomic` on the type. */
  atomic: boolean;
  /** JSON name → field. */
  fields: Map<string, GoField>;
  /** Structs embedded with `json:",inline"`. */
  embeds: GoEmbed[];
}

export declare function hasDefaultMarker(commentLines: readonly string[]): boolean;
export declare function validationMarkers(commentLines: readonly string[]): Record<string, unknown>;
export declare function docText(commentLines: readonly string[]): string;
export declare function scanGoStructs(fileTexts: readonly string[]): Map<string, GoStruct>;
/** Gives another package's types by import path (undefined when unknown). */
export type LoadPackage = (importPath: string) => Map<string, GoStruct> | undefined;

export declare function findField(
  types: Map<string, GoStruct>,
  name: string,
  field: string,
  load?: LoadPackage,
  seen?: Set<GoStruct>,
): GoField | undefined;
export declare function structHasDefault(
  types: Map<string, GoStruct>,
  name: string,
  field: string,
  load?: LoadPackage,
): boolean;
export declare function embedsAtomic(types: Map<string, GoStruct>, name: string, seen?: Set<string>): boolean;
export declare function elementDoc(
  types: Map<string, GoStruct>,
  name: string,
  field: string,
  load?: LoadPackage,
): string | undefined;
export declare function goPackageOf(definition: string): { importPath: string; type: string } | undefined;
