/**
 * The TypeScript `import` writes, as plain data: files of classes (or interfaces), type aliases
 * and the kind's typed constant, each with its doc comment, decorators and what it could not
 * express. Built from a CRD by type-writer.ts, turned into text by render.ts.
 */
import type { KnownTypeName } from '../codegen/model.js';
import type { JSONValue } from '../codegen/jsonschema.js';

export type Scalar = string | number | boolean;

/** A tsop marker decorator: `@Name(...args)`, by the name runtime/markers exports it under. */
export interface Decorator {
  name: string;
  args: JSONValue[];
}

export type TsType =
  | { kind: 'primitive'; name: 'string' | 'number' | 'boolean' }
  | { kind: 'known'; name: KnownTypeName }
  /** A @kubernetes/client-node model (V1Container, V1LabelSelector, …). */
  | { kind: 'core'; name: string }
  /** A class or alias of the same file. */
  | { kind: 'named'; name: string }
  | { kind: 'array'; items: TsType }
  | { kind: 'map'; values: TsType }
  | { kind: 'literals'; values: Scalar[] }
  | { kind: 'nullable'; type: TsType };

/**
 * Something of the CRD the TypeScript cannot say: `path` is the JSON path in the version's schema
 * (`.spec.rules[*].name`, '' for the root) or, for CRD settings, `crd`.
 */
export interface Loss {
  version: string;
  path: string;
  what: string;
}

export interface TsField {
  name: string;
  /** Its JSON path in the version's schema. */
  path: string;
  type: TsType;
  optional: boolean;
  doc?: string;
  decorators: Decorator[];
  losses: Loss[];
}

export interface TsClass {
  kind: 'class';
  name: string;
  /** The JSON path of the first place it stands ('' for the kind). */
  path: string;
  doc?: string;
  decorators: Decorator[];
  fields: TsField[];
  losses: Loss[];
  /** The kind's class declared under another name and exported as the kind (`Object`: see kindClassName). */
  exportedAs?: string;
}

export interface TsAlias {
  kind: 'alias';
  name: string;
  doc?: string;
  /** JSDoc validation tags (`@maxLength 63`) the reader turns into markers. */
  tags: Array<{ tag: string; value: string | number }>;
  type: TsType;
  losses: Loss[];
}

/** `export const certificateKind: Kind<Certificate> = { group, version, kind: 'Certificate' }`. */
export interface TsKindConst {
  kind: 'kindConst';
  name: string;
  typeName: string;
  kindName: string;
  /** Literal group and version (external types), or undefined to take them from `groupVersion`. */
  groupVersion?: { group: string; version: string };
}

export type Declaration = TsClass | TsAlias | TsKindConst;

export interface TsFile {
  path: string;
  /** `decorated`: classes with tsop's markers (an API of the project); `plain`: interfaces only (external types). */
  style: 'decorated' | 'plain';
  /** The file's opening doc comment. */
  about: string;
  /** The embedded runtime's directory, relative to the file (`../../runtime`). */
  runtimeDir: string;
  declarations: Declaration[];
  /**
   * Where one type stands in several places: [a later path, the first path]. A loss inside the
   * type is recorded once, at the first path, and holds for the others too.
   */
  sharedPaths: Array<[string, string]>;
}
