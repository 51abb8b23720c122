/** Report what the operator saw in status.conditions; the transition time moves only when the status does. */
import {
  type Condition,
  findStatusCondition,
  isStatusConditionTrue,
  setStatusCondition,
} from '../../../runtime/conditions/index.js';

const conditions: Condition[] = [];
setStatusCondition(conditions, {
  type: 'Available',
  status: 'False',
  reason: 'Deploying',
  message: '0 of 3 pods ready',
});
setStatusCondition(conditions, {
  type: 'Available',
  status: 'True',
  reason: 'Ready',
  message: '3 of 3 pods ready',
  observedGeneration: 2,
});

console.log(isStatusConditionTrue(conditions, 'Available')); // true
console.log(findStatusCondition(conditions, 'Available')?.reason); // Ready
// Then write them with the status subresource: patchStatus(client, obj, {
// ...obj.status, conditions }).
