import { describe, expect, it } from 'vitest';
import {
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionTrue,
  removeStatusCondition,
  setStatusCondition,
  type Condition,
} from './index.js';

const t0 = new Date('2026-01-01T10:00:00.123Z');
const t1 = new Date('2026-01-01T11:00:00Z');

describe('setStatusCondition', () => {
  it('adds a new condition with the transition time set to now (whole seconds)', () => {
    const conds: Condition[] = [];
    expect(
      setStatusCondition(conds, { type: 'Ready', status: 'False', reason: 'Creating', observedGeneration: 1 }, t0),
    ).toBe(true);
    expect(conds).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'Creating',
        message: '',
        observedGeneration: 1,
        lastTransitionTime: '2026-01-01T10:00:00Z',
      },
    ]);
  });

  it('keeps lastTransitionTime when only reason/message/generation change', () => {
    const conds: Condition[] = [];
    setStatusCondition(conds, { type: 'Ready', status: 'False', reason: 'Creating', observedGeneration: 1 }, t0);
    const changed = setStatusCondition(
      conds,
      { type: 'Ready', status: 'False', reason: 'Waiting', message: 'pods', observedGeneration: 2 },
      t1,
    );
    expect(changed).toBe(true);
    expect(conds[0]).toMatchObject({
      reason: 'Waiting',
      message: 'pods',
      observedGeneration: 2,
      lastTransitionTime: '2026-01-01T10:00:00Z',
    });
  });

  it('moves lastTransitionTime when the status flips', () => {
    const conds: Condition[] = [];
    setStatusCondition(conds, { type: 'Ready', status: 'False', reason: 'Creating' }, t0);
    setStatusCondition(conds, { type: 'Ready', status: 'True', reason: 'Available' }, t1);
    expect(conds[0]?.lastTransitionTime).toBe('2026-01-01T11:00:00Z');
    expect(isStatusConditionTrue(conds, 'Ready')).toBe(true);
    expect(isStatusConditionFalse(conds, 'Ready')).toBe(false);
  });

  it('reports no change for an identical condition and leaves the array untouched', () => {
    const conds: Condition[] = [];
    setStatusCondition(conds, { type: 'Ready', status: 'True', reason: 'Ok', message: 'm', observedGeneration: 3 }, t0);
    const before = structuredClone(conds);
    expect(
      setStatusCondition(
        conds,
        { type: 'Ready', status: 'True', reason: 'Ok', message: 'm', observedGeneration: 3 },
        t1,
      ),
    ).toBe(false);
    expect(conds).toEqual(before);
  });

  it('honours an explicit lastTransitionTime and keeps other types apart', () => {
    const conds: Condition[] = [];
    setStatusCondition(
      conds,
      { type: 'A', status: 'True', reason: 'r', lastTransitionTime: '2020-05-05T00:00:00Z' },
      t0,
    );
    setStatusCondition(conds, { type: 'B', status: 'Unknown', reason: 'r' }, t0);
    expect(findStatusCondition(conds, 'A')?.lastTransitionTime).toBe('2020-05-05T00:00:00Z');
    expect(conds.map((c) => c.type)).toEqual(['A', 'B']);
    expect(isStatusConditionTrue(conds, 'B')).toBe(false);
    expect(isStatusConditionFalse(conds, 'B')).toBe(false);
  });

  it('removeStatusCondition removes only the named type', () => {
    const conds: Condition[] = [];
    setStatusCondition(conds, { type: 'A', status: 'True', reason: 'r' }, t0);
    setStatusCondition(conds, { type: 'B', status: 'True', reason: 'r' }, t0);
    expect(removeStatusCondition(conds, 'A')).toBe(true);
    expect(removeStatusCondition(conds, 'A')).toBe(false);
    expect(conds.map((c) => c.type)).toEqual(['B']);
    expect(findStatusCondition(undefined, 'B')).toBeUndefined();
  });
});
