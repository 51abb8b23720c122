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
import type { JSONSchemaProps } from './jsonschema.js';
import { coreTypeSchema } from './core/index.js';
import { embeddedObjectMetaSchema, knownTypeSchema, rootFieldSchemas, withEmbeddedObjectMeta } from './known.js';
import { markerByName, onAlias, type SchemaMarker } from './markers/index.js';
import { FieldProbe } from './flatten.js';
import type { ApiModel, Diagnostic, FieldDef, KindDef, MarkerUse, SourcePos, TypeRef } from './model.js';

export interface KindSchema {
  schema: JSONSchemaProps;
  /** JSON path (`.spec.template`) → where the field is declared. */
  origins: Record<string, SourcePos>;
  /** JSON paths of the fields marked @DefaultsWhenPresent. */
  defaultsWhenPresent: Set<string>;
}

type Site = { kind: 'field'; required: boolean } | { kind: 'type' };

export interface SchemaOptions {
  /** controller-gen's `crd:generateEmbeddedObjectMeta`: nested ObjectMeta keeps name, namespace, labels, annotations, finalizers. */
  embeddedObjectMeta?: boolean;
  /** Write controller-gen's text where tsop writes otherwise (see ManifestOptions). */
  controllerGenCompat?: boolean;
}

export class SchemaBuilder {
  private readonly seen = new Set<string>();
  /**
   * Nodes built from a named type (a class, a core or known type, an enum, a type alias with
   * markers): markers of a field of that type merge with its own as controller-gen's do (flatten.ts).
   */
  private readonly namedNodes = new WeakSet<JSONSchemaProps>();
  /**
   * Fields whose plain `number` became a float (`type: number`) without `@Type('number')` saying
   * so: a Go user expects an integer there, so generate.ts warns once about them.
   */
  readonly floats: Array<{ pos: SourcePos; where: string }> = [];
  /**
   * Above 0 while a node whose type an alias settles is built: the items of an array alias with
   * `@ItemsType`, the inside of a nullable alias with `@Type`. A number there is no float.
   */
  private settledNumbers = 0;
  /** The @DefaultsWhenPresent fields of the kind being built. */
  private defaultsWhenPresent = new Set<string>();

  constructor(
    private readonly model: ApiModel,
    private readonly diagnostics: Diagnostic[],
    /** Hints: the manifests are still written. */
    private readonly warnings: Diagnostic[] = [],
    private readonly options: SchemaOptions = {},
  ) {}

  /** A class's or interface's own schema, with no field's markers on it (for the API reference). */
  typeSchema(id: string): JSONSchemaProps {
    return this.named(id, '', [], {});
  }

  kindSchema(kind: KindDef): KindSchema {
    const origins: Record<string, SourcePos> = {};
    this.defaultsWhenPresent = new Set();
    const schema = this.named(kind.typeId, '', [], origins, true);
    return { schema, origins, defaultsWhenPresent: this.defaultsWhenPresent };
  }

