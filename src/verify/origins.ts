/**
 * From what the API server names (a CRD schema path such as
 * `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].maximum`, or an
 * object's field path such as `spec.items[2].name`) back to the decorator that wrote that part of
 * the schema: the kind's field origins (codegen/schema.ts) give the field, and the field's, its
 * type alias's and its class's markers give the decorator.
 */
import { SchemaBuilder } from '../codegen/schema.js';
import type { ApiModel, FieldDef, KindDef, MarkerUse, SourcePos, TypeDef, TypeRef } from '../codegen/model.js';
import type { JSONValue } from '../codegen/jsonschema.js';

/** A place to report, and the decorator there when one was found. */
export interface Origin {
  pos: SourcePos;
  marker?: string;
}

/** What to look for on the field: a keyword's marker (`maximum` → @Maximum) or a CEL rule. */
export type Clue = { keyword: string } | { rule: string } | { ruleMessage: string };

export class SourceMap {
  private readonly origins = new Map<KindDef, Record<string, SourcePos>>();
  private readonly fields = new Map<string, FieldDef>();

  constructor(
    private readonly model: ApiModel,
    private readonly embeddedObjectMeta: boolean,
  ) {
    const visit = (fields: FieldDef[]): void => {
      for (const f of fields) {
        this.fields.set(key(f.pos), f);
        for (let t: TypeRef | undefined = f.type; t; t = inner(t)) if (t.kind === 'object') visit(t.fields);
      }
    };
    for (const def of Object.values(model.types)) visit(def.fields);
  }

  /** Where `path` (`.spec.items[*]`, '' for the object) of `kind` is declared, and the decorator `clue` names. */
  locate(kind: KindDef, path: string, clue?: Clue): Origin {
    const origins = this.originsOf(kind);
    // The deepest declared field on the path; `[*]` steps are the field's own items or values.
    let fieldPath = path;
    while (fieldPath !== '' && !(fieldPath in origins)) fieldPath = fieldPath.replace(/(\[\*\]|\.[^.[]*)$/, '');
    const pos = origins[fieldPath];
    const field = pos ? this.fields.get(key(pos)) : undefined;
    const depth = (path.slice(fieldPath.length).match(/\[\*\]/g) ?? []).length;
    const candidates = field ? this.markersOf(field, depth) : this.classMarkers(kind.typeId);
    const found = clue ? candidates.find((m) => matches(m, clue, depth)) : undefined;
    if (found) return { pos: found.pos, marker: found.name };
    return { pos: pos ?? kind.pos };
  }

  private originsOf(kind: KindDef): Record<string, SourcePos> {
    let o = this.origins.get(kind);
    if (!o) {
      // A private builder: its diagnostics were reported by the manifests stage already.
      o = new SchemaBuilder(this.model, [], [], { embeddedObjectMeta: this.embeddedObjectMeta }).kindSchema(
        kind,
      ).origins;
      this.origins.set(kind, o);
    }
    return o;
  }

  /** A field's markers, its type alias's, and the class markers of the type at `depth` items down. */
  private markersOf(field: FieldDef, depth: number): MarkerUse[] {
    const out = [...field.markers];
    let d = 0;
    for (let t: TypeRef | undefined = field.type; t; t = inner(t)) {
      if (d === depth) {
        out.push(...(t.markers ?? []));
        if (t.kind === 'named') out.push(...this.classMarkers(t.id));
      }
      if (t.kind === 'array' || t.kind === 'map') {
        if (d === depth) break;
        d++;
      }
    }
    return out;
  }

  /** A class's markers and those of the classes it extends. */
  private classMarkers(id: string, seen = new Set<string>()): MarkerUse[] {
    const def: TypeDef | undefined = this.model.types[id];
    if (!def || seen.has(id)) return [];
    seen.add(id);
    return [...def.markers, ...(def.bases ?? []).flatMap((b) => this.classMarkers(b, seen))];
  }
}

const key = (pos: SourcePos): string => `${pos.file}:${pos.line}`;

function inner(t: TypeRef): TypeRef | undefined {
  if (t.kind === 'array') return t.items;
  if (t.kind === 'map') return t.values;
  if (t.kind === 'nullable') return t.type;
  return undefined;
}

function matches(m: MarkerUse, clue: Clue, depth: number): boolean {
  const arg = m.args[0];
  const rule = isRecord(arg) ? arg : undefined;
  if ('rule' in clue) return rule?.['rule'] === clue.rule;
  if ('ruleMessage' in clue) {
    // The server prints `Invalid value: "object": <message>`, or `failed rule: <rule>` without one.
    const message = rule?.['message'];
    return (
      rule !== undefined &&
      ((typeof message === 'string' && message !== '' && clue.ruleMessage.endsWith(message)) ||
        clue.ruleMessage.includes(`failed rule: ${String(rule['rule'])}`))
    );
  }
  const name = clue.keyword.charAt(0).toUpperCase() + clue.keyword.slice(1);
  return m.name === (depth > 0 ? `Items${name}` : name) || m.name === name;
}

function isRecord(v: JSONValue | undefined): v is { [k: string]: JSONValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A CRD schema path as the server names it, split into the version, the JSON path and the keyword part. */
export interface SchemaPath {
  /** Index into spec.versions; undefined for spec.validation (every version has this schema). */
  version?: number;
  /** `.spec.items[*]` */
  path: string;
  /** What follows the node: `maximum`, `x-kubernetes-validations[0].rule`, or '' for the node itself. */
  rest: string;
}

export function parseSchemaPath(field: string): SchemaPath | undefined {
  const m = /^spec\.(?:versions\[(\d+)\]\.schema|validation)\.openAPIV3Schema(.*)$/.exec(field);
  if (!m) return undefined;
  let rest = m[2] ?? '';
  let path = '';
  for (;;) {
    const step = /^\.(?:properties\[([^\]]+)\]|(items|additionalProperties)(?=\.|$))/.exec(rest);
    if (!step) break;
    path += step[1] !== undefined ? `.${step[1]}` : '[*]';
    rest = rest.slice(step[0].length);
  }
  return { ...(m[1] === undefined ? {} : { version: Number(m[1]) }), path, rest: rest.replace(/^\./, '') };
}

/** An object's field path (`spec.items[2].name`, `spec.labels[a]`) → its schema path (`.spec.items[*].name`). */
export function objectPathToSchemaPath(field: string): string {
  if (field === '' || field === '<nil>') return '';
  return `.${field}`.replace(/\[[^\]]*\]/g, '[*]');
}

/** The value at a schema path of a CRD's version schema, following `.name` and `[*]` steps. */
export function schemaAt(schema: JSONValue | undefined, path: string): { [k: string]: JSONValue } | undefined {
  let node = schema;
  for (const step of path.match(/\.[^.[]+|\[\*\]/g) ?? []) {
    if (!isRecord(node)) return undefined;
    if (step === '[*]') node = node['items'] ?? node['additionalProperties'];
    else node = isRecord(node['properties']) ? node['properties'][step.slice(1)] : undefined;
  }
  return isRecord(node) ? node : undefined;
}
