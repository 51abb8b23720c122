/**
 * Validates a bundle directory: the default checks, then the optional validators the selector
 * picks, findings in that order (warnings of each validator before its errors, as operator-sdk
 * lists them), and whether it passed (no error).
 */
import { UserError } from '../../errors.js';
import { loadBundleDir } from './bundle-dir.js';
import type { Check } from './check.js';
import { findingMessage, type Finding } from './finding.js';
import { parseSelector, selects } from '../selector.js';
import { DEFAULT_CHECKS, OPTIONAL_VALIDATORS } from './registry.js';

export interface ValidationResult {
  passed: boolean;
  outputs: Array<{ type: 'error' | 'warning'; message: string }>;
}

export function validateBundle(
  dir: string,
  opts: { selectOptional?: string; optionalValues?: Record<string, string> },
): ValidationResult {
  let optional: Check[][] = [];
  if (opts.selectOptional !== undefined && opts.selectOptional !== '') {
    const selector = parseSelector(opts.selectOptional);
    if (!selector)
      throw new UserError(
        `--select-optional: '${opts.selectOptional}' is not a label selector; write key=value terms separated by commas, e.g. suite=operatorframework`,
      );
    const chosen = OPTIONAL_VALIDATORS.filter((v) => selects(selector, v.labels));
    if (chosen.length === 0)
      throw new UserError(
        `--select-optional: selector "${opts.selectOptional}" does not match any validator labels; 'tsop bundle validate --list-optional' lists them`,
      );
    optional = chosen.map((v) => v.checks);
  }
  const bundle = loadBundleDir(dir);
  const ctx = { bundle, values: opts.optionalValues ?? {} };
  const findings: Finding[] = [];
  const byValidator = (checks: readonly Check[]): void => {
    const groups = new Map<string, Finding[]>();
    for (const check of checks)
      groups.set(check.validator, [...(groups.get(check.validator) ?? []), ...check.run(ctx)]);
    for (const group of groups.values())
      findings.push(...group.filter((f) => f.level === 'Warning'), ...group.filter((f) => f.level === 'Error'));
  };
  byValidator(DEFAULT_CHECKS);
  for (const checks of optional) byValidator(checks);
  const outputs = findings.map((f) => ({
    type: f.level === 'Error' ? ('error' as const) : ('warning' as const),
    message: findingMessage(f),
  }));
  return { passed: !outputs.some((o) => o.type === 'error'), outputs };
}
