/**
 * `tsop manifests --verify` in process, against a real API server it starts itself: on a project
 * with a CEL rule that does not compile, one over the cost budget, a lookahead @Pattern (not RE2)
 * and a sample over @Maximum, all four are reported at file:line in one run (the generator's error and the server's together);
 * a good project passes and shows the default the server applied, with the @Default it came from.
 * A two-version project shows the rest: findings per version, samples by generateName, in another
 * namespace, of built-in and of unknown kinds, defaults in list items, fields the stored version drops.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runManifests } from '../../src/cli/manifests.js';
import { UserErrors } from '../../src/errors.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function verify(dir: string): Promise<{ out: string; err: string; errors: string[] }> {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
  try {
    await runManifests({ dir, verify: true }, io);
    return { out, err, errors: [] };
  } catch (error) {
    if (!(error instanceof UserErrors)) throw error;
    return { out, err, errors: error.errors.map((e) => e.message) };
  }
}

describe('manifests --verify', { timeout: 120_000 }, () => {
  it('reports the bad CEL rule, the costly one, the non-RE2 pattern and the invalid sample in one run, each at file:line', async () => {
    const r = await verify(fixture('bad'));
    expect(r.errors).toHaveLength(4);
    const [sample, cel, pattern, cost] = r.errors;
    // The sample: its own line, and the decorator whose rule it broke.
    expect(sample).toMatch(
      /^config\/samples\/cache_v1_cache\.yaml:6: Cache cache-sample: spec\.size: .*less than or equal to 5 \(from src\/api\/v1\/cache\.ts:12 @Maximum\)$/,
    );
    // The server's CEL compile error, at the @XValidation line (found by the rule's text).
    expect(cel).toMatch(
      /^src\/api\/v1\/cache\.ts:8: Cache v1 \.spec: @XValidation rule "self\.size >": compilation failed: .*Syntax error/,
    );
    // The generator's RE2 check, at the @Pattern line; the server saw the CRD without it.
    expect(pattern).toMatch(
      /^src\/api\/v1\/cache\.ts:16: CacheSpec\.volume: @Pattern\("\^\(\?!tmp\)\[a-z\]\+\$"\): .*RE2/,
    );
    // A rule over the cost budget, at its own decorator.
    expect(cost).toMatch(
      /^src\/api\/v1\/cache\.ts:24: Cache v1 \.spec\.tags: @XValidation rule "self\.all\(x, self\.all\(y, x\.matches\(y\)\)\)": Forbidden: estimated rule cost exceeds budget/,
    );
    for (const line of r.errors) expect(line).not.toContain('\n');
    expect(r.err).toMatch(/^tsop: verified 1 CRD and 1 sample on kube-apiserver v1\.\d+\.\d+ in [\d.]+ s: 4 errors\n$/);
  });

  it('passes a good project and shows the default the server applied to the sample', async () => {
    const r = await verify(fixture('good'));
    expect(r.errors).toEqual([]);
    expect(r.out).toBe(
      'config/samples/cache_v1_cache.yaml:5: Cache cache-sample: spec.port defaulted to 11211 (from src/api/v1/cache.ts:17 @Default)\n',
    );
    expect(r.err).toMatch(
      /^tsop: verified 1 CRD and 1 sample on kube-apiserver v1\.\d+\.\d+ in [\d.]+ s: no errors\n$/,
    );
  });
});

describe('manifests --verify on two versions and samples of several shapes', { timeout: 120_000 }, () => {
  it('maps a refusal to its version, a failed CEL rule and an unknown kind in samples, defaults of a list item, and fields the stored version drops', async () => {
    const r = await verify(fixture('edge'));
    expect(r.errors).toEqual([
      'config/samples/others.yaml:8: Stall nope: the API server serves no kind Stall in shop.example.com/v1; check apiVersion and kind against the @Resource classes',
      // A sample named by generateName is created with dry run; the rule's message leads back to its decorator.
      'config/samples/shop_v1_store.yaml:15: Store night-: spec: Invalid value: a store opens before it closes (from src/api/v1/store.ts:5 @XValidation)',
      expect.stringMatching(
        /^src\/api\/v2\/store\.ts:13: Store v2 \.spec\.windows: @XValidation rule "self\.size\(\) > 0 &&": compilation failed: /,
      ),
    ]);
    expect(r.out).toBe(
      'config/samples/shop_v2_store.yaml:7: Store market: spec.windows[0].to defaulted to 24 (from src/api/v2/store.ts:7 @Default)\n',
    );
    // v1's fields are not in v2, the stored version: the sample in its own namespace keeps neither.
    expect(r.err).toContain(
      'tsop: warning: config/samples/shop_v1_store.yaml:8: Store corner: the API server dropped spec.opensAt: ',
    );
    expect(r.err).toContain(
      'tsop: warning: config/samples/shop_v1_store.yaml:9: Store corner: the API server dropped spec.closesAt: ',
    );
    expect(r.err).toMatch(/verified 1 CRD and 5 samples on kube-apiserver v[\d.]+ in [\d.]+ s: 3 errors\n$/);
  });
});
