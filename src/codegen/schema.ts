/**
 * The schema builder: API model → one openAPIV3Schema per kind version. Types become schemas
 * (type rules below), then each node's markers are applied through the catalog, in phase order
 * (type-replacing markers first, markers that need the finished node last).
 *
 * Type rules: string/boolean → same; `number` → `number` (TypeScript cannot tell integers apart;
 * use int32/int64 for `integer`); literal unions and TS enums → `enum`; arrays → `items`;
 * `Record<string, T>` and index signatures → `additionalProperties`; classes, interfaces and
 * inline object types → `properties` with a sorted `required` list of the fields declared
 * without `?`; `T | null` → nullable; known scalars (known.ts) and core types (core/) by name.
 *
 * Every node built from a field remembers where that field is declared (`origins`, keyed by JSON
 * path), so later checks can report problems at a source line.
 */
import type { JSONSchemaProps } from '../manifests/jsonschema.js';
import { coreTypeSchema } from './core/index.js';
import { embeddedObjectMetaSchema, knownTypeSchema, rootFieldSchemas, withEmbeddedObjectMeta } from './known.js';
import { markerByName, type SchemaMarker } from './markers/index.js';
import type { ApiModel, Diagnostic, FieldDef, KindDef, MarkerUse, SourcePos, TypeRef } from './model.js';

export interface KindSchema {
  schema: JSONSchemaProps;
  /** JSON path (`.spec.template`) → where the field is declared. */
  origins: Record<string, SourcePos>;
}

type Site = { kind: 'field'; required: boolean } | { kind: 'type' };

export interface SchemaOptions {
  /** controller-gen's `crd:generateEmbeddedObjectMeta`: nested ObjectMeta keeps name, namespace, labels, annotations, finalizers. */
  embeddedObjectMeta?: boolean;
}

export class SchemaBuilder {
  private readonly seen = new Set<string>();
  /**
   * Fields whose plain `number` became a float (`type: number`) without `@Type('number')` saying
   * so: a Go user expects an integer there, so generate.ts warns once about them.
   */
  readonly floats: Array<{ pos: SourcePos; where: string }> = [];

  constructor(
    private readonly model: ApiModel,
    private readonly diagnostics: Diagnostic[],
    /** Hints: the manifests are still written. */
    private readonly warnings: Diagnostic[] = [],
    private readonly options: SchemaOptions = {},
  ) {}

  kindSchema(kind: KindDef): KindSchema {
    const origins: Record<string, SourcePos> = {};
    const schema = this.named(kind.typeId, '', [], origins, true);
    return { schema, origins };
  }

  /** A class or interface: its fields, then its own markers. */
  private named(id: string, path: string, stack: string[], origins: Record<string, SourcePos>, root = false): JSONSchemaProps {
    const def = this.model.types[id];
    if (!def) throw new Error(`type ${id} missing from the model`);
    const stdRoot = root ? rootFieldSchemas() : undefined;
    const fields = stdRoot ? def.fields.filter((f) => !(f.name in stdRoot)) : def.fields;
    if (stdRoot) this.warnIgnoredRootMarkers(def.name, def.fields.filter((f) => f.name in stdRoot));
    const schema = this.object(fields, def.name, path, [...stack, id], origins);
    this.embedCoreBases(schema, id, fields, def.pos);
    if (stdRoot) {
      schema.properties = { ...stdRoot, ...schema.properties };
      schema.required = schema.required?.filter((r) => !(r in stdRoot));
      if (schema.required?.length === 0) delete schema.required;
    }
    if (def.description !== undefined) schema.description = def.description;
    this.applyMarkers(schema, [...this.inheritedMarkers(def.bases ?? [], new Set([id])), ...def.markers], { kind: 'type' }, def.name, root);
    return schema;
  }

