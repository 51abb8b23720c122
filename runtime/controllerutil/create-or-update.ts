/**
 * createOrUpdate / createOrPatch: read the object, let `mutate` bring it to the desired state,
 * and write only when something changed (semantically: '1000m' CPU equals '1'). As in controller-runtime, `obj` is filled in place
 * with the server's state before `mutate` runs and with the server's answer afterwards, so a
 * mutate function may close over `obj` or use its argument.
 */
import { objectKey, type KubeObject, type ObjectKey } from '../apimachinery/model.js';
import {
  createMergePatch,
  isNotFound,
  jsonEqual,
  mergeFrom,
  mergePatch,
  type Client,
  type ClientObject,
} from '../client/index.js';
import { semanticEqual } from './semantic.js';

export type OperationResult = 'unchanged' | 'created' | 'updated' | 'updatedStatus' | 'updatedStatusOnly';

export type MutateFn<T extends ClientObject> = (obj: T) => void | Promise<void>;

/** `mutate` changed the object's name or namespace, which would address a different object. */
export class MutatedKeyError extends Error {
  override readonly name = 'MutatedKeyError';
  constructor(before: ObjectKey, after: ObjectKey) {
    super(`mutate must not change the object key (${fmt(before)} → ${fmt(after)})`);
  }
}

const fmt = (k: ObjectKey): string => (k.namespace ? `${k.namespace}/${k.name}` : k.name);

/** Reads any ClientObject as the loose wire shape. */
function loose(o: ClientObject): KubeObject {
  return o as KubeObject;
}

/** Replaces every field of `target` with those of `source`, keeping the reference. */
function fillInPlace(target: ClientObject, source: ClientObject): void {
  const t = loose(target);
  for (const k of Object.keys(t)) delete t[k];
  Object.assign(t, source);
}

async function mutateChecked<T extends ClientObject>(obj: T, key: ObjectKey, mutate: MutateFn<T>): Promise<void> {
  await mutate(obj);
  const after = objectKey(loose(obj));
  if (after.name !== key.name || (after.namespace ?? '') !== (key.namespace ?? ''))
    throw new MutatedKeyError(key, after);
}

/** Gets the live object into `obj`; returns false (leaving `obj` as given) when it does not exist. */
async function load<T extends ClientObject>(client: Client, obj: T, key: ObjectKey): Promise<boolean> {
  try {
    fillInPlace(obj, await client.get<T>({ apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' }, key));
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

async function createNew<T extends ClientObject>(
  client: Client,
  obj: T,
  key: ObjectKey,
  mutate: MutateFn<T>,
): Promise<'created'> {
  await mutateChecked(obj, key, mutate);
  const desiredStatus = structuredClone(loose(obj)['status']);
  let created = await client.create(obj);
  // With a status subresource the server drops status on create; write it the way it must go.
  // (controller-runtime leaves this to the next reconcile; doing it here saves a round.)
  const hasStatus = desiredStatus !== undefined && !jsonEqual(desiredStatus, {});
  if (hasStatus && !jsonEqual(loose(created)['status'], desiredStatus)) {
    created = await client.status().update({ ...created, status: desiredStatus });
  }
  fillInPlace(obj, created);
  return 'created';
}

/** Creates `obj` or updates it with a full PUT (stale reads surface as ConflictError). */
export async function createOrUpdate<T extends ClientObject>(
  client: Client,
  obj: T,
  mutate: MutateFn<T>,
): Promise<OperationResult> {
  const key = objectKey(loose(obj));
  if (!(await load(client, obj, key))) return createNew(client, obj, key, mutate);
  const before = structuredClone(obj);
  await mutateChecked(obj, key, mutate);
  if (semanticEqual(before, obj)) return 'unchanged';
  fillInPlace(obj, await client.update(obj));
  return 'updated';
}

/**
 * Creates `obj` or patches what `mutate` changed with merge patches: one for the object, one
 * through the status subresource for `.status`. Returns which of the two were written.
 */
export async function createOrPatch<T extends ClientObject>(
  client: Client,
  obj: T,
  mutate: MutateFn<T>,
): Promise<OperationResult> {
  const key = objectKey(loose(obj));
  if (!(await load(client, obj, key))) return createNew(client, obj, key, mutate);
  const before = structuredClone(obj);
  await mutateChecked(obj, key, mutate);
  const { status: statusBefore, ...restBefore } = loose(before);
  const { status: statusAfter, ...restAfter } = loose(structuredClone(obj));
  const objectChanged = !semanticEqual(restBefore, restAfter);
  const statusChanged = !semanticEqual(statusBefore, statusAfter);
  if (!objectChanged && !statusChanged) return 'unchanged';

  if (objectChanged) fillInPlace(obj, await client.patch(obj, mergeFrom(before)));
  if (!statusChanged) return 'updated';

  // The object patch answered with the old status; put the mutated one back and send its diff.
  const statusPatch = createMergePatch(statusBefore, statusAfter) ?? null;
  loose(obj)['status'] = statusAfter;
  fillInPlace(obj, await client.status().patch(obj, mergePatch({ status: statusPatch })));
  return objectChanged ? 'updatedStatus' : 'updatedStatusOnly';
}
