/**
 * The examples at the top of the runtime reference's module pages (test/docs/runtime-examples/):
 * one per module, each with a caption, importing the runtime only through a module's index (what a
 * project imports), shown on its page with a generated project's import paths. tsop's type-check
 * compiles them all; the ones that need no cluster run here, and print what their comments say.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  EXAMPLES_DIR,
  exampleCoverage,
  projectImports,
  runtimeExample,
} from '../../docs/scripts/reference/runtime-examples.js';
import { modulePage, runtimeModules } from '../../docs/scripts/reference/runtime-pages.js';
import { TSOP } from './tutorial/chapters.js';

/** The examples that run without a cluster, and what they print. */
const RUNNABLE: Record<string, string[]> = {
  apimachinery: ['shop/sessions', 'cache.example.com'],
  conditions: ['true', 'Ready'],
  queue: ['reconcile shop/sessions', 'reconcile shop/carts'],
};

/**
 * What each runnable example printed, run while the file loads: importing one compiles the runtime
 * modules it uses, which on a busy machine can take longer than a unit test's time limit.
 */
const printedBy = new Map<string, string[]>();
for (const module of Object.keys(RUNNABLE)) {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
  try {
    await import(`./runtime-examples/${module}.ts`);
  } finally {
    spy.mockRestore();
  }
  printedBy.set(module, lines);
}

const source = (module: string) => readFileSync(join(TSOP, EXAMPLES_DIR, `${module}.ts`), 'utf8');

describe('the runtime reference examples', () => {
  it('exist for every module runtime/index.ts re-exports, each with a caption', () => {
    expect(exampleCoverage(TSOP, runtimeModules(TSOP))).toEqual([]);
    expect(exampleCoverage(TSOP, ['no-such-module'])[0]).toMatch(
      /runtime\/no-such-module has no example: add test\/docs/,
    );
  });

  it('import the runtime through module indexes only, as a project does', () => {
    for (const m of runtimeModules(TSOP)) {
      const imports = [...source(m).matchAll(/from '([^']+)'/g)].map((i) => i[1] ?? '');
      const deep = imports.filter(
        (i) => i.includes('/runtime/') && !/^\.\.\/\.\.\/\.\.\/runtime\/[\w-]+\/index\.js$/.test(i),
      );
      expect(deep, m).toEqual([]);
      expect(
        imports.some((i) => i.startsWith(`../../../runtime/${m}/`)),
        `${m} imports its own module`,
      ).toBe(true);
    }
  });

  it("are shown with a generated project's import paths", () => {
    const code =
      "import { a } from '../../../runtime/client/index.js';\nimport { k } from './apimachinery.js';\nimport { x } from './other.js';";
    expect(projectImports(code, 'src/controllers')).toBe(
      "import { a } from '../runtime/client/index.js';\nimport { k } from '../api/v1alpha1/memcached.js';\nimport { x } from './other.js';",
    );
    expect(projectImports("from '../../../runtime/manager/index.js'", 'src')).toBe("from './runtime/manager/index.js'");
    const manager = runtimeExample(TSOP, 'manager');
    expect(manager?.folder).toBe('src');
    expect(manager?.code).toContain("from './runtime/manager/index.js'");
    expect(manager?.code).not.toContain('../../../');
    expect(manager?.caption.length).toBeGreaterThan(20);
  });

  it('open the module page, after what the module is for and before its API', () => {
    const typedoc = '# client\n\n## Functions\n\n### createClient()\n\nMakes one.\n';
    const page = modulePage(typedoc, 'client', 'client: the typed client.', runtimeExample(TSOP, 'client'));
    const at = ['The typed client.', '**In controller-runtime:**', '## Example', '```ts', '## Functions'].map((s) =>
      page.indexOf(s),
    );
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(page).toContain("from '../runtime/client/index.js'");
  });

  for (const [module, printed] of Object.entries(RUNNABLE)) {
    it(`${module}: runs and prints what its comments say`, () => {
      const lines = printedBy.get(module);
      expect(lines).toEqual(printed);
      // Every `console.log(…); // what it prints` comment is true.
      for (const [, said] of source(module).matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gm))
        expect(lines).toContain(said);
    });
  }
});
