/**
 * Status conditions with metav1.Condition semantics (apimachinery's meta helpers):
 * a condition's lastTransitionTime moves only when its status flips; reason, message and
 * observedGeneration are updated in place. Functions mutate the given array and say whether
 * anything changed, so a reconciler writes status only when it has to.
 */

import type { Condition } from '../markers/index.js';

// One Condition type for the whole runtime: the one API classes declare their status with.
export type { Condition };
export type ConditionStatus = Condition['status'];

/** A condition to set; lastTransitionTime is filled in when missing. */
export type NewCondition = Omit<Condition, 'lastTransitionTime' | 'message'> & {
  lastTransitionTime?: string;
  message?: string;
};

/** metav1.Time precision: whole seconds, UTC, 'Z' suffix. */
export function formatTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Adds or updates `newCondition` in `conditions`. Returns true when the array changed.
 * `now` is injectable so tests can pin the transition time.
 */
export function setStatusCondition(
  conditions: Condition[],
  newCondition: NewCondition,
  now: Date = new Date(),
): boolean {
  const existing = conditions.find((c) => c.type === newCondition.type);
  if (!existing) {
    conditions.push({
      type: newCondition.type,
      status: newCondition.status,
      ...(newCondition.observedGeneration !== undefined ? { observedGeneration: newCondition.observedGeneration } : {}),
      lastTransitionTime: newCondition.lastTransitionTime ?? formatTime(now),
      reason: newCondition.reason,
      message: newCondition.message ?? '',
    });
    return true;
  }
  let changed = false;
  if (existing.status !== newCondition.status) {
    existing.status = newCondition.status;
    existing.lastTransitionTime = newCondition.lastTransitionTime ?? formatTime(now);
    changed = true;
  }
  if (existing.reason !== newCondition.reason) {
    existing.reason = newCondition.reason;
    changed = true;
  }
  const message = newCondition.message ?? '';
  if (existing.message !== message) {
    existing.message = message;
    changed = true;
  }
  if (existing.observedGeneration !== newCondition.observedGeneration) {
    if (newCondition.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = newCondition.observedGeneration;
    changed = true;
  }
  return changed;
}

/** Removes the condition of `type`; returns true when one was removed. */
export function removeStatusCondition(conditions: Condition[], type: string): boolean {
  const i = conditions.findIndex((c) => c.type === type);
  if (i < 0) return false;
  conditions.splice(i, 1);
  return true;
}

export function findStatusCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isStatusConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, 'True');
}

export function isStatusConditionFalse(conditions: readonly Condition[] | undefined, type: string): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, 'False');
}

export function isStatusConditionPresentAndEqual(
  conditions: readonly Condition[] | undefined,
  type: string,
  status: ConditionStatus,
): boolean {
  return findStatusCondition(conditions, type)?.status === status;
}
