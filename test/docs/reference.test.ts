/**
 * The book's generated reference, without building the site: every CLI command and every marker
 * has its page (the check `npm run docs:build` fails on, shown failing on a command and a marker
 * left out), every marker's catalog example generates, the CLI pages come from commander's
 * definitions, and the README stays a short door into the book.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MARKERS } from '../../src/codegen/markers/index.js';
import { cliCommands, slugOf } from '../../docs/scripts/reference/cli.js';
import { changed } from '../../docs/scripts/reference/marker-examples.js';
import { markerSection, migrationTable } from '../../docs/scripts/reference/markers.js';
import { checkPages, readPages, type ReferencePage } from '../../docs/scripts/reference/pages.js';
import { TSOP } from './tutorial/chapters.js';

const DOCS = join(TSOP, 'docs');

describe('the CLI reference', () => {
  const commands = cliCommands();
  const pages = readPages(DOCS, 'reference/cli', 'commands');

  it('has a page for every command of the CLI, and none for a command that is gone', () => {
    expect(commands.map((c) => c.path)).toEqual(
      expect.arrayContaining(['init', 'create api', 'create webhook', 'edit', 'manifests', 'dev', 'alpha update']),
    );
    expect(checkPages({ kind: 'cli', pages, names: commands.map((c) => c.path), includeStem: slugOf })).toEqual([]);
  });

  it('fails, saying which page to add, when a command has none', () => {
    const without = pages.filter((p) => !p.names.includes('create webhook'));
    const problems = checkPages({
      kind: 'cli',
      pages: without,
      names: commands.map((c) => c.path),
      includeStem: slugOf,
    });
    expect(problems).toEqual([
      expect.stringContaining(
        "the command 'tsop create webhook' has no page in the book: add docs/reference/cli/create-webhook.md with 'commands: [create webhook]'",
      ),
    ]);
  });

  it('fails when a page names a command that is gone, or does not include its generated part', () => {
    const stale: ReferencePage = { file: 'reference/cli/gone.md', stem: 'gone', names: ['gone'], body: '' };
    const noInclude: ReferencePage = { ...pages.find((p) => p.names.includes('init'))!, body: 'prose only' };
    const problems = checkPages({
      kind: 'cli',
      pages: [...pages.filter((p) => !p.names.includes('init')), noInclude, stale],
      names: commands.map((c) => c.path),
      includeStem: slugOf,
    });
    expect(problems).toContain(
      "docs/reference/cli/gone.md: names the command 'tsop gone', which no longer exists; remove it from its 'commands:' list (or the page)",
    );
    expect(problems.some((p) => p.includes("does not include the generated reference of 'tsop init'"))).toBe(true);
  });

  it("lists each command's flags, defaults and examples from commander", () => {
    const init = commands.find((c) => c.path === 'init')!.markdown;
    expect(init).toContain('| `--domain <domain>` | domain of the API groups | `"my.domain"` |');
    expect(init).toContain('tsop init --domain example.com --owner "Acme Corp"');
    const create = commands.find((c) => c.path === 'create')!.markdown;
    expect(create).toContain('[`tsop create api`](./create-api)');
    // Vue compiles the pages: no raw angle brackets outside code.
    expect(commands.find((c) => c.path === 'edit')!.markdown).toContain('src/api/&lt;group&gt;/&lt;version&gt;');
  });
});

describe('the marker reference', () => {
  const pages = readPages(DOCS, 'reference/markers', 'markers');
  const names = MARKERS.map((m) => m.name);

  it('has every marker of the catalog on one page', () => {
    expect(checkPages({ kind: 'markers', pages, names, includeStem: (_n, p) => p.stem })).toEqual([]);
  });

  it('fails, saying where to add it, when a marker has no page', () => {
    const without = pages.map((p) => ({ ...p, names: p.names.filter((n) => n !== 'XValidation') }));
    expect(checkPages({ kind: 'markers', pages: without, names, includeStem: (_n, p) => p.stem })).toEqual([
      [
        "the marker @XValidation has no page in the book: add 'XValidation' to the 'markers:' list of the",
        'page under docs/reference/markers/ it belongs with (or a new page there) (see docs/contributing.md)',
      ].join(' '),
    ]);
  });

  it("generates every marker's example and shows the YAML it gives", () => {
    const sections = Object.fromEntries(MARKERS.map((m) => [m.name, markerSection(m)]));
    expect(sections['Minimum']).toContain('minimum: 1');
    expect(sections['Enum']).toMatch(/f:\n {2}enum:\n {4}- Allow/);
    expect(sections['XValidation']).toContain('rule: self.minReplicas <= self.maxReplicas');
    expect(sections['PrintColumn']).toContain('additionalPrinterColumns:');
    expect(sections['StorageVersion']).toMatch(/- name: v1\n {6}storage: true/);
    expect(sections['Rbac']).toContain('kind: ClusterRole');
    expect(sections['Webhook']).toContain('kind: MutatingWebhookConfiguration');
    expect(sections['Hub']).toContain('changes nothing in the generated manifests');
    for (const [name, text] of Object.entries(sections)) expect(text, name).toContain(`{#${name.toLowerCase()}}`);
  });

  it('keeps only what changed, matching named list entries by name', () => {
    expect(changed({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 3 } })).toEqual({ b: { c: 3 } });
    expect(
      changed(
        {
          v: [
            { name: 'v1', x: 1 },
            { name: 'v2', x: 1 },
          ],
        },
        { v: [{ name: 'v2', x: 2 }] },
      ),
    ).toEqual({
      v: [
        { name: 'v2', x: 2 },
        { name: 'v1', removed: true },
      ],
    });
    expect(changed({ a: 1 }, { a: 1 })).toBeUndefined();
  });

  it('maps every controller-gen marker to its decorator in the migration table', () => {
    const table = migrationTable((name) => pages.find((p) => p.names.includes(name))?.stem);
    for (const m of MARKERS)
      expect(table).toContain(`| \`${m.controllerGen.replace(/\|/g, '\\|')}\` | [\`@${m.name}\`](/reference/markers/`);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(TSOP, 'README.md'), 'utf8');
  it('is under 8 KB, keeps the two quick-start commands, and links into the book', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(8 * 1024);
    expect(readme).toContain('```sh\nnpm ci && npm run demo\nnpm test\n```');
    for (const m of readme.matchAll(/\]\(((?:docs|runtime)\/[^)#]+)/g))
      expect(existsSync(join(TSOP, m[1]!)), m[1]).toBe(true);
    expect(readme).toContain('docs/getting-started.md');
    expect(readme).toContain('docs/tutorial/index.md');
  });
});
