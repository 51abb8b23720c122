/**
 * The validators `tsop bundle validate` runs, as operator-sdk runs them: the default ones always
 * (bundle format, object kinds, BundleValidator, ClusterServiceVersionValidator), the optional
 * ones when `--select-optional` selects them by their labels (name=…, suite=…).
 */
import type { Check } from './check.js';
import { BUNDLE_CHECKS } from './checks/bundle.js';
import { CRD_CHECKS } from './checks/crd.js';
import { CSV_CHECKS } from './checks/csv.js';
import { DEPRECATED_API_CHECKS } from './checks/deprecated-apis.js';
import {
  CAPABILITIES_CHECKS,
  CATEGORIES_CHECKS,
  GOOD_PRACTICES_CHECKS,
  OPERATORHUB_DEPRECATED_CHECKS,
  OPERATORHUB_V2_CHECKS,
} from './checks/operatorhub.js';

export interface Validator {
  name: string;
  labels: Record<string, string>;
  description: string;
  checks: Check[];
}

/** Run on every bundle, in operator-sdk's order. */
export const DEFAULT_CHECKS: readonly Check[] = [
  ...BUNDLE_CHECKS.filter((c) => c.id === 'bundle-format' || c.id === 'bundle-object-kinds'),
  ...BUNDLE_CHECKS.filter((c) => c.validator === 'BundleValidator'),
  ...CSV_CHECKS,
  ...CRD_CHECKS,
];

export const OPTIONAL_VALIDATORS: readonly Validator[] = [
  {
    name: 'operatorhubv2',
    labels: { name: 'operatorhubv2', suite: 'operatorframework' },
    description: 'OperatorHub.io metadata validation.',
    checks: OPERATORHUB_V2_CHECKS,
  },
  {
    name: 'capabilities',
    labels: { name: 'capabilities', suite: 'operatorframework' },
    description: 'OperatorHub.io capabilities metadata validation.',
    checks: CAPABILITIES_CHECKS,
  },
  {
    name: 'categories',
    labels: { name: 'categories', suite: 'operatorframework' },
    description: 'OperatorHub.io categories metadata validation.',
    checks: CATEGORIES_CHECKS,
  },
  {
    name: 'operatorhub',
    labels: { name: 'operatorhub' },
    description: 'Deprecated OperatorHub.io metadata validation.',
    checks: OPERATORHUB_DEPRECATED_CHECKS,
  },
  {
    name: 'alpha-deprecated-apis',
    labels: { name: 'alpha-deprecated-apis', suite: 'operatorframework' },
    description:
      '(stage: alpha) APIs removed in Kubernetes 1.22, 1.25 and 1.26 (pass --optional-values k8s-version=<version>).',
    checks: DEPRECATED_API_CHECKS,
  },
  {
    name: 'good-practices',
    labels: { name: 'good-practices', suite: 'operatorframework' },
    description: 'Good practices for operator-framework bundles.',
    checks: GOOD_PRACTICES_CHECKS,
  },
];

export function listOptional(): string {
  const rows = OPTIONAL_VALIDATORS.flatMap((v) =>
    Object.entries(v.labels).map(([k, val], i) => [i === 0 ? v.name : '', `${k}=${val}`, i === 0 ? v.description : '']),
  );
  const width = (i: number): number =>
    Math.max(...[['NAME', 'LABELS', 'DESCRIPTION'], ...rows].map((r) => r[i]!.length)) + 4;
  return `${[['NAME', 'LABELS', 'DESCRIPTION'], ...rows]
    .map((r) => `${r[0]!.padEnd(width(0))}${r[1]!.padEnd(width(1))}${r[2]}`.trimEnd())
    .join('\n')}\n`;
}
