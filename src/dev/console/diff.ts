/**
 * What changed between two versions of an object, field by field (`spec.replicas`,
 * `status.conditions[0].status`): the console shows it under each version. Bookkeeping the API
 * server changes on every write (resourceVersion, managedFields) is left out, so a diff shows
 * what a person or a controller meant to change.
 */

export interface FieldChange {
  /** Dotted path, with [i] for list items. */
  path: string;
  op: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const IGNORED = new Set(['metadata.resourceVersion', 'metadata.managedFields']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The changes from `before` to `after`; `before` undefined means the object was created (no changes listed). */
export function diffObjects(before: unknown, after: unknown): FieldChange[] {
  if (before === undefined) return [];
  const out: FieldChange[] = [];
  walk('', before, after, out);
  return out;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const safe = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return path === '' ? safe : /^[A-Za-z_$]/.test(safe) ? `${path}.${safe}` : `${path}[${safe}]`;
}

function walk(path: string, a: unknown, b: unknown, out: FieldChange[]): void {
  if (IGNORED.has(path)) return;
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = join(path, key);
      if (IGNORED.has(p)) continue;
      if (!(key in b)) out.push({ path: p, op: 'removed', before: a[key] });
      else if (!(key in a)) out.push({ path: p, op: 'added', after: b[key] });
      else walk(p, a[key], b[key], out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const p = join(path, i);
      if (i >= b.length) out.push({ path: p, op: 'removed', before: a[i] });
      else if (i >= a.length) out.push({ path: p, op: 'added', after: b[i] });
      else walk(p, a[i], b[i], out);
    }
    return;
  }
  if (!sameValue(a, b)) out.push({ path, op: 'changed', before: a, after: b });
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Which part of the object a change is in, for grouping: spec, status, metadata, or other. */
export function sectionOf(change: FieldChange): 'spec' | 'status' | 'metadata' | 'other' {
  const head = change.path.split(/[.[]/)[0];
  return head === 'spec' || head === 'status' || head === 'metadata' ? head : 'other';
}
