/**
 * Breaking changes between a committed CRD and a newly generated one, for API review in
 * `tsop manifests --check`. Pure: two CRD objects in, one line per change out, e.g.
 *
 *   v1 .spec.replicas: maximum tightened from 10 to 5
 *   v1 .spec.owner: field newly required
 *   v1beta1: served version removed
 *
 * A change is breaking when an object the old schema accepted (or a client relying on the old
 * API) may fail with the new one: removed fields, changed types, new required fields, tighter
 * bounds, patterns, enums, formats, CEL rules and list semantics, removed defaults, lost
 * subresources, and versions that are no longer served. Loosening is not reported.
 * Descriptions, examples and titles are ignored.
 */
import { UserError } from '../errors.js';
import type { JSONSchemaProps, JSONValue } from '../codegen/jsonschema.js';

/** The input is not a CustomResourceDefinition this module can read. */
export class CrdShapeError extends UserError {
  override readonly name = 'CrdShapeError';
}

interface VersionView {
  name: string;
  served: boolean;
  schema: JSONSchemaProps | undefined;
  subresources: { status?: unknown; scale?: unknown } | undefined;
}

interface CrdView {
  scope: string | undefined;
  kind: string | undefined;
  versions: VersionView[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function view(crd: unknown, which: string): CrdView {
  const spec = isRecord(crd) ? crd['spec'] : undefined;
  if (!isRecord(spec) || !Array.isArray(spec['versions'])) {
    throw new CrdShapeError(`${which} CRD has no spec.versions list`);
  }
  const names = isRecord(spec['names']) ? spec['names'] : {};
  const versions = spec['versions'].map((v, i): VersionView => {
    if (!isRecord(v) || typeof v['name'] !== 'string') {
      throw new CrdShapeError(`${which} CRD: spec.versions[${i}] has no name`);
    }
    const schema = isRecord(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined;
    return {
      name: v['name'],
      served: v['served'] !== false,
      schema: isRecord(schema) ? (schema as JSONSchemaProps) : undefined,
      subresources: isRecord(v['subresources']) ? v['subresources'] : undefined,
    };
  });
  return {
    scope: typeof spec['scope'] === 'string' ? spec['scope'] : undefined,
    kind: typeof names['kind'] === 'string' ? names['kind'] : undefined,
    versions,
  };
}

/** One line per breaking change; empty when the new CRD is compatible. */
export function breakingChanges(oldCrd: unknown, newCrd: unknown): string[] {
  const before = view(oldCrd, 'old');
  const after = view(newCrd, 'new');
  const out: string[] = [];
  if (before.scope !== undefined && after.scope !== undefined && before.scope !== after.scope) {
    out.push(`scope changed from ${before.scope} to ${after.scope}`);
  }
  if (before.kind !== undefined && after.kind !== undefined && before.kind !== after.kind) {
    out.push(`kind changed from ${before.kind} to ${after.kind}`);
  }
  for (const old of before.versions.filter((v) => v.served)) {
    const now = after.versions.find((v) => v.name === old.name && v.served);
    if (now === undefined) {
      out.push(`${old.name}: served version removed`);
      continue;
    }
    for (const sub of ['status', 'scale'] as const) {
      if (old.subresources?.[sub] !== undefined && now.subresources?.[sub] === undefined) {
        out.push(`${old.name}: ${sub} subresource removed`);
      }
    }
    if (old.schema !== undefined && now.schema !== undefined) {
      compareSchemas(old.schema, now.schema, '', (path, message) => out.push(`${old.name} ${path || '.'}: ${message}`));
    }
  }
  return out;
}

type Report = (path: string, message: string) => void;

const show = (v: JSONValue | undefined): string => (typeof v === 'string' ? v : JSON.stringify(v));
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const fieldPath = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** The type a node admits, for messages: 'int-or-string' counts as its own type. */
function typeOf(s: JSONSchemaProps): string | undefined {
  return s['x-kubernetes-int-or-string'] === true ? 'int-or-string' : s.type;
}

/** Whether a value of type `from` is always valid as `to` (a widening is not breaking). */
function widens(from: string | undefined, to: string | undefined): boolean {
  if (to === undefined) return true; // untyped: anything goes
  if (to === 'int-or-string') return from === 'integer' || from === 'string';
  return from === 'integer' && to === 'number';
}

function compareSchemas(o: JSONSchemaProps, n: JSONSchemaProps, path: string, report: Report): void {
  const oldType = typeOf(o);
  const newType = typeOf(n);
  if (oldType !== newType && !widens(oldType, newType)) {
    report(path, `type changed from ${oldType ?? 'any'} to ${newType ?? 'any'}`);
    return; // everything below is incomparable
  }
  if (o['x-kubernetes-preserve-unknown-fields'] === true && n['x-kubernetes-preserve-unknown-fields'] !== true) {
    report(path, 'unknown fields no longer preserved');
  }
  if (o.nullable === true && n.nullable !== true) report(path, 'no longer nullable');
  compareBounds(o, n, path, report);
  compareValues(o, n, path, report);
  compareValidations(o, n, path, report);
  compareChildren(o, n, path, report);
}

/** Lower bounds may only go down, upper bounds only up. */
const LOWER = ['minLength', 'minItems', 'minProperties'] as const;
const UPPER = ['maxLength', 'maxItems', 'maxProperties'] as const;

function compareBounds(o: JSONSchemaProps, n: JSONSchemaProps, path: string, report: Report): void {
  for (const k of LOWER) {
    const a = o[k] ?? 0;
    const b = n[k];
    if (b !== undefined && b > a)
      report(path, o[k] === undefined ? `${k} added: ${b}` : `${k} tightened from ${a} to ${b}`);
  }
  for (const k of UPPER) {
    const a = o[k];
    const b = n[k];
    if (b !== undefined && (a === undefined || b < a)) {
      report(path, a === undefined ? `${k} added: ${b}` : `${k} tightened from ${a} to ${b}`);
    }
  }
  numericBound(o, n, path, report, 'minimum', 'exclusiveMinimum', (x, y) => x > y);
  numericBound(o, n, path, report, 'maximum', 'exclusiveMaximum', (x, y) => x < y);
  if (n.multipleOf !== undefined && (o.multipleOf === undefined || !isMultiple(o.multipleOf, n.multipleOf))) {
    report(
      path,
      o.multipleOf === undefined
        ? `multipleOf added: ${n.multipleOf}`
        : `multipleOf changed from ${o.multipleOf} to ${n.multipleOf}`,
    );
  }
}

/** Every multiple of `old` is a multiple of `now` exactly when `old` is a multiple of `now`. */
function isMultiple(old: number, now: number): boolean {
  const q = old / now;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

function numericBound(
  o: JSONSchemaProps,
  n: JSONSchemaProps,
  path: string,
  report: Report,
  key: 'minimum' | 'maximum',
  exclusive: 'exclusiveMinimum' | 'exclusiveMaximum',
  stricter: (now: number, old: number) => boolean,
): void {
  const a = o[key];
  const b = n[key];
  if (b === undefined) return;
  if (a === undefined) {
    report(path, `${key} added: ${b}${n[exclusive] ? ' (exclusive)' : ''}`);
  } else if (stricter(b, a)) {
    report(path, `${key} tightened from ${a} to ${b}`);
  } else if (a === b && n[exclusive] === true && o[exclusive] !== true) {
    report(path, `${key} ${b} made exclusive`);
  }
}

function compareValues(o: JSONSchemaProps, n: JSONSchemaProps, path: string, report: Report): void {
  if (n.pattern !== undefined && n.pattern !== o.pattern) {
    report(
      path,
      o.pattern === undefined ? `pattern added: ${n.pattern}` : `pattern changed from ${o.pattern} to ${n.pattern}`,
    );
  }
  if (n.enum !== undefined) {
    if (o.enum === undefined) report(path, `enum added: ${n.enum.map(show).join(', ')}`);
    else {
      const removed = o.enum.filter((v) => !n.enum?.some((w) => same(v, w)));
      if (removed.length > 0) report(path, `enum values removed: ${removed.map(show).join(', ')}`);
    }
  }
  if (n.format !== undefined && n.format !== o.format) {
    report(
      path,
      o.format === undefined ? `format added: ${n.format}` : `format changed from ${o.format} to ${n.format}`,
    );
  }
  if (o.default !== undefined) {
    if (n.default === undefined) report(path, `default removed (was ${show(o.default)})`);
    else if (!same(o.default, n.default)) report(path, `default changed from ${show(o.default)} to ${show(n.default)}`);
  }
  const oldList = o['x-kubernetes-list-type'] ?? 'atomic';
  const newList = n['x-kubernetes-list-type'] ?? 'atomic';
  if (o.type === 'array' && oldList !== newList) report(path, `list type changed from ${oldList} to ${newList}`);
  else if (newList === 'map' && !same(o['x-kubernetes-list-map-keys'], n['x-kubernetes-list-map-keys'])) {
    report(
      path,
      `list map keys changed from [${(o['x-kubernetes-list-map-keys'] ?? []).join(', ')}] to [${(n['x-kubernetes-list-map-keys'] ?? []).join(', ')}]`,
    );
  }
  for (const k of ['allOf', 'anyOf', 'oneOf', 'not'] as const) {
    const a = composition(o, k);
    const b = composition(n, k);
    if (b !== undefined && !same(a, b)) report(path, a === undefined ? `${k} added` : `${k} changed`);
  }
}

/** A composition keyword's value, leaving out the anyOf that only spells int-or-string. */
function composition(s: JSONSchemaProps, k: 'allOf' | 'anyOf' | 'oneOf' | 'not'): unknown {
  return k === 'anyOf' && s['x-kubernetes-int-or-string'] === true ? undefined : s[k];
}

function compareValidations(o: JSONSchemaProps, n: JSONSchemaProps, path: string, report: Report): void {
  const oldRules = new Set((o['x-kubernetes-validations'] ?? []).map((r) => r.rule));
  for (const r of n['x-kubernetes-validations'] ?? []) {
    if (!oldRules.has(r.rule)) report(path, `validation rule added: ${r.rule}`);
  }
}

function compareChildren(o: JSONSchemaProps, n: JSONSchemaProps, path: string, report: Report): void {
  const oldProps = o.properties ?? {};
  const newProps = n.properties ?? {};
  for (const key of Object.keys(oldProps).sort()) {
    const a = oldProps[key] as JSONSchemaProps;
    const b = newProps[key];
    const p = fieldPath(path, key);
    if (b === undefined) report(p, 'field removed');
    else compareSchemas(a, b, p, report);
  }
  const oldRequired = new Set(o.required ?? []);
  for (const key of [...(n.required ?? [])].sort()) {
    // a default fills the field in before validation, on writes and on reads from storage
    if (!oldRequired.has(key) && newProps[key]?.default === undefined)
      report(fieldPath(path, key), 'field newly required');
  }
  if (o.items !== undefined && n.items !== undefined) compareSchemas(o.items, n.items, `${path}[*]`, report);
  const oldMap = o.additionalProperties;
  const newMap = n.additionalProperties;
  if (oldMap !== undefined && oldMap !== false && (newMap === undefined || newMap === false)) {
    report(path, 'additional properties no longer allowed');
  } else if (typeof oldMap === 'object' && typeof newMap === 'object') {
    compareSchemas(oldMap, newMap, `${path}.*`, report);
  }
}
