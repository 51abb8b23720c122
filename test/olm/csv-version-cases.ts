/**
 * The CSV spec.version cases tsop's validator and operator-sdk v1.42.3's are compared on, with the
 * verdict operator-sdk gave (test/olm/csv-version.test.ts checks tsop's against these;
 * test/anchors/operator-sdk.test.ts runs operator-sdk itself on them).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CSV_FILE = 'manifests/memcached-operator.clusterserviceversion.yaml';

/** The ten cases and operator-sdk's verdict on each: undefined (loads) or the reason it cannot parse the CSV. */
export const CSV_VERSION_CASES: ReadonlyArray<[yaml: string, refusal: string | undefined]> = [
  ['0.0.1', undefined],
  ['v0.0.1', undefined],
  ["'1'", undefined],
  ['01.0.0', undefined],
  ['" 2.0.0 "', undefined],
  ['1.2.3-rc.1+build.5', undefined],
  ['banana', 'Invalid character(s) found in major number "0banana"'],
  ['1.2-rc', 'Short version cannot contain PreRelease/Build meta data'],
  ['1.0.0-01', 'Numeric PreRelease version must not contain leading zeroes "01"'],
  ['1.2.3.4', 'Invalid character(s) found in patch number "3.4"'],
];

/** A copy of the bundle `from` in `to` whose CSV has `version: <yaml>`; returns `to`. */
export function withCsvVersion(from: string, to: string, yaml: string): string {
  cpSync(from, to, { recursive: true });
  const text = readFileSync(join(to, CSV_FILE), 'utf8');
  if (!text.includes('\n  version: 0.0.1\n')) throw new Error(`${CSV_FILE} has no spec.version line`);
  writeFileSync(join(to, CSV_FILE), text.replace('\n  version: 0.0.1\n', `\n  version: ${yaml}\n`));
  return to;
}
