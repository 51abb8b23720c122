/**
 * A CSV's spec.version, read as operator-sdk v1.42.3 reads it (operator-framework/api's
 * OperatorVersion: blang/semver's ParseTolerant on a JSON string). The verdicts are what
 * operator-sdk's `bundle validate` gave on the same bundles (test/anchors/operator-sdk.test.ts
 * runs both side by side): a version it cannot decode stops it before any check, one it decodes
 * passes, and 0.0.0 is "not set" for the operatorhub validator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/olm/validate/run.js';
import { CSV_FILE, CSV_VERSION_CASES, withCsvVersion } from './csv-version-cases.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/valid-operatorframework/bundle');
const work = mkdtempSync(join(tmpdir(), 'tsop-csv-version-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
const bundleWithVersion = (yaml: string): string => withCsvVersion(FIXTURE, join(work, `b${++n}`), yaml);

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
        [
          `bundle validate: unable to parse CSV ${join(dir, CSV_FILE)}: spec.version`,
          `${JSON.stringify(yaml.replace(/^'|'$/g, ''))} is not a semantic version (${refusal}); write`,
          `MAJOR.MINOR.PATCH, e.g. 0.0.1`,
        ].join(' '),
      );
    }
  });

  it('calls 0.0.0 (build metadata aside) not set, for the operatorhub validator only', () => {
    for (const dir of [bundleWithVersion('0.0.0'), bundleWithVersion('0.0.0+build')]) {
      expect(validateBundle(dir, {}).passed).toBe(true);
      const hub = validateBundle(dir, { selectOptional: 'name=operatorhub' });
      expect(hub.outputs).toContainEqual({
        type: 'error',
        message: expect.stringContaining('csv.Spec.Version must be set'),
      });
    }
  });

  it('refuses an empty version, and one that is not a string, as Go decodes them', () => {
    expect(() => validateBundle(bundleWithVersion('""'), {})).toThrow(
      'spec.version "" is not a semantic version (strconv.ParseUint: parsing "": invalid syntax)',
    );
    const dir = bundleWithVersion('1');
    expect(() => validateBundle(dir, {})).toThrow(
      'spec.version 1 is not a semantic version (json: cannot unmarshal number into Go struct field ClusterServiceVersionSpec.spec.version of type string)',
    );
  });
});
