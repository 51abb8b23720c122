import { describe, expect, it } from 'vitest';
import { isRangeSpec, mergePackageJson } from '../../src/upgrade/package-json.js';

const labels = { from: '0.1.0', to: '0.2.0' };
const pkg = (devDependencies: Record<string, string>, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ name: 'shop', scripts: { test: 'vitest run' }, ...extra, devDependencies }, null, 2)}\n`;

describe('package.json merged as data', () => {
  it("keeps the user's tarball install of tsop where the template moves its range, and merges the rest key by key", () => {
    const merged = mergePackageJson(
      pkg({ '@types/node': '^20.0.0', tsop: 'file:../tsop-0.2.0.tgz', typescript: '^5.6.0' }),
      pkg({ '@types/node': '^20.0.0', tsop: '^0.1.0', typescript: '^5.6.0' }),
      pkg({ '@types/node': '^22.0.0', tsop: '^0.2.0', typescript: '^5.6.0' }),
      labels,
    );
    expect(merged).toEqual({
      text: pkg({ '@types/node': '^22.0.0', tsop: 'file:../tsop-0.2.0.tgz', typescript: '^5.6.0' }),
      conflicts: false,
      notes: [],
    });
  });

  it('a dev dependency added next to tsop is no conflict when both sides changed the tsop line the same', () => {
    const merged = mergePackageJson(
      pkg({ '@types/semver': '^7.5.0', tsop: '^0.2.0', typescript: '^5.6.0' }),
      pkg({ tsop: '^0.1.0', typescript: '^5.6.0' }),
      pkg({ tsop: '^0.2.0', typescript: '^5.7.0' }),
      labels,
    );
    expect(merged?.conflicts).toBe(false);
    expect(JSON.parse(merged!.text).devDependencies).toEqual({
      '@types/semver': '^7.5.0',
      tsop: '^0.2.0',
      typescript: '^5.7.0',
    });
    // Keys keep their order: the user's, then what the template adds, the dependency maps sorted.
    expect(Object.keys(JSON.parse(merged!.text))).toEqual(['name', 'scripts', 'devDependencies']);
  });

  it("a range follows the template's; a tarball or git spec that still names the old version stays, with a note", () => {
    const range = mergePackageJson(pkg({ tsop: '^0.1.3' }), pkg({ tsop: '^0.1.0' }), pkg({ tsop: '^0.2.0' }), labels);
    expect(JSON.parse(range!.text).devDependencies.tsop).toBe('^0.2.0');
    const old = mergePackageJson(
      pkg({ tsop: 'file:../tsop-0.1.0.tgz' }),
      pkg({ tsop: '^0.1.0' }),
      pkg({ tsop: '^0.2.0' }),
      labels,
    );
    expect(JSON.parse(old!.text).devDependencies.tsop).toBe('file:../tsop-0.1.0.tgz');
    expect(old!.notes).toEqual([
      expect.stringMatching(
        /^package\.json installs tsop from file:\.\.\/tsop-0\.1\.0\.tgz, which looks like tsop 0\.1\.0; point it at tsop 0\.2\.0/,
      ),
    ]);
    expect([
      isRangeSpec('^0.2.0'),
      isRangeSpec('latest'),
      isRangeSpec('github:o/tsop#v0.2.0'),
      isRangeSpec('../t.tgz'),
    ]).toEqual([true, true, false, false]);
  });

  it('a key both sides changed differently is a conflict with markers around that entry alone', () => {
    const merged = mergePackageJson(
      pkg({ tsop: '^0.2.0' }, { engines: { node: '>=22' } }),
      pkg({ tsop: '^0.1.0' }, { engines: { node: '>=20' } }),
      pkg({ tsop: '^0.2.0' }, { engines: { node: '>=20.19' } }),
      labels,
    );
    expect(merged?.conflicts).toBe(true);
    expect(merged!.text).toContain(
      [
        '  "engines": {',
        '<<<<<<< package.json (yours)',
        '    "node": ">=22"',
        '=======',
        '    "node": ">=20.19"',
        '>>>>>>> package.json (tsop 0.2.0)',
        '  },',
      ].join('\n'),
    );
  });

  it('leaves text that is not a JSON object to the line merge', () => {
    expect(mergePackageJson('<<<<<<<', pkg({}), pkg({}), labels)).toBeUndefined();
  });
});
