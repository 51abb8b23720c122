/**
 * Patches: a content type plus a function that renders the body for an object.
 *
 * Mirrors controller-runtime's `client.Patch`: `mergeFrom(original)` diffs the object being
 * patched against a snapshot taken before mutation, so callers mutate plain objects and the
 * patch carries only what changed.
 */
import type { ClientObject } from '../apimachinery/model.js';

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export interface Patch {
  readonly type: PatchType;
  readonly contentType: string;
  /** Renders the request body for `obj` (the object being patched). */
  body(obj: ClientObject): string;
}

/** One RFC 6902 operation. */
export type JsonPatchOp =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

const CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  // JSON is valid YAML, so an apply body can be sent as JSON under the YAML type.
  apply: 'application/apply-patch+yaml',
};

/** A fixed RFC 7386 JSON merge patch. */
export function mergePatch(data: Record<string, unknown>): Patch {
  return { type: 'merge', contentType: CONTENT_TYPES.merge, body: () => JSON.stringify(data) };
}

/** A fixed RFC 6902 JSON patch. */
export function jsonPatch(ops: JsonPatchOp[]): Patch {
  return { type: 'json', contentType: CONTENT_TYPES.json, body: () => JSON.stringify(ops) };
}

/** A strategic merge patch (built-in kinds only; CRDs reject it). */
export function strategicMergePatch(data: Record<string, unknown>): Patch {
  return { type: 'strategic', contentType: CONTENT_TYPES.strategic, body: () => JSON.stringify(data) };
}

/** Server-side apply: the body is the object itself (its intent), minus fields the server owns. */
export const applyPatch: Patch = {
  type: 'apply',
  contentType: CONTENT_TYPES.apply,
  body(obj) {
    const { metadata, ...rest } = obj;
    if (!metadata) return JSON.stringify(rest);
    // managedFields must not be sent with an apply; resourceVersion would turn it into a CAS.
    const { managedFields: _mf, resourceVersion: _rv, ...meta } = metadata;
    return JSON.stringify({ ...rest, metadata: meta });
  },
};

export interface MergeFromOptions {
  /** Put the original's resourceVersion in the patch so a concurrent change fails with 409. */
  optimisticLock?: boolean;
}

/** A merge patch holding the difference from `original` to the object being patched. */
export function mergeFrom(original: ClientObject, opts: MergeFromOptions = {}): Patch {
  const snapshot = structuredClone(original);
  return {
    type: 'merge',
    contentType: CONTENT_TYPES.merge,
    body(obj) {
      const diff = (createMergePatch(snapshot, obj) ?? {}) as Record<string, unknown>;
      if (opts.optimisticLock) {
        const rv = snapshot.metadata?.resourceVersion;
        const meta = (diff['metadata'] ?? {}) as Record<string, unknown>;
        diff['metadata'] = { ...meta, resourceVersion: rv };
      }
      return JSON.stringify(diff);
    },
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep structural equality for JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * RFC 7386 diff: the merge patch that turns `from` into `to`, or undefined when equal.
 * Removed keys become null; arrays and scalars are replaced whole (merge patch has no array ops).
 */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (jsonEqual(from, to)) return undefined;
  if (!isPlainObject(from) || !isPlainObject(to)) return to === undefined ? null : to;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) {
    if (from[key] !== undefined && to[key] === undefined) patch[key] = null;
  }
  for (const key of Object.keys(to)) {
    if (to[key] === undefined) continue;
    const sub = createMergePatch(from[key], to[key]);
    if (sub !== undefined) patch[key] = sub;
  }
  return patch;
}
