/**
 * Owned-CRD descriptions from the API model: for each kind, its description (the class's doc),
 * display name and owned resources (`@CsvDescription`), and the spec and status descriptors of
 * every field marked `@CsvDescriptor` anywhere under `spec` or `status`, as operator-sdk's
 * `generate kustomize manifests` collects them from `+operator-sdk:csv:customresourcedefinitions`
 * markers. Paths use JSON names joined by '.', a list field adds `[0]` before its items' fields.
 */
import type { ApiModel, FieldDef, KindDef, MarkerUse, TypeRef } from '../codegen/model.js';
import { pluralOfKind } from '../project/plural.js';
import type { CrdDescription, Descriptor, ResourceRef } from './csv.js';
import { displayName } from './display-name.js';
import { compareKubeAwareVersions } from './kube-version.js';

/** A description with where it goes: operator-sdk's order (lower first; unset last). */
export interface OrderedDescription {
  order: number;
  description: CrdDescription;
}

const LAST = Number.MAX_SAFE_INTEGER;
const MAX_DEPTH = 32;

export function crdDescriptions(model: ApiModel): OrderedDescription[] {
  return model.kinds.map((kind) => describeKind(model, kind));
}

function describeKind(model: ApiModel, kind: KindDef): OrderedDescription {
  const type = model.types[kind.typeId];
  const description: CrdDescription = {
    name: `${pluralOf(kind)}.${kind.group}`,
    version: kind.version,
    kind: kind.kind,
    displayName: displayName(kind.kind),
  };
  if (type?.description) description.description = type.description;
  let order = LAST;
  for (const use of kind.markers.filter((m) => m.name === 'CsvDescription')) {
    const args = argsOf(use);
    if (typeof args['order'] === 'number') order = args['order'];
    if (typeof args['displayName'] === 'string' && args['displayName'] !== '')
      description.displayName = args['displayName'];
    const resources = Array.isArray(args['resources']) ? (args['resources'] as unknown as ResourceRef[]) : [];
    // operator-sdk writes a resource's name even when empty.
    if (resources.length > 0)
      description.resources = [
        ...(description.resources ?? []),
        ...resources.map((r) => ({ kind: r.kind, name: r.name ?? '', version: r.version })),
      ];
  }
  description.resources?.sort(compareResources);
  const spec = descriptorsUnder(model, kind, 'spec');
  const status = descriptorsUnder(model, kind, 'status');
  if (spec.length > 0) description.specDescriptors = spec;
  if (status.length > 0) description.statusDescriptors = status;
  if (description.resources?.length === 0) delete description.resources;
  return { order, description };
}

function pluralOf(kind: KindDef): string {
  const resource = kind.markers.find((m) => m.name === 'Resource');
  const plural = resource ? argsOf(resource)['plural'] : undefined;
  return typeof plural === 'string' ? plural : pluralOfKind(kind.kind);
}

function argsOf(use: MarkerUse): Record<string, unknown> {
  const first = use.args[0];
  return typeof first === 'object' && first !== null && !Array.isArray(first) ? first : {};
}

interface Found {
  path: string;
  order: number;
  descriptor: Descriptor;
}

/** The descriptors of one kind's spec or status: every marked field below it, breadth first. */
function descriptorsUnder(model: ApiModel, kind: KindDef, which: 'spec' | 'status'): Descriptor[] {
  const root = fieldsOf(model, { kind: 'named', id: kind.typeId, name: kind.kind }, new Set()).find(
    (f) => f.name === which,
  );
  if (!root) return [];
  const found: Found[] = [];
  let level: Array<{ field: FieldDef; segments: string[] }> = [{ field: root, segments: [] }];
  const seen = new Set<string>();
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { field, segments } of level) {
      // A recursive type would never end; operator-sdk's walk stops where the types do.
      if (segments.length >= MAX_DEPTH) continue;
      for (const child of fieldsOf(model, field.type, seen)) {
        const childSegments = [...segments, isList(child.type) ? `${child.name}[0]` : child.name];
        next.push({ field: child, segments: childSegments });
        const descriptor = descriptorOf(child, which, childSegments);
        if (descriptor) found.push(descriptor);
      }
    }
    level = next;
  }
  found.sort((a, b) => a.order - b.order || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return found.map((f) => f.descriptor);
}

