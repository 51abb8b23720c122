/**
 * Applying patches in memory, for the fake client: RFC 7386 merge patches and RFC 6902 JSON
 * patches over plain JSON values. Pure functions; the input is never mutated.
 */
import { jsonEqual, type JsonPatchOp } from '../patch.js';

export class PatchApplyError extends Error {
  override readonly name = 'PatchApplyError';
}

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 7386: objects merge key by key, null deletes, anything else replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const result: Record<string, Json> = isObject(target) ? structuredClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete result[k];
    else result[k] = applyMergePatch(result[k], v);
  }
  return result;
}

/** '/a/b~1c/0' → ['a', 'b/c', '0'] */
function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchApplyError(`invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Resolves the parent container of `tokens` and the last token. */
function parentOf(doc: Json, tokens: string[], path: string): { parent: Json; last: string } {
  let cur = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined) throw new PatchApplyError(`path "${path}" does not exist`);
  }
  return { parent: cur, last: tokens[tokens.length - 1] ?? '' };
}

function get(doc: Json, path: string): Json {
  let cur = doc;
  for (const t of parsePointer(path)) {
    cur = Array.isArray(cur) ? cur[Number(t)] : isObject(cur) ? cur[t] : undefined;
    if (cur === undefined) throw new PatchApplyError(`path "${path}" does not exist`);
  }
  return cur;
}

function remove(doc: Json, path: string): Json {
  const { parent, last } = parentOf(doc, parsePointer(path), path);
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw new PatchApplyError(`path "${path}" does not exist`);
    return parent.splice(i, 1)[0];
  }
  if (!isObject(parent) || !(last in parent)) throw new PatchApplyError(`path "${path}" does not exist`);
  const old = parent[last];
  delete parent[last];
  return old;
}

function add(doc: Json, path: string, value: Json): Json {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return structuredClone(value);
  const { parent, last } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length)
      throw new PatchApplyError(`index out of range in "${path}"`);
    parent.splice(i, 0, structuredClone(value));
  } else if (isObject(parent)) {
    parent[last] = structuredClone(value);
  } else {
    throw new PatchApplyError(`path "${path}" does not exist`);
  }
  return doc;
}

/** RFC 6902, all six operations; throws PatchApplyError when an operation cannot apply. */
export function applyJsonPatch(target: Json, ops: readonly JsonPatchOp[]): Json {
  let doc = structuredClone(target);
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        doc = add(doc, op.path, op.value);
        break;
      case 'remove':
        remove(doc, op.path);
        break;
      case 'replace':
        get(doc, op.path);
        if (op.path === '') doc = structuredClone(op.value);
        else {
          remove(doc, op.path);
          doc = add(doc, op.path, op.value);
        }
        break;
      case 'test':
        if (!jsonEqual(get(doc, op.path), op.value)) throw new PatchApplyError(`test failed at "${op.path}"`);
        break;
      case 'move': {
        const value = remove(doc, op.from);
        doc = add(doc, op.path, value);
        break;
      }
      case 'copy':
        doc = add(doc, op.path, get(doc, op.from));
        break;
    }
  }
  return doc;
}
