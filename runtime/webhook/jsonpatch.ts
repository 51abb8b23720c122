/**
 * JSON diff → JSON Patch (RFC 6902): the operations that turn `before` into `after`, as a
 * mutating webhook answers them. Objects are compared key by key; arrays element by element
 * over their common length, then trailing elements are removed (last first, so indices stay
 * valid) or appended. Keys are escaped as RFC 6901 says (`~` → `~0`, `/` → `~1`).
 */

export type JsonPatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown };

/** One reference token of a JSON Pointer (RFC 6901): `~` first, so `/` → `~1` is not re-escaped. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality of JSON values (key order ignored; undefined object members count as absent). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The JSON form of a value as JSON.stringify would send it (drops undefined members, Dates → strings). */
function toJson(v: unknown): Json {
  return JSON.parse(JSON.stringify(v ?? null)) as Json;
}

/** The patch that turns `before` into `after` (both JSON-serialisable). */
export function createPatch(before: unknown, after: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  diff(toJson(before), toJson(after), '', ops);
  return ops;
}

function diff(a: Json, b: Json, path: string, ops: JsonPatchOperation[]): void {
  if (jsonEqual(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diff(a[i] as Json, b[i] as Json, `${path}/${i}`, ops);
    for (let i = a.length - 1; i >= common; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    for (let i = common; i < b.length; i++) ops.push({ op: 'add', path: `${path}/-`, value: b[i] });
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) {
      const p = `${path}/${escapePointerToken(key)}`;
      if (!Object.hasOwn(b, key)) ops.push({ op: 'remove', path: p });
      else diff(a[key] as Json, b[key] as Json, p, ops);
    }
    for (const key of Object.keys(b)) {
      if (!Object.hasOwn(a, key)) ops.push({ op: 'add', path: `${path}/${escapePointerToken(key)}`, value: b[key] });
    }
    return;
  }
  // Different types or scalars: the whole value changes (the root included, path '').
  ops.push({ op: 'replace', path, value: b });
}

/** Applies `ops` to a copy of `doc` (enough of RFC 6902 to check what createPatch emits). */
export function applyPatch(doc: unknown, ops: readonly JsonPatchOperation[]): unknown {
  let root = toJson(doc);
  for (const op of ops) {
    if (op.path === '') {
      if (op.op === 'remove') throw new Error('cannot remove the document root');
      root = toJson(op.value);
      continue;
    }
    const tokens = op.path
      .slice(1)
      .split('/')
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop() as string;
    let parent: Json = root;
    for (const t of tokens) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(t)]
        : isObject(parent)
          ? parent[t]
          : undefined;
      if (next === undefined) throw new Error(`path ${op.path}: ${t} does not exist`);
      parent = next;
    }
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(i, 0, toJson(op.value));
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = toJson(op.value);
    } else if (isObject(parent)) {
      if (op.op === 'remove') delete parent[last];
      else parent[last] = toJson(op.value);
    } else {
      throw new Error(`path ${op.path}: parent is not a container`);
    }
  }
  return root;
}