  /** A class or interface: its fields, then its own markers. */
  private named(
    id: string,
    path: string,
    stack: string[],
    origins: Record<string, SourcePos>,
    root = false,
  ): JSONSchemaProps {
    const def = this.model.types[id];
    if (!def) throw new Error(`type ${id} missing from the model`);
    const markers = [...this.inheritedMarkers(def.bases ?? [], new Set([id])), ...def.markers];
    if (!root && markers.some((m) => m.name === 'Type' && markerByName('Type')?.target === 'schema')) {
      // A class with its own JSON form (Go: a type with its own marshalling and Type=…): its
      // markers alone say what it is; its fields and doc are not looked at, as controller-gen does.
      const opaque = this.applyMarkers({}, markers, { kind: 'type' }, def.name);
      this.namedNodes.add(opaque);
      return opaque;
    }
    if (def.serialisesAs) {
      if (root) {
        this.report(
          def.pos,
          `${def.name}: a kind serialises as an object, but its toJSON() returns another type; remove toJSON() from the kind`,
        );
        return this.failed();
      }
      return this.serialised(def, def.serialisesAs, markers, path, stack, origins);
    }
    const stdRoot = root ? rootFieldSchemas() : undefined;
    const fields = stdRoot ? def.fields.filter((f) => !(f.name in stdRoot)) : def.fields;
    if (stdRoot)
      this.warnIgnoredRootMarkers(
        def.name,
        def.fields.filter((f) => f.name in stdRoot),
      );
    const schema = this.object(fields, def.name, path, [...stack, id], origins);
    this.embedCoreBases(schema, id, fields, def.pos);
    if (stdRoot) {
      // A doc comment on apiVersion or kind is their description, as controller-gen takes the
      // doc of the fields a kind declares (TypeMeta's, as apimachinery writes them, by default).
      for (const f of def.fields)
        if ((f.name === 'apiVersion' || f.name === 'kind') && f.description !== undefined)
          stdRoot[f.name] = { ...stdRoot[f.name], description: f.description };
      schema.properties = { ...stdRoot, ...schema.properties };
      schema.required = schema.required?.filter((r) => !(r in stdRoot));
      // Only metadata may be required: Go's ObjectMeta without omitempty (`metadata!: ObjectMeta`).
      if (def.fields.some((f) => f.name === 'metadata' && !f.optional))
        schema.required = [...(schema.required ?? []), 'metadata'].sort();
      if (schema.required?.length === 0) delete schema.required;
    }
    if (def.description !== undefined) schema.description = def.description;
    const done = this.applyMarkers(schema, markers, { kind: 'type' }, def.name, root);
    this.namedNodes.add(done);
    return done;
  }

