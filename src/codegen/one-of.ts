/**
 * The CEL rule of controller-gen's one-of markers (`ExactlyOneOf`, `AtMostOneOf`, `AtLeastOneOf`),
 * spelled as controller-gen v0.21 spells it, for the markers themselves and for union members.
 */
import type { ValidationRule } from './jsonschema.js';

export type OneOf = 'ExactlyOneOf' | 'AtMostOneOf' | 'AtLeastOneOf';

const FORMS: Record<OneOf, { op: string; phrase: string }> = {
  ExactlyOneOf: { op: '== 1', phrase: 'exactly one' },
  AtMostOneOf: { op: '<= 1', phrase: 'at most one' },
  AtLeastOneOf: { op: '>= 1', phrase: 'at least one' },
};

export function isOneOf(name: string): name is OneOf {
  return Object.hasOwn(FORMS, name);
}

export function oneOfPhrase(name: OneOf): string {
  return FORMS[name].phrase;
}

export function oneOfRule(name: OneOf, fields: readonly string[]): ValidationRule {
  const { op, phrase } = FORMS[name];
  const has = fields.map((f) => `has(self.${f})`).join(',');
  return {
    rule: `[${has}].filter(x,x==true).size() ${op}`,
    message: `${phrase} of the fields in [${fields.join(' ')}] ${phrase.startsWith('at most') ? 'may' : 'must'} be set`,
  };
}
