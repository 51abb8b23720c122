/**
 * The runtime reference's pages as a reader opens them, without TypeDoc: each module page starts
 * with what the module is for and its controller-runtime counterpart, puts what you call first
 * and the error classes last, and names no path into node_modules; the index has one line per
 * module, and a module without a counterpart fails the build by name.
 */
import { describe, expect, it } from 'vitest';
import {
  counterpartCoverage,
  runtimeModules,
  firstSentence,
  indexPage,
  moduleComment,
  modulePage,
  repositoryPaths,
} from '../../docs/scripts/reference/runtime-pages.js';
import { TSOP } from './tutorial/chapters.js';

/** A page the way typedoc-plugin-markdown writes one: classes (errors among them) before functions. */
const TYPEDOC = [
  '# manager',
  '',
  '## Classes',
  '',
  '<a id="startuperror"></a>',
  '',
  '### StartupError',
  '',
  'Defined in: some/checkout/runtime/manager/startup.ts:12',
  '',
  '##### Constructor',
  '',
  'Defined in: some/checkout/docs/node\\_modules/typescript/lib/lib.es5.d.ts:1080',
  '',
  'A start-up check failed.',
  '',
  '<a id="checks"></a>',
  '',
  '### Checks',
  '',
  'The checks run before the manager starts.',
  '',
  '## Functions',
  '',
  '### createManager()',
  '',
  'Builds a manager.',
  '',
].join('\n');

describe('the runtime reference pages', () => {
  it('open with the purpose, then what you call, and keep errors for the end', () => {
    const page = modulePage(TYPEDOC, 'manager', 'manager: runs an operator');
    expect(page.startsWith('# manager\n\nRuns an operator.\n\n**In controller-runtime:** `pkg/manager`')).toBe(true);
    const order = ['## Functions', '### createManager()', '## Classes', '### Checks', '## Errors', '### StartupError'];
    const at = order.map((h) => page.indexOf(`\n${h}\n`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(page).not.toMatch(/node\\?_modules/);
    expect(page).toContain('Defined in: `runtime/manager/startup.ts:12`');
  });

  it('say where a declaration is as a repository path', () => {
    expect(repositoryPaths('Defined in: a/b/runtime/x/y.ts:3\n')).toBe('Defined in: `runtime/x/y.ts:3`\n');
    expect(repositoryPaths('Defined in: a/docs/node_modules/typescript/lib/lib.es5.d.ts:1\n\nnext')).toBe('next');
  });

  it('have an index with one line per module: its purpose and its controller-runtime counterpart', () => {
    const modules = runtimeModules(TSOP).map((name) => ({ name, comment: moduleComment(TSOP, name) }));
    const index = indexPage(modules);
    for (const m of modules) {
      const row = index.split('\n').find((l) => l.startsWith(`| [${m.name}](./${m.name}) |`));
      expect(row, m.name).toBeDefined();
      expect(row?.split(' | ')[1]?.length ?? 0, m.name).toBeGreaterThan(10);
      expect(row?.split(' | ')[2]?.replace(/ \|$/, '').length ?? 0, m.name).toBeGreaterThan(3);
    }
    expect(counterpartCoverage(TSOP)).toEqual([]);
    expect(firstSentence('Reads it. Then writes it.')).toBe('Reads it.');
  });
});
