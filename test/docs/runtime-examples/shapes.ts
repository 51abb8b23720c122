/** The shapes a marker's argument takes, shared with the tsop CLI that reads them: a CEL rule here. */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { Resource, XValidation } from '../../../runtime/markers/index.js';
import type { ValidationRule } from '../../../runtime/shapes/index.js';

// A ValidationRule becomes one entry of the CRD's x-kubernetes-validations.
const minBelowMax: ValidationRule = {
  rule: 'self.min <= self.max',
  message: 'min must not exceed max',
  fieldPath: '.min',
};

@XValidation(minBelowMax)
export class Range {
  min!: number;
  max!: number;
}

@Resource()
export class Autoscaler {
  metadata?: V1ObjectMeta;
  spec?: { replicas?: Range };
}
