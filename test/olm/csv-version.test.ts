/**
 * A CSV's spec.version, read as operator-sdk v1.42.3 reads it (operator-framework/api's
 * OperatorVersion: blang/semver's ParseTolerant on a JSON string). The verdicts are what
 * operator-sdk's `bundle validate` gave on the same bundles (test/anchors/operator-sdk.test.ts
 * runs both side by side): a version it cannot decode stops it before any check, one it decodes
 * passes, and 0.0.0 is "not set" for the operatorhub validator.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/olm/validate/run.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/valid-operatorframework/bundle');
const CSV = 'manifests/memcached-operator.clusterserviceversion.yaml';
const work = mkdtempSync(join(tmpdir(), 'tsop-csv-version-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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

let n = 0;
function bundleWithVersion(yaml: string): string {
  const dir = join(work, `b${++n}`);
  cpSync(FIXTURE, dir, { recursive: true });
  const text = readFileSync(join(dir, CSV), 'utf8');
  if (!text.includes('\n  version: 0.0.1\n')) throw new Error(`${CSV} has no spec.version line`);
  writeFileSync(join(dir, CSV), text.replace('\n  version: 0.0.1\n', `\n  version: ${yaml}\n`));
  return dir;
}

describe("bundle validate reads spec.version as operator-sdk's loader does", () => {
  it.each(CSV_VERSION_CASES)('version: %s', (yaml, refusal) => {
    const dir = bundleWithVersion(yaml);
    if (refusal === undefined) {
      expect(validateBundle(dir, {}).passed).toBe(true);
      // Decoded, it is set: the operatorhub validator does not call it missing.
      const hub = validateBundle(dir, { selectOptional: 'name=operatorhub' });
      expect(hub.outputs.map((o) => o.message).filter((m) => /Spec\.Version/.test(m))).toEqual([]);
    } else {
      expect(() => validateBundle(dir, {})).toThrow(
        `bundle validate: unable to parse CSV ${join(dir, CSV)}: spec.version ${JSON.stringify(yaml.replace(/^'|'$/g, ''))} is not a semantic version (${refusal}); write MAJOR.MINOR.PATCH, e.g. 0.0.1`,
      );
    }
  });

  it('calls 0.0.0 (and a missing version) not set, for the operatorhub validator only', () => {
    for (const dir of [bundleWithVersion('0.0.0'), bundleWithVersion('0.0.0+build')]) {
      expect(validateBundle(dir, {}).passed).toBe(true);
      const hub = validateBundle(dir, { selectOptional: 'name=operatorhub' });
      expect(hub.outputs).toContainEqual({
        type: 'error',
        message: expect.stringContaining('csv.Spec.Version must be set'),
      });
    }
  });

  it('refuses a version that is not a string, as Go decodes it', () => {
    const dir = bundleWithVersion('1');
    expect(() => validateBundle(dir, {})).toThrow(
      'spec.version 1 is not a semantic version (json: cannot unmarshal number into Go value of type string)',
    );
  });
});