  /**
   * `class MySpec extends V1PodSpec`: the core type's properties come first and its own fields
   * replace any of the same name (required only if declared so), as Go's inline embedding of a
   * core struct gives; an atomic core struct keeps `x-kubernetes-map-type: atomic`.
   */
  private embedCoreBases(schema: JSONSchemaProps, id: string, own: FieldDef[], pos: SourcePos): void {
    const names: string[] = [];
    const walk = (tid: string, seen: Set<string>): void => {
      const t = this.model.types[tid];
      if (!t || seen.has(tid)) return;
      seen.add(tid);
      for (const b of t.bases ?? []) walk(b, seen);
      names.push(...(t.coreBases ?? []));
    };
    walk(id, new Set());
    if (names.length === 0) return;
    const mine = new Set(own.map((f) => f.name));
    const properties: Record<string, JSONSchemaProps> = {};
    const required = new Set(schema.required ?? []);
    for (const name of names) {
      const raw = coreTypeSchema(name);
      if (!raw) {
        this.report(pos, `${this.model.types[id]?.name ?? id}: extends '${name}' from @kubernetes/client-node, which has no known schema; extend a type of k8s.io/api, or declare the fields yourself`);
        continue;
      }
      const core = this.options.embeddedObjectMeta ? withEmbeddedObjectMeta(raw) : raw;
      for (const [k, v] of Object.entries(core.properties ?? {})) if (!mine.has(k)) properties[k] = v;
      for (const r of core.required ?? []) if (!mine.has(r)) required.add(r);
      if (core['x-kubernetes-map-type'] !== undefined) schema['x-kubernetes-map-type'] = core['x-kubernetes-map-type'];
      for (const rule of core['x-kubernetes-validations'] ?? []) (schema['x-kubernetes-validations'] ??= []).push(rule);
    }
    schema.properties = Object.fromEntries(Object.entries({ ...properties, ...schema.properties }).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (required.size > 0) schema.required = [...required].sort();
  }

  /**
   * The schema markers of the classes a type extends, bases first: extending is TypeScript's form
   * of Go's inline embedding, whose type-level markers (`@XValidation`, `@ExactlyOneOf`, …)
   * controller-gen keeps. Kind and controller markers are not inherited.
   */
  private inheritedMarkers(bases: string[], seen: Set<string>): MarkerUse[] {
    const out: MarkerUse[] = [];
    for (const id of bases) {
      const base = this.model.types[id];
      if (!base || seen.has(id)) continue;
      seen.add(id);
      out.push(...this.inheritedMarkers(base.bases ?? [], seen), ...base.markers.filter((m) => markerByName(m.name)?.target === 'schema'));
    }
    return out;
  }

  /** `apiVersion`, `kind` and `metadata` keep their standard schemas: markers on them do nothing, so say so. */
  private warnIgnoredRootMarkers(kind: string, fields: FieldDef[]): void {
    for (const f of fields) {
      for (const m of f.markers.filter((use) => markerByName(use.name)?.target === 'schema')) {
        this.warnings.push({
          pos: m.pos,
          message: `${kind}.${f.name}: @${m.name} has no effect: the root ${f.name} keeps its standard schema${f.name === 'metadata' ? ' (the API server ignores validation under metadata except on name and generateName)' : ''}; remove it${f.name === 'metadata' ? ", or check metadata with @XValidation on the kind (e.g. self.metadata.name.size() <= 63)" : ''}`,
        });
      }
    }
  }

  private object(fields: FieldDef[], owner: string, path: string, stack: string[], origins: Record<string, SourcePos>): JSONSchemaProps {
    const properties: Record<string, JSONSchemaProps> = {};
    const required: string[] = [];
    for (const f of fields) {
      const fieldPath = `${path}.${f.name}`;
      origins[fieldPath] = f.pos;
      const site: Site = { kind: 'field', required: !f.optional };
      const schemaless = f.markers.some((m) => m.name === 'Schemaless');
      const s = schemaless ? {} : this.ref(f.type, f, owner, fieldPath, stack, origins);
      if (f.description !== undefined) s.description = f.description;
      this.applyMarkers(s, f.markers, site, `${owner}.${f.name}`);
      properties[f.name] = nullableEnum(s); // again: @Enum or @Nullable may have come after the type
      if (site.required) required.push(f.name);
    }
    const schema: JSONSchemaProps = { type: 'object', properties };
    if (required.length > 0) schema.required = required.sort();
    // `self == oldSelf` on a field does not run when the field is removed: controller-gen adds this
    // rule on the parent for an optional immutable field, so it cannot be unset once set.
    for (const f of fields) {
      if (required.includes(f.name) || !f.markers.some((m) => m.name === 'Immutable')) continue;
      (schema['x-kubernetes-validations'] ??= []).push({ rule: `!has(oldSelf.${f.name}) || has(self.${f.name})`, message: `field ${f.name} is immutable once set` });
    }
    return schema;
  }

  private ref(t: TypeRef, f: FieldDef, owner: string, path: string, stack: string[], origins: Record<string, SourcePos>): JSONSchemaProps {
    const s = this.refKind(t, f, owner, path, stack, origins);
    if (t.description !== undefined) s.description = t.description;
    if (t.markers) this.applyMarkers(s, t.markers, { kind: 'type' }, `${owner}.${f.name}`);
    return s;
  }

  private refKind(t: TypeRef, f: FieldDef, owner: string, path: string, stack: string[], origins: Record<string, SourcePos>): JSONSchemaProps {
    switch (t.kind) {
      case 'primitive':
        if (t.name === 'number' && !f.markers.some((m) => m.name === 'Type' || m.name === 'ItemsType') && !this.floats.some((x) => x.pos === f.pos)) {
          this.floats.push({ pos: f.pos, where: `${owner}.${f.name}` });
        }
        return { type: t.name };
      case 'known':
        return t.name === 'ObjectMeta' && this.options.embeddedObjectMeta ? embeddedObjectMetaSchema() : knownTypeSchema(t.name);
      case 'core': {
        const s = coreTypeSchema(t.name);
        if (s) return this.options.embeddedObjectMeta ? withEmbeddedObjectMeta(s) : s;
        this.report(f.pos, `${owner}.${f.name}: '${t.name}' from @kubernetes/client-node has no known schema; embed a type tsop knows (V1PodTemplateSpec, V1Container, …) or declare the shape yourself`);
        return this.failed();
      }
      case 'array':
        return { type: 'array', items: this.ref(t.items, f, owner, `${path}[*]`, stack, origins) };
      case 'map':
        return { type: 'object', additionalProperties: this.ref(t.values, f, owner, `${path}[*]`, stack, origins) };
      case 'enum': {
        const type = t.type === 'number' ? (t.values.every(Number.isInteger) ? 'integer' : 'number') : t.type;
        return { type, enum: [...t.values] };
      }
      case 'named': {
        const cycle = stack.indexOf(t.id);
        if (cycle >= 0) {
          const names = [...stack.slice(cycle), t.id].map((id) => this.model.types[id]?.name ?? id).join(' → ');
          this.report(f.pos, `${owner}.${f.name}: recursive type (${names}) has no finite schema; break the cycle, or mark the field @Schemaless() @PreserveUnknownFields() @Type('object')`);
          return this.failed();
        }
        return this.named(t.id, path, stack, origins);
      }
      case 'object':
        return this.object(t.fields, `${owner}.${f.name}`, path, stack, origins);
      case 'nullable':
        return nullableEnum({ ...this.ref(t.type, f, owner, path, stack, origins), nullable: true });
      case 'unsupported':
        this.report(f.pos, `${owner}.${f.name}: type '${t.text}': ${t.reason}`);
        return this.failed();
    }
  }

  /** Applies schema markers in phase order; reports markers that do not belong here. */
  private applyMarkers(schema: JSONSchemaProps, uses: MarkerUse[], site: Site, where: string, isKind = false): void {
    const found: Array<{ def: SchemaMarker<unknown>; use: MarkerUse }> = [];
    for (const use of uses) {
      const def = markerByName(use.name);
      if (!def) continue; // not a tsop marker (a user's own decorator)
      if (def.target !== 'schema') {
        if (def.target === 'kind' && !isKind) this.report(use.pos, `${where}: @${use.name} stands on a @Resource class (a kind), not here`);
        if (def.target === 'controller' && site.kind === 'field') this.report(use.pos, `${where}: @${use.name} stands on a controller class, not on a field`);
        continue;
      }
      const d = def as unknown as SchemaMarker<unknown>;
      if (d.on !== 'both' && d.on !== site.kind) {
        this.report(use.pos, `${where}: @${use.name} stands on ${d.on === 'field' ? 'fields' : 'classes'}, not on ${site.kind === 'field' ? 'fields' : 'classes'}`);
        continue;
      }
      found.push({ def: d, use });
    }
    found.sort((a, b) => a.def.phase - b.def.phase);
    const field = site.kind === 'field' ? { required: site.required } : undefined;
    for (const { def, use } of found) {
      const parsed = def.args.parse(use.args);
      if (!parsed.ok) {
        this.report(use.pos, `${where}: @${use.name}${def.args.usage} ${parsed.error}`);
        continue;
      }
      const err = def.apply(schema, parsed.value, field ? { field } : {});
      if (err) this.report(use.pos, `${where}: ${err}`);
    }
    if (field && site.kind === 'field') site.required = field.required;
  }

  /** What stands in for a type that failed: valid enough that later checks add no noise. */
  private failed(): JSONSchemaProps {
    return { 'x-kubernetes-preserve-unknown-fields': true };
  }

  private report(pos: SourcePos, message: string): void {
    const key = `${pos.file}:${pos.line}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.diagnostics.push({ pos, message });
  }
}

/**
 * A nullable node with an enum: the API server checks a null value against `enum` and never finds
 * it there, even when null is listed (kube-openapi's enum check skips null members; seen on
 * kube-apiserver 1.36), so `'A' | 'B' | null` would refuse null. CEL rules are not run on null
 * values, so the allowed values become one rule, worded like the server's own enum message.
 */
function nullableEnum(s: JSONSchemaProps): JSONSchemaProps {
  if (s.nullable !== true || s.enum === undefined) return s;
  const values = s.enum.filter((v) => v !== null);
  delete s.enum;
  (s['x-kubernetes-validations'] ??= []).push({
    rule: `self in [${values.map(celLiteral).join(', ')}]`,
    message: `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  });
  return s;
}

function celLiteral(v: unknown): string {
  return typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);
}
