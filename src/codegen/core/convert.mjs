/**
 * Converts the Kubernetes API's published OpenAPI v3 definitions into the schema vocabulary a CRD
 * accepts, the way controller-gen renders the same Go types. Pure functions over plain data; the
 * I/O (finding the documents, writing the data file) lives in scripts/gen-core-schemas.mjs.
 *
 * Plain JavaScript so the generator script runs without a build step; types are in convert.d.mts.
 *
 * References stay references: a converted definition points at others with `{ $ref: '<definition
 * name>' }` (plus the referencing field's description or default), and index.ts inlines them.
 */

/** controller-gen's Quantity pattern (controller-tools pkg/crd/known_types.go). */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const INT_OR_STRING = [{ type: 'integer' }, { type: 'string' }];

/**
 * Types controller-gen does not derive from Go source but overrides with a fixed schema. Their own
 * doc comments are not carried (controller-gen's overrides have none); the field's doc is.
 */
export const KNOWN_TYPES = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    anyOf: INT_OR_STRING,
    'x-kubernetes-int-or-string': true,
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    anyOf: INT_OR_STRING,
    pattern: QUANTITY_PATTERN,
    'x-kubernetes-int-or-string': true,
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { format: 'date-time', type: 'string' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { format: 'date-time', type: 'string' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration': { type: 'string' },
  // Embedded metadata is not validated or pruned beyond "an object" unless asked for.
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': {
    'x-kubernetes-preserve-unknown-fields': true,
  },
};

/** Keywords copied as they are. */
const COPIED = new Set([
  'type',
  'format',
  'description',
  'title',
  'enum',
  'nullable',
  'example',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-validations',
]);

/** Keywords a CRD schema has no place for (strategic-merge hints, union metadata, GVK tags). */
const DROPPED = new Set([
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-unions',
  'x-kubernetes-group-version-kind',
]);

/** Thrown when the upstream document holds something this converter does not understand. */
export class ConvertError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ConvertError';
  }
}

/** '#/components/schemas/io.k8s.api.core.v1.Container' → 'io.k8s.api.core.v1.Container'. */
export function refName(ref) {
  const i = ref.lastIndexOf('/');
  return i < 0 ? ref : ref.slice(i + 1);
}

function isZeroValue(v) {
  if (v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * openapi-gen writes the Go zero value as `default` on every non-omitempty non-pointer field, on
 * array items and on embedded structs, and the value of `+default=` markers; controller-gen only
 * emits the markers (and skips `+default=ref(...)`). `facts.hasDefault(definition, property)`
 * answers from the Go source when the caller has it; without it only non-zero values are kept.
 * (A `{}` default on an embedded struct with required fields would also fail the API server's
 * check that defaults validate.)
 */
function keepDefault(value, ctx) {
  if (ctx.at === 'property' && ctx.facts?.hasDefault !== undefined) {
    return ctx.facts.hasDefault(ctx.definition, ctx.property);
  }
  return !isZeroValue(value);
}

const squash = (s) => s.replace(/\s+/g, ' ').trim();

/**
 * openapi-gen joins a doc comment's lines; controller-gen keeps the line breaks. When the Go
 * source is at hand and says the same words, its text wins.
 */
function pickDoc(value, ctx) {
  const m = ctx.facts;
  let doc;
  if (ctx.at === 'property') doc = m?.fieldDoc?.(ctx.definition, ctx.property);
  else if (ctx.at === 'type') doc = m?.typeDoc?.(ctx.definition);
  return doc !== undefined && squash(doc) === squash(value) ? doc : value;
}

/**
 * Converts one schema node. `ctx.at` says where it stands in definition `ctx.definition`: the
 * 'type' itself, one of its properties ('property', named by `ctx.property`), or deeper
 * ('nested': items, map values, inline objects), where Go field information does not apply.
 */
export function convertNode(node, path = 'schema', ctx = { definition: path, at: 'type' }) {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    throw new ConvertError(`${path}: expected a schema object`);
  }
  // `allOf: [{$ref}]` is how the v3 document attaches a description or default to a reference.
  if (node.$ref !== undefined || node.allOf !== undefined) {
    return convertRef(node, path, ctx);
  }
  const nested = { definition: ctx.definition, facts: ctx.facts, at: 'nested' };
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if (key === 'description') out.description = pickDoc(value, ctx);
    else if (COPIED.has(key)) out[key] = value;
    else if (key === 'default') {
      if (keepDefault(value, ctx)) out.default = value;
    } else if (key === 'required') out.required = [...value].sort();
    else if (key === 'properties') {
      out.properties = {};
      for (const name of Object.keys(value).sort()) {
        const child = ctx.at === 'type' ? { ...nested, at: 'property', property: name } : nested;
        out.properties[name] = convertNode(value[name], `${path}.${name}`, child);
      }
    } else if (key === 'items') {
      out.items = withElementDoc(convertNode(value, `${path}[]`, nested), ctx);
    } else if (key === 'additionalProperties') {
      out.additionalProperties =
        typeof value === 'boolean' ? value : withElementDoc(convertNode(value, `${path}{}`, nested), ctx);
    } else throw new ConvertError(`${path}: unsupported keyword '${key}'`);
  }
  if (out.type === undefined && !out['x-kubernetes-preserve-unknown-fields']) {
    throw new ConvertError(`${path}: schema has no type`);
  }
  // kubebuilder markers in k8s.io source (metav1.Condition) reach controller-gen, not openapi-gen
  if (ctx.at === 'property') {
    const extra = ctx.facts?.fieldValidations?.(ctx.definition, ctx.property) ?? {};
    for (const [k, v] of Object.entries(extra)) if (out[k] === undefined) out[k] = v;
  }
  // controller-gen carries an inline-embedded struct's structType=atomic over to the embedder
  if (ctx.at === 'type' && out.type === 'object' && out['x-kubernetes-map-type'] === undefined) {
    if (ctx.facts?.embedsAtomic?.(ctx.definition) === true) out['x-kubernetes-map-type'] = 'atomic';
  }
  return out;
}

