/**
 * patchStatus: the status write a reconciler wants. It sends only what changed under `.status`,
 * as a merge patch of the status subresource with no resourceVersion, so a cache that has not yet
 * seen this controller's previous write cannot turn it into a 409 (an update of the whole object
 * with a stale resourceVersion does, on every other reconcile). Nothing is sent when nothing changed.
 */
import { createMergePatch, mergePatch } from './patch.js';
import type { Client, ClientObject, PatchOptions } from './types.js';

/** An object with a status (any scaffolded kind). */
export type WithStatus = ClientObject & { status?: unknown };

/**
 * Makes `status` the status of `obj` on the server. Returns the object the server answered
 * with, or `obj` itself when `status` equals its current status (no request).
 */
export async function patchStatus<T extends WithStatus>(
  client: Client,
  obj: T,
  status: NonNullable<T['status']>,
  opts: PatchOptions = {},
): Promise<T> {
  const diff = createMergePatch(obj.status ?? {}, status);
  if (diff === undefined) return obj;
  return client.status().patch(obj, mergePatch({ status: diff }), opts);
}