function descriptorOf(field: FieldDef, which: 'spec' | 'status', segments: string[]): Found | undefined {
  const uses = field.markers.filter((m) => m.name === 'CsvDescriptor' && argsOf(m)['type'] === which);
  if (uses.length === 0) return undefined;
  let name = '';
  let order = LAST;
  const xDescriptors: string[] = [];
  for (const use of uses) {
    const args = argsOf(use);
    if (typeof args['order'] === 'number') order = args['order'];
    if (name === '' && typeof args['displayName'] === 'string') name = args['displayName'];
    if (Array.isArray(args['xDescriptors'])) xDescriptors.push(...(args['xDescriptors'] as string[]));
  }
  // A list's own path has no [0]; only its items' fields do.
  const last = segments.length - 1;
  const path = segments.map((s, i) => (i === last ? s.replace(/\[0\]$/, '') : s)).join('.');
  const descriptor: Descriptor = { path, displayName: name || displayName(field.name) };
  if (field.description) descriptor.description = field.description;
  if (xDescriptors.length > 0) descriptor['x-descriptors'] = xDescriptors;
  return { path, order, descriptor };
}

function isList(type: TypeRef): boolean {
  return type.kind === 'array' || (type.kind === 'nullable' && isList(type.type));
}

/** The fields a type reaches: a class (with the classes it extends), an inline object, a list's items. */
function fieldsOf(model: ApiModel, type: TypeRef, seen: Set<string>): FieldDef[] {
  switch (type.kind) {
    case 'array':
      return fieldsOf(model, type.items, seen);
    case 'nullable':
      return fieldsOf(model, type.type, seen);
    case 'object':
      return type.fields;
    case 'named': {
      const def = model.types[type.id];
      if (!def) return [];
      const inherited = (def.bases ?? []).flatMap((id) => fieldsOf(model, { kind: 'named', id, name: id }, seen));
      const own = new Set(def.fields.map((f) => f.name));
      return [...inherited.filter((f) => !own.has(f.name)), ...def.fields];
    }
    default:
      return [];
  }
}

function compareResources(a: ResourceRef, b: ResourceRef): number {
  const an = a.name ?? '';
  const bn = b.name ?? '';
  if (an !== bn) return an < bn ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return -compareKubeAwareVersions(a.version, b.version);
}

/**
 * The base's owned list with the generated descriptions in: a generated one replaces the entry of
 * the same group, version and kind; entries tsop did not generate keep their index as their order,
 * and generated ones go by their own order (unset: after them), by name, then newest version first.
 */
export function mergeDescriptions(
  existing: readonly CrdDescription[],
  generated: readonly OrderedDescription[],
): CrdDescription[] {
  const key = (d: CrdDescription): string => `${d.name.slice(d.name.indexOf('.') + 1)}/${d.version}/${d.kind}`;
  const generatedKeys = new Set(generated.map((g) => key(g.description)));
  const buckets = new Map<number, CrdDescription[]>();
  const add = (order: number, d: CrdDescription): void => void buckets.set(order, [...(buckets.get(order) ?? []), d]);
  const sortedGenerated = [...generated].sort((a, b) => compareDescriptions(a.description, b.description));
  for (const g of sortedGenerated) add(g.order, g.description);
  existing.forEach((d, i) => {
    if (!generatedKeys.has(key(d))) add(i, d);
  });
  return [...buckets.keys()].sort((a, b) => a - b).flatMap((order) => buckets.get(order)!);
}

function compareDescriptions(a: CrdDescription, b: CrdDescription): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return -compareKubeAwareVersions(a.version, b.version);
}
