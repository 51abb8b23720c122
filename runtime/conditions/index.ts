/** metav1.Condition helpers: set (transition time only on status change), find, remove, test. */
export {
  type Condition,
  type ConditionStatus,
  type NewCondition,
  setStatusCondition,
  removeStatusCondition,
  findStatusCondition,
  isStatusConditionTrue,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  formatTime,
} from './conditions.js';
