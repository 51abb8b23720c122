/**
 * The API model: what the reader found in a project, as plain serialisable data (no ts-morph
 * objects). The schema builder and the emitters work from this alone, so each stage can be tested
 * without the one before it.
 */
import type { JSONValue } from './jsonschema.js';

/** A place in user source; `file` is relative to the project root, `line` is 1-based. */
export interface SourcePos {
  file: string;
  line: number;
}

/** One decorator as written: its name and its literal arguments. */
export interface MarkerUse {
  name: string;
  args: JSONValue[];
  pos: SourcePos;
  /** Imported from tsop's markers module (runtime/markers), so it must be a marker the catalog knows. */
  fromMarkers?: boolean;
  /** Neither imported nor declared where it is used: taken by its name (tsc reports the missing import). */
  undeclared?: boolean;
  /** Written as a JSDoc tag (`@Minimum(1)`, `@minimum 1`) rather than a decorator. */
  jsdoc?: boolean;
  /** The type alias (`file#Name`) whose JSDoc carries it: each alias is one layer of a Go named type. */
  via?: string;
}

/** The Kubernetes scalar types the runtime's markers module exports (and a few aliases). */
export const KNOWN_TYPE_NAMES = [
  'int32',
  'int64',
  'Quantity',
  'IntOrString',
  'Time',
  'MicroTime',
  'Duration',
  'RawExtension',
  'JSONValue',
  'Condition',
  'ObjectMeta',
  'Bytes',
] as const;
export type KnownTypeName = (typeof KNOWN_TYPE_NAMES)[number];

const KNOWN_TYPES: ReadonlySet<string> = new Set(KNOWN_TYPE_NAMES);

export function isKnownTypeName(name: string): name is KnownTypeName {
  return KNOWN_TYPES.has(name);
}

/**
 * How a field's TypeScript type maps to a schema, before any marker is applied. `description` is
 * the doc of a type alias or enum the type came through (a field's own doc replaces it);
 * `markers` are the validations a type alias carries as JSDoc tags (`@pattern`, `@maxLength`, …).
 */
export type TypeRef = TypeRefKind & { description?: string; markers?: MarkerUse[] };

type TypeRefKind =
  | { kind: 'primitive'; name: 'string' | 'boolean' | 'number' }
  | { kind: 'known'; name: KnownTypeName }
  | { kind: 'core'; name: string }
  /** `minItems`/`maxItems`: a tuple's length (`[int32, int32]` holds exactly two). */
  | { kind: 'array'; items: TypeRef; minItems?: number; maxItems?: number }
  | { kind: 'map'; values: TypeRef }
  | { kind: 'enum'; type: 'string' | 'number' | 'boolean'; values: Array<string | number | boolean> }
  | { kind: 'named'; id: string; name: string }
  | { kind: 'object'; fields: FieldDef[] }
  | { kind: 'nullable'; type: TypeRef }
  | { kind: 'unsupported'; text: string; reason: string };

export interface FieldDef {
  /** The JSON name (the property name). */
  name: string;
  type: TypeRef;
  /** Declared with `?` (or `| undefined`), or in a group-version whose fields are optional by default. */
  optional: boolean;
  description?: string;
  markers: MarkerUse[];
  pos: SourcePos;
}

/** A class or interface declared in the user's API files. */
export interface TypeDef {
  /** `file#Name`, unique in the project. */
  id: string;
  name: string;
  description?: string;
  fields: FieldDef[];
  markers: MarkerUse[];
  /** The ids of the classes and interfaces it extends (their type-level markers apply to it too). */
  bases?: string[];
  /**
   * Core types it extends (`class MySpec extends V1PodSpec`, Go's inline `corev1.PodSpec`): their
   * fields come first, its own fields replace a core field of the same name.
   */
  coreBases?: string[];
  /**
   * The type its `toJSON()` returns (`toJSON(): string`, Go's encoding.TextMarshaler): what
   * JSON.stringify writes for it, so its schema, instead of its fields'.
   */
  serialisesAs?: TypeRef;
  pos: SourcePos;
}

/** A class decorated `@Resource(...)`: one version of one kind. */
export interface KindDef {
  group: string;
  version: string;
  kind: string;
  /** The TypeDef of the class itself. */
  typeId: string;
  markers: MarkerUse[];
  pos: SourcePos;
}

/** A class carrying `@Rbac(...)` markers. */
export interface ControllerDef {
  name: string;
  markers: MarkerUse[];
  pos: SourcePos;
}

/** A problem found while reading; reported as `file:line: message`. */
export interface Diagnostic {
  pos: SourcePos;
  message: string;
}

export interface ApiModel {
  kinds: KindDef[];
  types: Record<string, TypeDef>;
  controllers: ControllerDef[];
  /** Classes carrying `@Webhook(...)` markers (defaulters and validators); absent means none. */
  webhooks?: ControllerDef[];
  diagnostics: Diagnostic[];
  /** Things the reader could not honour but that do not stop generation (warnings); absent means none. */
  warnings?: Diagnostic[];
  /** Decorators on API types imported from other packages (not markers, whatever their name); absent means none. */
  foreignDecorators?: Array<{ name: string; specifier: string; pos: SourcePos }>;
  /**
   * Go markers written in comments (`// +kubebuilder:validation:Maximum=5`): tsop reads decorators,
   * so each becomes a warning naming the decorator to use. Absent means none.
   */
  commentMarkers?: CommentMarker[];
}

/** A `+marker` line in a comment of a source file, as written (`+kubebuilder:validation:Maximum=5`). */
export interface CommentMarker {
  text: string;
  pos: SourcePos;
}
