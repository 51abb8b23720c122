/**
 * Every file of the runtime tsop 0.1.0 embedded is still there, so a project's deep import of one
 * (`../runtime/apimachinery/http.js`) keeps compiling after `alpha update`: a file that moved
 * left a shim re-exporting, deprecated, every name the old file exported. 0.1.0 is read from this
 * repository's history (the commit test/e2e/upgrade-compat.int.test.ts builds it from).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runtimeFiles } from '../../src/scaffold/embedded-runtime.js';
import { HARNESS_SHIMS } from '../../src/scaffold/harness-shims.js';

const TSOP = fileURLToPath(new URL('../../', import.meta.url));
const OLD_RELEASE = 'cfaad5619cef5668fa4ddb933c5beef1c55b8146^';
const EMBEDDED = (path: string): boolean =>
  path.endsWith('.ts') && !/\.(test|contract)\.ts$/.test(path) && !/\/(test-fixtures|testdata)\//.test(path);

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: TSOP, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch {
    throw new Error(
      `this test reads tsop 0.1.0 from commit ${OLD_RELEASE}, which this clone lacks; run 'git fetch --unshallow'`,
    );
  }
}

/** The names a file exports at top level (declarations and export lists). */
function exportedNames(text: string): string[] {
  const names = [
    ...text.matchAll(/^export (?:async )?(?:function|const|let|class|abstract class|interface|type|enum) ([\w$]+)/gm),
  ].map((m) => m[1]!);
  for (const [, list] of text.matchAll(/^export (?:type )?\{([^}]*)\}/gm))
    for (const spec of list!.replace(/\/\*[\s\S]*?\*\//g, '').split(','))
      if (spec.trim())
        names.push(
          spec
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)
            .pop()!,
        );
  return names;
}

describe("the runtime files of tsop 0.1.0 (a project's deep imports)", () => {
  const old = git(['ls-tree', '-r', '--name-only', OLD_RELEASE, '--', 'runtime']).split('\n').filter(EMBEDDED);

  it('are all still there', () => {
    expect(old.length).toBeGreaterThan(100);
    expect(old.filter((p) => !existsSync(join(TSOP, p)))).toEqual([]);
  });

  it('a file that moved is a shim that still exports every name it did, each marked deprecated', () => {
    const shims = old.filter((p) => readFileSync(join(TSOP, p), 'utf8').startsWith('/**\n * Moved to runtime/'));
    expect(shims.sort()).toEqual([
      'runtime/apimachinery/connection.ts',
      'runtime/apimachinery/credentials.ts',
      'runtime/apimachinery/http.ts',
      'runtime/apimachinery/restmapper.ts',
    ]);
    for (const shim of shims) {
      const now = readFileSync(join(TSOP, shim), 'utf8');
      expect(exportedNames(now).sort(), shim).toEqual(exportedNames(git(['show', `${OLD_RELEASE}:${shim}`])).sort());
      expect(now.match(/@deprecated since tsop 0\.2\.0, removed in 0\.3\.0/g)?.length, shim).toBe(
        exportedNames(now).length,
      );
    }
  });
});

/** The commit that released tsop 0.2.0 (package.json's version moved to it there). */
const RELEASE_0_2 = '8a3a530';

describe("the test harness's files earlier templates imported (now in the package)", () => {
  const embedded = new Map(runtimeFiles());

  it('are no longer embedded, but for a shim at each old path', () => {
    const harness = [...embedded.keys()].filter((p) => /^src\/runtime\/(testing|envtest)\//.test(p));
    expect(harness.sort()).toEqual(HARNESS_SHIMS.map((s) => `src/runtime/${s.path}`).sort());
  });

  it.each(HARNESS_SHIMS.map((s) => s.path))(
    '%s re-exports every name 0.1.0 and 0.2.0 had there, from the package, each marked deprecated',
    (path) => {
      const shim = embedded.get(`src/runtime/${path}`)!;
      const names = exportedNames(shim);
      for (const release of [OLD_RELEASE, RELEASE_0_2]) {
        const old = exportedNames(git(['show', `${release}:runtime/${path}`]));
        expect(
          old.filter((n) => !names.includes(n)),
          `${path} of ${release}`,
        ).toEqual([]);
      }
      expect(shim).toMatch(/\n\} from 'tsop\/(testing|envtest|vitest)';\n$/);
      expect(
        shim.match(/@deprecated since tsop 0\.3\.0, removed in 0\.4\.0: import it from 'tsop\/\w+'\./g)?.length,
      ).toBe(names.length);
    },
  );

  it("each shim's names are what its package entry exports", () => {
    const pkg = JSON.parse(readFileSync(join(TSOP, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string }>;
    };
    for (const shim of HARNESS_SHIMS) {
      const entry = pkg.exports[`./${shim.from.slice('tsop/'.length)}`]?.types;
      expect(entry, shim.from).toBeDefined();
      const exported = exportedNames(readFileSync(join(TSOP, entry!), 'utf8'));
      expect(
        [...shim.values, ...shim.types].filter((n) => !exported.includes(n)),
        shim.path,
      ).toEqual([]);
    }
  });
});
