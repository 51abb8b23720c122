/**
 * What a check is: one rule of one validator, with its id, its level, what it says (the doc
 * `bundle validate --list-optional` and the docs show), and the function that finds it.
 */
import type { LoadedBundle } from './bundle-dir.js';
import type { Finding, Level } from './finding.js';

export interface CheckContext {
  bundle: LoadedBundle;
  /** --optional-values, e.g. { 'k8s-version': '1.25' }. */
  values: Readonly<Record<string, string>>;
}

export interface Check {
  id: string;
  /** The validator it belongs to (its name in operator-framework/api). */
  validator: string;
  level: Level | 'Error or Warning';
  doc: string;
  run(ctx: CheckContext): Finding[];
}
