/**
 * `tsop bundle validate` reports what operator-sdk's reports on the same bundles: each fixture under
 * fixtures/ is a bundle with one thing broken (or none), its args.json the flags, and expected.json
 * operator-sdk v1.42.3's json-alpha1 output (regenerate with scripts/olm-validate-expectations.sh).
 * Order is compared as a multiset: operator-sdk walks Go maps, whose order varies run to run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/olm/validate/run.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');

function options(args: string[]): { selectOptional?: string; optionalValues: Record<string, string> } {
  const out: { selectOptional?: string; optionalValues: Record<string, string> } = { optionalValues: {} };
  for (let i = 0; i < args.length; i += 2) {
    if (args[i] === '--select-optional') out.selectOptional = args[i + 1]!;
    if (args[i] === '--optional-values') {
      const [k, v] = args[i + 1]!.split('=');
      out.optionalValues[k!] = v!;
    }
  }
  return out;
}

const sorted = (outputs: Array<{ type: string; message: string }>): string[] =>
  outputs.map((o) => `${o.type} ${o.message}`).sort();

describe('bundle validate matches operator-sdk', () => {
  const cases = readdirSync(FIXTURES).sort();
  it('has at least 10 broken bundles', () => {
    expect(cases.filter((c) => !c.startsWith('valid')).length).toBeGreaterThanOrEqual(10);
  });
  for (const name of cases) {
    it(name, () => {
      const dir = join(FIXTURES, name);
      const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as {
        passed: boolean;
        outputs: Array<{ type: string; message: string }>;
      };
      const args = JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8')) as string[];
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        const result = validateBundle(join(dir, 'bundle'), options(args));
        expect(sorted(result.outputs)).toEqual(sorted(expected.outputs));
        expect(result.passed).toBe(expected.passed);
      } finally {
        process.chdir(cwd);
      }
    });
  }
});
