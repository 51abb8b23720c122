/**
 * Whether two CRDs are the same CRD, compared as parsed objects (key order, and the order of a
 * `required` list, do not matter; descriptions do), and where they differ. What the comparison
 * leaves aside, because it is not the author's or it means the same thing: generator stamps
 * among the annotations, server-set metadata and status, the order of versions, defaults the API
 * server fills in (`singular`, `listKind`, conversion `None`), and at the root of a schema the
 * standard `apiVersion`, `kind` and `metadata` fields a hand-written CRD leaves out (every tsop
 * and controller-gen CRD declares them; the API server gives them fixed meaning).
 */
import type { JSONSchemaProps } from '../codegen/jsonschema.js';
import { GENERATOR_ANNOTATIONS, type Crd } from './crd.js';

export interface Difference {
  /** The version whose schema or settings differ; '' for the CRD as a whole. */
  version: string;
  /** JSON path in the version's schema (`.spec.rules[*]`), or `crd` for the CRD's own settings. */
  path: string;
  detail: string;
}

export function crdDifferences(want: Crd, got: Crd): Difference[] {
  const out: Difference[] = [];
  const crdLevel = (what: string, a: unknown, b: unknown): void => {
    if (!same(a, b)) out.push({ version: '', path: 'crd', detail: `${what}: ${show(a)} became ${show(b)}` });
  };
  crdLevel('metadata.name', want.metadata.name, got.metadata.name);
  crdLevel('metadata.labels', want.metadata.labels ?? {}, got.metadata.labels ?? {});
  crdLevel('metadata.annotations', authored(want.metadata.annotations), authored(got.metadata.annotations));
  const ws = want.spec;
  const gs = got.spec;
  crdLevel('spec.group', ws.group, gs.group);
  crdLevel('spec.scope', ws.scope, gs.scope);
  crdLevel('spec.names', names(want), names(got));
  crdLevel('spec.conversion', conversion(ws.conversion), conversion(gs.conversion));
  crdLevel('spec.preserveUnknownFields', ws.preserveUnknownFields ?? false, gs.preserveUnknownFields ?? false);
  const gotVersions = new Map(gs.versions.map((v) => [v.name, v]));
  for (const wv of ws.versions) {
    const gv = gotVersions.get(wv.name);
    if (!gv) {
      out.push({ version: wv.name, path: 'crd', detail: `version ${wv.name} is missing` });
      continue;
    }
    gotVersions.delete(wv.name);
    const setting = (what: string, a: unknown, b: unknown): void => {
      if (!same(a, b)) out.push({ version: wv.name, path: 'crd', detail: `${what}: ${show(a)} became ${show(b)}` });
    };
    setting('served', wv.served, gv.served);
    setting('storage', wv.storage, gv.storage);
    setting('deprecated', wv.deprecated ?? false, gv.deprecated ?? false);
    setting('deprecationWarning', wv.deprecationWarning, gv.deprecationWarning);
    setting('subresources', wv.subresources ?? {}, gv.subresources ?? {});
    setting('additionalPrinterColumns', wv.additionalPrinterColumns ?? [], gv.additionalPrinterColumns ?? []);
    setting('selectableFields', wv.selectableFields ?? [], gv.selectableFields ?? []);
    const wantRoot = wv.schema.openAPIV3Schema;
    schemaDifferences(wantRoot, withoutAddedRootFields(wantRoot, gv.schema.openAPIV3Schema), '', wv.name, out);
  }
  for (const extra of gotVersions.keys())
    out.push({ version: extra, path: 'crd', detail: `version ${extra} was added` });
  return out;
}

/** Whether two schema nodes are the same (key order and `required` order aside). */
export function sameSchema(a: JSONSchemaProps, b: JSONSchemaProps): boolean {
  return same(a, b);
}

function schemaDifferences(
  a: JSONSchemaProps,
  b: JSONSchemaProps,
  path: string,
  version: string,
  out: Difference[],
): void {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (key === 'properties' && isObject(x) && isObject(y)) {
      for (const name of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
        const p = `${path}.${name}`;
        if (!(name in y)) out.push({ version, path: p, detail: 'the field is missing' });
        else if (!(name in x)) out.push({ version, path: p, detail: 'a field was added' });
        else schemaDifferences(x[name] as JSONSchemaProps, y[name] as JSONSchemaProps, p, version, out);
      }
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(x) && isObject(y)) {
      schemaDifferences(x as JSONSchemaProps, y as JSONSchemaProps, `${path}[*]`, version, out);
    } else if (!same(key === 'required' ? sorted(x) : x, key === 'required' ? sorted(y) : y)) {
      out.push({ version, path, detail: `${key}: ${show(x)} became ${show(y)}` });
    }
  }
}

/** The output's root without the standard apiVersion, kind and metadata where the input has none of them. */
function withoutAddedRootFields(want: JSONSchemaProps, got: JSONSchemaProps): JSONSchemaProps {
  const props = got.properties;
  if (!props) return got;
  const kept = Object.fromEntries(
    Object.entries(props).filter(([k]) => !(['apiVersion', 'kind', 'metadata'].includes(k) && !want.properties?.[k])),
  );
  return { ...got, properties: kept };
}

function authored(annotations: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => !GENERATOR_ANNOTATIONS.includes(k)));
}

function names(crd: Crd): Record<string, unknown> {
  const n = crd.spec.names;
  return {
    kind: n.kind,
    plural: n.plural,
    listKind: n.listKind ?? `${n.kind}List`,
    singular: n.singular ?? n.kind.toLowerCase(),
    shortNames: n.shortNames ?? [],
    categories: n.categories ?? [],
  };
}

function conversion(c: Crd['spec']['conversion']): unknown {
  return c === undefined || (c.strategy === 'None' && c.webhook === undefined) ? undefined : c;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const sorted = (v: unknown): unknown => (Array.isArray(v) ? [...(v as string[])].sort() : v);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => (k === 'required' ? same(sorted(a[k]), sorted(b[k])) : same(a[k], b[k])));
  }
  return false;
}

function show(v: unknown): string {
  const text = JSON.stringify(v) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