/** controller-gen describes items of a named element type (`[]Capability`) with that type's doc. */
function withElementDoc(schema, ctx) {
  if (ctx.at !== 'property' || schema.$ref !== undefined || schema.description !== undefined) return schema;
  const doc = ctx.facts?.elementDoc?.(ctx.definition, ctx.property);
  return doc === undefined ? schema : { ...schema, description: doc };
}

/** Extensions a field may set on the type it references (`+structType=atomic` on a field: PersistentVolumeSpec.claimRef). */
const SITE_EXTENSIONS = new Set(['x-kubernetes-map-type']);

function convertRef(node, path, ctx) {
  let target = node.$ref;
  if (node.allOf !== undefined) {
    const only = node.allOf.length === 1 ? node.allOf[0] : undefined;
    if (only?.$ref === undefined || target !== undefined) {
      throw new ConvertError(`${path}: allOf is only understood as a wrapper of one $ref`);
    }
    target = only.$ref;
  }
  const out = { $ref: refName(target) };
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' || key === 'allOf' || DROPPED.has(key)) continue;
    if (key === 'description') out.description = pickDoc(value, ctx);
    else if (key === 'default') {
      if (keepDefault(value, ctx)) out.default = value;
    } else if (SITE_EXTENSIONS.has(key)) out[key] = value;
    else throw new ConvertError(`${path}: unsupported keyword '${key}' beside a $ref`);
  }
  return out;
}

/** Converts one definition, honouring the known-type overrides. */
export function convertDefinition(name, raw, facts) {
  const known = KNOWN_TYPES[name];
  if (known !== undefined) return structuredClone(known);
  return convertNode(raw, name, { definition: name, facts, at: 'type' });
}

/** Every `$ref` target named anywhere inside a converted schema. */
export function refsOf(schema, into = new Set()) {
  if (schema === null || typeof schema !== 'object') return into;
  if (Array.isArray(schema)) {
    for (const s of schema) refsOf(s, into);
    return into;
  }
  if (typeof schema.$ref === 'string') into.add(schema.$ref);
  for (const [key, value] of Object.entries(schema)) {
    // enum values, defaults and examples are data, not schemas
    if (key !== 'enum' && key !== 'default' && key !== 'example') refsOf(value, into);
  }
  return into;
}

/**
 * Converts the definitions reachable from `roots`. `variants(name)` returns every raw copy of a
 * definition found in the documents (shared types such as meta/v1 appear in each); copies must
 * agree once converted, or the documents are inconsistent and we refuse to pick one. `facts`
 * (optional) answers from the Go source: default markers, doc comments, inherited atomicity.
 */
export function collectReachable(roots, variants, facts) {
  const out = {};
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop();
    if (out[name] !== undefined) continue;
    const raws = variants(name);
    if (raws.length === 0) throw new ConvertError(`definition ${name} not found`);
    const converted = convertDefinition(name, raws[0], facts);
    const text = JSON.stringify(converted);
    for (const other of raws.slice(1)) {
      if (JSON.stringify(convertDefinition(name, other, facts)) !== text) {
        throw new ConvertError(`definition ${name} differs between documents`);
      }
    }
    out[name] = converted;
    for (const ref of refsOf(converted)) pending.push(ref);
  }
  return sortKeysDeep(out);
}

/** Where a definition's version and kind sit: `io.k8s.api.<group>.<version>.<Kind>`. */
function splitName(name) {
  const parts = name.split('.');
  const kind = parts[parts.length - 1];
  const version = parts[parts.length - 2];
  const group = parts[parts.length - 3];
  if (!kind || !version || !group || !/^v\d+((alpha|beta)\d+)?$/.test(version)) return undefined;
  return { group, version, kind };
}

const upperFirst = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The @kubernetes/client-node class name of each definition, by the rule its generator follows:
 * `<Version><Kind>` (io.k8s.api.core.v1.Container → V1Container, …apps.v1beta1.X → V1beta1X,
 * io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector → V1LabelSelector); when several groups
 * define the same version and kind, each gets its group in front (core.v1.ResourceClaim →
 * CoreV1ResourceClaim, resource.v1.ResourceClaim → ResourceV1ResourceClaim). `allNames` must be
 * every definition of the API, since a clash anywhere renames.
 */
export function clientNames(allNames) {
  const byShort = new Map();
  for (const name of allNames) {
    const parts = splitName(name);
    if (parts === undefined) continue;
    const short = upperFirst(parts.version) + parts.kind;
    const list = byShort.get(short) ?? [];
    list.push({ name, group: parts.group });
    byShort.set(short, list);
  }
  const out = new Map();
  for (const [short, list] of byShort) {
    for (const { name, group } of list) {
      out.set(name, list.length === 1 ? short : upperFirst(group) + short);
    }
  }
  return out;
}

/** A copy with object keys sorted at every level (arrays keep their order). */
export function sortKeysDeep(value) {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep(value[key]);
  return out;
}
