/** Types of go-markers.mjs (default markers read from Go API source by the generator script). */

export interface GoStruct {
  /** JSON names of fields whose doc comment has a `+default=` or `+kubebuilder:default=` marker. */
  defaults: Set<string>;
  /** Same-package structs embedded with `json:",inline"`. */
  embeds: string[];
}

export declare function hasDefaultMarker(commentLines: readonly string[]): boolean;
export declare function scanGoStructs(fileTexts: readonly string[]): Map<string, GoStruct>;
export declare function structHasDefault(
  structs: Map<string, GoStruct>,
  name: string,
  field: string,
  seen?: Set<string>,
): boolean;
export declare function goPackageOf(definition: string): { importPath: string; type: string } | undefined;