  /**
   * A class with `toJSON(): string` (Go's encoding.TextMarshaler): JSON holds what toJSON returns,
   * so the schema is that type's, with the class's markers; its fields are not in the JSON, and its
   * doc is not the description (controller-gen writes none for a TextMarshaler either).
   */
  private serialised(
    def: { id: string; name: string; pos: SourcePos },
    as: TypeRef,
    markers: MarkerUse[],
    path: string,
    stack: string[],
    origins: Record<string, SourcePos>,
  ): JSONSchemaProps {
    const at: FieldDef = { name: 'toJSON()', type: as, optional: false, markers: [], pos: def.pos };
    const s = this.ref(as, at, def.name, path, [...stack, def.id], origins);
    const done = this.applyMarkers(s, markers, { kind: 'type' }, def.name);
    this.namedNodes.add(done);
    return done;
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
        this.report(
          pos,
          `${this.model.types[id]?.name ?? id}: extends '${name}' from @kubernetes/client-node, which has no known schema; extend a type of k8s.io/api, or declare the fields yourself`,
        );
        continue;
      }
      const core = this.options.embeddedObjectMeta ? withEmbeddedObjectMeta(raw) : raw;
      for (const [k, v] of Object.entries(core.properties ?? {})) if (!mine.has(k)) properties[k] = v;
      for (const r of core.required ?? []) if (!mine.has(r)) required.add(r);
      if (core['x-kubernetes-map-type'] !== undefined) schema['x-kubernetes-map-type'] = core['x-kubernetes-map-type'];
      for (const rule of core['x-kubernetes-validations'] ?? []) (schema['x-kubernetes-validations'] ??= []).push(rule);
    }
    schema.properties = Object.fromEntries(
      Object.entries({ ...properties, ...schema.properties }).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
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
      out.push(
        ...this.inheritedMarkers(base.bases ?? [], seen),
        ...base.markers.filter((m) => markerByName(m.name)?.target === 'schema'),
      );
    }
    return out;
  }

  /** `apiVersion`, `kind` and `metadata` keep their standard schemas: markers on them do nothing, so say so. */
  private warnIgnoredRootMarkers(kind: string, fields: FieldDef[]): void {
    for (const f of fields) {
      for (const m of f.markers.filter((use) => markerByName(use.name)?.target === 'schema')) {
        this.warnings.push({
          pos: m.pos,
          message:
            `${kind}.${f.name}: @${m.name} has no effect: the root ${f.name} keeps its standard ` +
            `schema${f.name === 'metadata' ? ' (the API server ignores validation under metadata except on name and generateName)' : ''}; ` +
            `remove it${f.name === 'metadata' ? ', or check metadata with @XValidation on the kind (e.g. self.metadata.name.size() <= 63)' : ''}`,
        });
      }
    }
  }

  private object(
    fields: FieldDef[],
    owner: string,
    path: string,
    stack: string[],
    origins: Record<string, SourcePos>,
  ): JSONSchemaProps {
    const properties: Record<string, JSONSchemaProps> = {};
    const required: string[] = [];
    for (const f of fields) {
      const fieldPath = `${path}.${f.name}`;
      origins[fieldPath] = f.pos;
      if (f.markers.some((m) => m.name === 'DefaultsWhenPresent')) this.defaultsWhenPresent.add(fieldPath);
      const site: Site = { kind: 'field', required: !f.optional };
      const schemaless = f.markers.some((m) => m.name === 'Schemaless');
      const s = this.applyMarkers(
        schemaless ? {} : this.ref(f.type, f, owner, fieldPath, stack, origins),
        f.markers,
        site,
        `${owner}.${f.name}`,
      );
      // @Description (applied above) wins over the doc comment.
      if (f.description !== undefined && !f.markers.some((m) => m.name === 'Description'))
        s.description = f.description;
      properties[f.name] = this.nullableEnum(s); // again: @Enum or @Nullable may have come after the type
      if (site.required) required.push(f.name);
    }
    // An empty class has no `properties: {}`, as controller-gen writes it.
    const schema: JSONSchemaProps = fields.length > 0 ? { type: 'object', properties } : { type: 'object' };
    if (required.length > 0) schema.required = required.sort();
    // `self == oldSelf` on a field does not run when the field is removed: controller-gen adds this
    // rule on the parent for an optional immutable field, so it cannot be unset once set.
    for (const f of fields) {
      if (required.includes(f.name) || !f.markers.some((m) => m.name === 'Immutable')) continue;
      (schema['x-kubernetes-validations'] ??= []).push({
        rule: `!has(oldSelf.${f.name}) || has(self.${f.name})`,
        message: `field ${f.name} is immutable once set`,
      });
    }
    return schema;
  }

  /**
   * The schema of a type as written: its kind's, then the markers of each type alias it came
   * through, one alias at a time (inner first), as each is its own named type in Go.
   */
  private ref(
    t: TypeRef,
    f: FieldDef,
    owner: string,
    path: string,
    stack: string[],
    origins: Record<string, SourcePos>,
  ): JSONSchemaProps {
    let s = this.refKind(t, f, owner, path, stack, origins);
    if (t.description !== undefined) s.description = t.description;
    let named = this.namedNodes.has(s) || isNamedKind(t);
    for (const layer of layers(t.markers ?? [])) {
      s = this.applyMarkers(s, layer.uses, { kind: 'type' }, `${owner}.${f.name}`, false, named);
      if (layer.via !== undefined) named = true;
    }
    if (named) this.namedNodes.add(s);
    return s;
  }

  private refKind(
    t: TypeRef,
    f: FieldDef,
    owner: string,
    path: string,
    stack: string[],
    origins: Record<string, SourcePos>,
  ): JSONSchemaProps {
    switch (t.kind) {
      case 'primitive':
        if (
          t.name === 'number' &&
          this.settledNumbers === 0 &&
          !f.markers.some((m) => m.name === 'Type' || m.name === 'ItemsType') &&
          // `/** @Type('integer') */ type int = number`: the alias says what the number is.
          !t.markers?.some((m) => m.name === 'Type') &&
          !this.floats.some((x) => x.pos === f.pos)
        ) {
          this.floats.push({ pos: f.pos, where: `${owner}.${f.name}` });
        }
        return { type: t.name };
      case 'known':
        return t.name === 'ObjectMeta' && this.options.embeddedObjectMeta
          ? embeddedObjectMetaSchema()
          : knownTypeSchema(t.name);
      case 'core': {
        const s = coreTypeSchema(t.name);
        if (s) return this.options.embeddedObjectMeta ? withEmbeddedObjectMeta(s) : s;
        this.report(
          f.pos,
          `${owner}.${f.name}: '${t.name}' from @kubernetes/client-node has no known schema; embed a type tsop knows (V1PodTemplateSpec, V1Container, …) or declare the shape yourself`,
        );
        return this.failed();
      }
      case 'array': {
        const settles = t.markers?.some((m) => m.name === 'ItemsType') === true;
        if (settles) this.settledNumbers++;
        try {
          const s: JSONSchemaProps = {
            type: 'array',
            items: this.ref(t.items, f, owner, `${path}[*]`, stack, origins),
          };
          // A tuple's length (reader/tuples.ts).
          if (t.minItems !== undefined && t.minItems > 0) s.minItems = t.minItems;
          if (t.maxItems !== undefined) s.maxItems = t.maxItems;
          return s;
        } finally {
          if (settles) this.settledNumbers--;
        }
      }
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
          this.report(
            f.pos,
            `${owner}.${f.name}: recursive type (${names}) has no finite schema; break the cycle, or mark the field @Schemaless() @PreserveUnknownFields() @Type('object')`,
          );
          return this.failed();
        }
        return this.named(t.id, path, stack, origins);
      }
      case 'object':
        return this.object(t.fields, `${owner}.${f.name}`, path, stack, origins);
      case 'nullable': {
        const settles = t.markers?.some((m) => m.name === 'Type') === true;
        if (settles) this.settledNumbers++;
        let inner: JSONSchemaProps;
        try {
          inner = this.ref(t.type, f, owner, path, stack, origins);
        } finally {
          if (settles) this.settledNumbers--;
        }
        const s = this.nullableEnum({ ...inner, nullable: true });
        if (this.namedNodes.has(inner)) this.namedNodes.add(s);
        return s;
      }
      case 'unsupported':
        this.report(f.pos, `${owner}.${f.name}: type '${t.text}': ${t.reason}`);
        return this.failed();
    }
  }

  /**
   * Applies schema markers in phase order and returns the resulting node; reports markers that do
   * not belong here. On a node built from a named type (`named`), the markers are recorded and
   * merged with what the type has, as controller-gen merges a field with its type (flatten.ts).
   */
  private applyMarkers(
    schema: JSONSchemaProps,
    uses: MarkerUse[],
    site: Site,
    where: string,
    isKind = false,
    named = this.namedNodes.has(schema),
  ): JSONSchemaProps {
    const found: Array<{ def: SchemaMarker<unknown>; use: MarkerUse }> = [];
    for (const use of this.oneDefault(uses, where)) {
      const def = markerByName(use.name);
      if (!def) continue; // not a tsop marker (a user's own decorator)
      if (def.target !== 'schema') {
        if (def.target === 'kind' && !isKind)
          this.report(use.pos, `${where}: @${use.name} stands on a @Resource class (a kind), not here`);
        if (def.target === 'controller' && site.kind === 'field')
          this.report(use.pos, `${where}: @${use.name} stands on a controller class, not on a field`);
        continue;
      }
      const d = def as unknown as SchemaMarker<unknown>;
      if (use.via !== undefined ? !onAlias(d) : d.on !== 'both' && d.on !== site.kind) {
        const here = use.via !== undefined ? 'type aliases' : site.kind === 'field' ? 'fields' : 'classes';
        this.report(
          use.pos,
          `${where}: @${use.name} stands on ${d.on === 'field' ? 'fields' : 'classes'}, not on ${here}`,
        );
        continue;
      }
      found.push({ def: d, use });
    }
    if (found.length === 0) return schema;
    found.sort((a, b) => a.def.phase - b.def.phase);
    const probe = named ? new FieldProbe(schema) : undefined;
    const target = probe?.node ?? schema;
    // `Items…` markers on a list of a named type merge with the element type the same way.
    const items = schema.items && this.namedNodes.has(schema.items) ? new FieldProbe(schema.items) : undefined;
    const field = site.kind === 'field' ? { required: site.required } : undefined;
    const compat = this.options.controllerGenCompat === true ? { controllerGenCompat: true } : {};
    for (const { def, use } of found) {
      const parsed = def.args.parse(use.args);
      if (!parsed.ok) {
        this.report(use.pos, `${where}: @${use.name}${def.args.usage} ${parsed.error}`);
        continue;
      }
      const element =
        items && use.name.startsWith('Items')
          ? (markerByName(use.name.slice('Items'.length)) as SchemaMarker<unknown> | undefined)
          : undefined;
      const err = element
        ? element.apply(items!.node, parsed.value, compat)?.replace(`@${element.name} `, `@${use.name} `)
        : def.apply(target, parsed.value, field ? { field, ...compat } : compat);
      if (err) this.report(use.pos, `${where}: ${err}`);
      else if (compat.controllerGenCompat && /UniqueItems$/.test(use.name)) {
        this.warnings.push({
          pos: use.pos,
          message:
            `${where}: @${use.name} is written as uniqueItems: true, as controller-gen writes it ` +
            `(controller-gen compatibility), and the API server refuses a CRD with it; turn ` +
            `compatibility off to write x-kubernetes-list-type: set`,
        });
      }
    }
    if (field && site.kind === 'field') site.required = field.required;
    if (items) target.items = items.result();
    return probe ? probe.result() : schema;
  }

  /**
   * At most one default of each spelling: two are an error (never "the last wins"); a
   * `@KubernetesDefault` (the JSDoc `@default`) gives way to `@Default`, as controller-gen's
   * `+default` gives way to `+kubebuilder:default`, with a warning when the two differ.
   */
  private oneDefault(uses: MarkerUse[], where: string): MarkerUse[] {
    if (!uses.some((u) => u.name === 'Default' || u.name === 'KubernetesDefault')) return uses;
    const of = (name: string): MarkerUse[] => uses.filter((u) => u.name === name);
    const kb = of('Default');
    const k8s = of('KubernetesDefault');
    for (const extra of [...kb.slice(1), ...k8s.slice(1)]) {
      const first = (extra.name === 'Default' ? kb : k8s)[0] as MarkerUse;
      this.report(
        extra.pos,
        `${where}: ${spelling(extra)} is given twice (also at ${first.pos.file}:${first.pos.line}); a field has one default, remove one`,
      );
    }
    if (kb.length === 0 && k8s.length <= 1) return uses;
    const winner = kb[0];
    const dropped = new Set<MarkerUse>([...kb.slice(1), ...k8s.slice(winner ? 0 : 1)]);
    const shadowed = winner ? k8s[0] : undefined;
    if (winner && shadowed && JSON.stringify(shadowed.args) !== JSON.stringify(winner.args)) {
      this.warnings.push({
        pos: shadowed.pos,
        message:
          `${where}: ${spelling(shadowed)} ${JSON.stringify(shadowed.args[0])} gives way to ` +
          `@Default(${JSON.stringify(winner.args[0])}) (as +default gives way to ` +
          `+kubebuilder:default); remove one of them`,
      });
    }
    return uses.filter((u) => !dropped.has(u));
  }

  /** `nullableEnum` below, unless controller-gen's text (enum + nullable) is asked for. */
  private nullableEnum(s: JSONSchemaProps): JSONSchemaProps {
    return this.options.controllerGenCompat === true ? s : nullableEnum(s);
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

/** int32 and int64 are Go's own integers; every other known type is a named Go type. */
function isNamedKind(t: TypeRef): boolean {
  return t.kind === 'core' || t.kind === 'enum' || (t.kind === 'known' && t.name !== 'int32' && t.name !== 'int64');
}

/** A type's markers in layers: consecutive markers of one alias (`via`) form one. */
function layers(uses: MarkerUse[]): Array<{ via?: string; uses: MarkerUse[] }> {
  const out: Array<{ via?: string; uses: MarkerUse[] }> = [];
  for (const use of uses) {
    const last = out[out.length - 1];
    if (last && last.via === use.via) last.uses.push(use);
    else out.push(use.via === undefined ? { uses: [use] } : { via: use.via, uses: [use] });
  }
  return out;
}

const spelling = (use: MarkerUse): string =>
  use.name === 'KubernetesDefault' && use.jsdoc ? 'JSDoc @default' : `@${use.name}`;

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
