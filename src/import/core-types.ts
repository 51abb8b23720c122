/**
 * Recognises a CRD sub-schema that is exactly a type tsop already knows — metav1.Condition, or a
 * `k8s.io/api` type such as a Container, a PodTemplateSpec or a LabelSelector (tsop's core-type
 * data, src/codegen/core) — so the TypeScript names that type instead of spelling out its
 * thousands of lines. "Exactly" is what `tsop manifests` would write for a field of that type with
 * the project's manifests options: the same schema, descriptions included as `maxDescLen` leaves
 * them (none at 0), except that a field's own doc comment replaces the type's description. A
 * schema from another Kubernetes release than tsop's differs somewhere and is written out in
 * full, so nothing changes in the round trip.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { coreTypeNames, coreTypePropertyNames, coreTypeSchema } from '../codegen/core/index.js';
import { knownTypeSchema, withEmbeddedObjectMeta } from '../codegen/known.js';
import type { JSONSchemaProps } from '../codegen/jsonschema.js';
import type { ProjectManifestOptions } from '../manifests/project-options.js';
import { sameSchema } from './compare.js';
import { withMaxDescLen } from './descriptions.js';
import type { TsType } from './model.js';

/** client-node names that stand for a known scalar (runtime/markers) rather than their full schema. */
const KNOWN_INSTEAD = new Set(['V1Condition', 'V1ObjectMeta']);

/** The options that change what `tsop manifests` writes for a core type. */
type SchemaOptions = Pick<ProjectManifestOptions, 'generateEmbeddedObjectMeta' | 'maxDescLen'>;

export class CoreTypeMatcher {
  private readonly options: SchemaOptions;
  private readonly shared: { index?: Map<string, string[]>; byOptions: Map<string, CoreTypeMatcher> };
  private readonly schemas = new Map<string, JSONSchemaProps>();
  private condition: JSONSchemaProps | undefined;

  /** `options`: the project's manifests options (a boolean: generateEmbeddedObjectMeta, as callers wrote before maxDescLen). */
  constructor(options: ProjectManifestOptions | boolean = {}, shared?: CoreTypeMatcher['shared']) {
    const o = typeof options === 'boolean' ? { generateEmbeddedObjectMeta: options } : options;
    this.options = { generateEmbeddedObjectMeta: o.generateEmbeddedObjectMeta === true, maxDescLen: o.maxDescLen };
    this.shared = shared ?? { byOptions: new Map([[optionsKey(this.options), this]]) };
  }

  /** The matcher for other manifests options (a CRD imported with an inferred maxDescLen), sharing the index. */
  for(options: ProjectManifestOptions): CoreTypeMatcher {
    const key = optionsKey(options);
    let m = this.shared.byOptions.get(key);
    if (m === undefined) {
      m = new CoreTypeMatcher(options, this.shared);
      this.shared.byOptions.set(key, m);
    }
    return m;
  }

  /**
   * The type whose schema `node` is. `field`: the node is a field's, whose doc comment may carry
   * its own description; elsewhere (a list's element) the type's description must be the node's.
   */
  match(node: JSONSchemaProps, field: boolean, fieldName?: string): TsType | undefined {
    if (node.type !== 'object' || node.properties === undefined) return undefined;
    const signature = Object.keys(node.properties).sort().join(',');
    if (signature === 'lastTransitionTime,message,observedGeneration,reason,status,type') {
      this.condition ??= withMaxDescLen(knownTypeSchema('Condition'), this.options.maxDescLen);
      if (fits(node, this.condition, field)) return { kind: 'known', name: 'Condition' };
    }
    const props = Object.keys(node.properties).length;
    for (const name of this.candidates().get(signature) ?? []) {
      if (!distinctive(props, name, fieldName)) continue;
      if (fits(node, this.schema(name), field)) return { kind: 'core', name };
    }
    return undefined;
  }

  private schema(name: string): JSONSchemaProps {
    let s = this.schemas.get(name);
    if (s === undefined) {
      const raw = coreTypeSchema(name) ?? {};
      s = withMaxDescLen(
        this.options.generateEmbeddedObjectMeta === true ? withEmbeddedObjectMeta(raw) : raw,
        this.options.maxDescLen,
      );
      this.schemas.set(name, s);
    }
    return s;
  }

  /** Property-name signature → the client-node names with that signature, built once. */
  private candidates(): Map<string, string[]> {
    if (this.shared.index) return this.shared.index;
    const index = new Map<string, string[]>();
    this.shared.index = index;
    const models = clientNodeModels();
    for (const name of coreTypeNames()) {
      // A type newer than the @kubernetes/client-node projects depend on has no model to import.
      if (KNOWN_INSTEAD.has(name) || (models !== undefined && !existsSync(join(models, `${name}.d.ts`)))) continue;
      const props = coreTypePropertyNames(name);
      if (!props || props.length === 0) continue;
      const key = [...props].sort().join(',');
      index.set(key, [...(index.get(key) ?? []), name]);
    }
    return index;
  }
}

/** Words of a type name that say nothing of what it is. */
const GENERIC_WORDS = new Set(['v1', 'v1beta1', 'v1alpha1', 'v2', 'spec', 'status', 'source', 'list']);

/**
 * Whether a shape is telling enough to be written as the core type it equals. A small one (a
 * kind's status holding only conditions is ServiceCIDRStatus's shape) is taken only where the
 * field's name says so (`secretRef: V1LocalObjectReference`): a person writes their own class there.
 */
function distinctive(props: number, typeName: string, fieldName: string | undefined): boolean {
  if (props >= 3) return true;
  if (fieldName === undefined) return false;
  const words = (s: string): string[] =>
    s
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/\s+/)
      .map((w) => (w === 'ref' ? 'reference' : w.replace(/s$/, '')));
  const field = new Set(words(fieldName));
  return words(typeName).some((w) => !GENERIC_WORDS.has(w) && field.has(w));
}

function optionsKey(o: SchemaOptions): string {
  return `${o.generateEmbeddedObjectMeta === true}:${o.maxDescLen ?? ''}`;
}

function fits(node: JSONSchemaProps, type: JSONSchemaProps, field: boolean): boolean {
  if (!field) return sameSchema(node, type);
  // A field without a doc comment keeps the type's description: the node must have it then.
  if (node.description === undefined && type.description !== undefined) return false;
  const { description: _a, ...bodyNode } = node;
  const { description: _b, ...bodyType } = type;
  return sameSchema(bodyNode, bodyType);
}

/** The model directory of the @kubernetes/client-node next to tsop (the version projects depend on), if found. */
function clientNodeModels(): string | undefined {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@kubernetes/client-node')), 'gen/models');
    return existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}
