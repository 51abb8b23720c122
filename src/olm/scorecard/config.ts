/**
 * The scorecard configuration (scorecard.operatorframework.io/v1alpha3 Configuration): stages of
 * tests, each with its image, entrypoint and labels. tsop runs the tests whose entrypoint names
 * one of its built-in tests and the selector picks; others are reported as errors, not skipped.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../../errors.js';
import { isObj, list, obj, str } from '../objects.js';
import { parseDocuments } from '../../yaml/documents-reader.js';

export interface TestConfig {
  image: string;
  entrypoint: string[];
  labels: Record<string, string>;
}

export function readScorecardConfig(path: string): TestConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(
      `scorecard: no configuration at ${path}; generate the bundle with config/scorecard in config/manifests ('tsop generate kustomize manifests' writes it), or pass --config`,
    );
  }
  const doc = parseDocuments(text, path)[0];
  if (doc?.['kind'] !== 'Configuration')
    throw new UserError(
      `${path}: not a scorecard Configuration (kind: Configuration); regenerate it with 'tsop generate bundle'`,
    );
  return list(doc['stages']).flatMap((stage) =>
    list(obj(stage)['tests'])
      .filter(isObj)
      .map((t) => ({
        image: str(t['image']),
        entrypoint: list(t['entrypoint']).map(String),
        labels: Object.fromEntries(Object.entries(obj(t['labels'])).map(([k, v]) => [k, String(v)])),
      })),
  );
}
