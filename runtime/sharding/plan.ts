/**
 * The assigner's decisions, as pure functions of what it listed: for each object, which label
 * write (if any) brings it to the shard the ring wants. Objects whose shard is alive are never
 * moved directly: they are asked to drain, and their shard moves them once it has stopped
 * reconciling them. Objects with no shard are assigned at once. Objects whose shard is gone
 * (its Lease released or expired) are moved only while the assigner holds that shard's Lease
 * itself (reaper.ts): until then a process of the same shard name may take the Lease and
 * reconcile them, and a direct move would hand them to a second shard under it. Owned objects
 * follow their owner, except while the owner drains: its shard moves them then, before the
 * owner, so the new shard has them cached when it first reconciles the owner.
 */
import { groupKind } from './keys.js';
import { drainLabel, shardLabel } from './names.js';
import type { GroupVersionKind } from '../apimachinery/model.js';

/** One label write, named as the moves metric counts it. */
export type Move =
  /** It had no shard: give it one. */
  | { mode: 'assign'; to: string }
  /** Its shard is gone (lease expired or released) and the assigner holds its Lease: move it now. */
  | { mode: 'reassign'; from: string; to: string }
  /** Its shard is alive but the ring wants it elsewhere: ask the shard to let it go. */
  | { mode: 'drain'; from: string; to: string }
  /** A drain was asked for, but the ring wants it where it is again: call it off. */
  | { mode: 'undrain'; shard: string }
  /** An owned object not where its owner is: move it to the owner's shard. */
  | { mode: 'follow'; from?: string; to: string };

/** An object as the assigner listed it. */
export interface ObjectState {
  gvk: GroupVersionKind;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
  /** Its shard label, if any. */
  shard?: string;
  /** Its drain label (the shard it is to move to), if any. */
  drain?: string;
}

/** An object of a reconciled kind, with the key it is hashed on. */
export interface MainObject extends ObjectState {
  hashKey: string;
}

/** An object of an owned kind whose controller owner is of a reconciled kind. */
export interface OwnedObject extends ObjectState {
  owner: { groupKind: string; uid: string; key: string };
}

export interface Planned<T extends ObjectState = ObjectState> {
  obj: T;
  move: Move;
}

/**
 * Where one object of a reconciled kind should go; undefined: it stays as it is. `reaped`: the
 * gone shards whose Lease the assigner holds now.
 */
export function decideMain(
  cur: Pick<ObjectState, 'shard' | 'drain'>,
  desired: string | undefined,
  live: ReadonlySet<string>,
  reaped: ReadonlySet<string>,
): Move | undefined {
  if (!desired) return undefined; // no shard alive: nothing to move to
  const { shard, drain } = cur;
  if (!shard) return { mode: 'assign', to: desired };
  if (!live.has(shard)) return reaped.has(shard) ? { mode: 'reassign', from: shard, to: desired } : undefined;
  if (shard === desired) return drain !== undefined ? { mode: 'undrain', shard } : undefined;
  if (drain === desired) return undefined; // asked already; waiting for the shard's acknowledgement
  return { mode: 'drain', from: shard, to: desired };
}

export interface PassInput {
  /** The shard the ring assigns a hash key to; undefined when no shard is alive. */
  shardFor(hashKey: string): string | undefined;
  live: ReadonlySet<string>;
  /** The gone shards whose Lease the assigner holds: only their objects are moved away from them. */
  reaped: ReadonlySet<string>;
  main: readonly MainObject[];
  owned: readonly OwnedObject[];
}

/** The gone shards that objects of reconciled kinds are still labelled with: the Leases the assigner must take before it moves them. */
export function goneShards(main: readonly Pick<ObjectState, 'shard'>[], live: ReadonlySet<string>): string[] {
  const gone = new Set<string>();
  for (const obj of main) if (obj.shard !== undefined && !live.has(obj.shard)) gone.add(obj.shard);
  return [...gone].sort();
}

/**
 * One full pass. Owned moves come first in the result: they go out before the owners' moves, so
 * a shard receiving an owner already caches what it owns.
 */
export function planPass({ shardFor, live, reaped, main, owned }: PassInput): {
  owned: Planned<OwnedObject>[];
  main: Planned<MainObject>[];
} {
  const mainMoves: Planned<MainObject>[] = [];
  // Where each owner will be once this pass is done: undefined while it drains (its shard moves
  // what it owns), or when it has nowhere to go.
  const ownerTarget = new Map<string, string | undefined>();
  for (const obj of main) {
    const move = decideMain(obj, shardFor(obj.hashKey), live, reaped);
    if (move) mainMoves.push({ obj, move });
    const draining =
      move?.mode === 'drain' ||
      (move === undefined && obj.drain !== undefined && obj.shard !== undefined && obj.drain !== obj.shard);
    const target = draining ? undefined : move?.mode === 'assign' || move?.mode === 'reassign' ? move.to : obj.shard;
    const where = target && live.has(target) ? target : undefined;
    if (obj.uid) ownerTarget.set(obj.uid, where);
    ownerTarget.set(`${groupKind(obj.gvk)}|${obj.hashKey}`, where);
  }
  const ownedMoves: Planned<OwnedObject>[] = [];
  for (const obj of owned) {
    const byUid = obj.owner.uid ? ownerTarget.get(obj.owner.uid) : undefined;
    const to = byUid ?? ownerTarget.get(`${obj.owner.groupKind}|${obj.owner.key}`);
    if (to && obj.shard !== to)
      ownedMoves.push({ obj, move: obj.shard ? { mode: 'follow', from: obj.shard, to } : { mode: 'follow', to } });
  }
  return { owned: ownedMoves, main: mainMoves };
}

/**
 * The merge patch that makes `move`, conditional on the resourceVersion the decision was made
 * on: if the object changed since (its shard acknowledged a drain, someone relabelled it), the
 * write fails with a conflict and the next pass decides again.
 */
export function movePatch(
  ring: string,
  move: Move,
  resourceVersion: string | undefined,
): { metadata: Record<string, unknown> } {
  const shard = shardLabel(ring);
  const drain = drainLabel(ring);
  const labels: Record<string, string | null> = {};
  switch (move.mode) {
    case 'assign':
    case 'reassign':
      labels[shard] = move.to;
      labels[drain] = null;
      break;
    case 'drain':
      labels[drain] = move.to;
      break;
    case 'undrain':
      labels[drain] = null;
      break;
    case 'follow':
      labels[shard] = move.to;
      break;
  }
  return { metadata: { ...(resourceVersion ? { resourceVersion } : {}), labels } };
}
