/**
 * The tutorial's one source of truth: every file and command the test assembles
 * (docs/tutorial/project/) is shown on its chapter's page, and every snippet a page includes
 * exists with the region it names, so what a reader sees is what CI builds. Chapter 7 carries
 * chapter 5's webhook files again (its `--force` rewrote them): they may differ only by the
 * conversion registration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLines, outputPatterns, readChapters, TSOP, TUTORIAL } from './tutorial/chapters.js';
import { shellLine } from './tutorial/assemble.js';

const page = (chapter: string): string => readFileSync(join(TSOP, 'docs/tutorial', `${chapter}.md`), 'utf8');
const includes = (text: string): Array<{ path: string; region?: string }> =>
  [...text.matchAll(/^<<< @\/(\S+?)(?:#([\w-]+))?(?:\{\w+\})?(?: \[[^\]]+\])?$/gm)].map((m) => ({
    path: m[1] ?? '',
    ...(m[2] ? { region: m[2] } : {}),
  }));

describe('the CronJob tutorial sources', () => {
  const chapters = readChapters();

  it('has its seven chapters, each with a page', () => {
    expect(chapters.map((c) => c.name)).toEqual([
      '01-project',
      '02-api',
      '03-controller',
      '04-testing',
      '05-webhooks',
      '06-deploying',
      '07-multiversion',
    ]);
    for (const c of chapters) expect(existsSync(join(TSOP, 'docs/tutorial', `${c.name}.md`)), c.name).toBe(true);
  });

  it('shows every file and the commands of a chapter on its page', () => {
    for (const c of chapters) {
      const shown = new Set(includes(page(c.name)).map((i) => i.path));
      if (c.commands.length > 0)
        expect(shown, `${c.name}: commands.sh`).toContain(`tutorial/project/${c.name}/commands.sh`);
      for (const f of c.files) expect(shown, `${c.name}: ${f}`).toContain(`tutorial/project/${c.name}/files/${f}`);
      if (c.output.length > 0)
        expect(shown, `${c.name}: output.txt`).toContain(`tutorial/project/${c.name}/output.txt`);
    }
  });

  it('includes only files that exist, and regions that are in them', () => {
    for (const c of chapters) {
      for (const inc of includes(page(c.name))) {
        const file = join(TSOP, 'docs', inc.path);
        expect(existsSync(file), `${c.name}: ${inc.path}`).toBe(true);
        if (inc.region) {
          const text = readFileSync(file, 'utf8');
          expect(text, `${c.name}: ${inc.path}#${inc.region}`).toContain(`// #region ${inc.region}\n`);
          expect(text, `${c.name}: ${inc.path}#${inc.region}`).toContain(`// #endregion ${inc.region}\n`);
        }
      }
    }
  });

  it('shows each code once: a file shown in pieces is not also shown whole, and its pieces are the whole file in order', () => {
    // Chapter 7 shows the webhook file whole (what the regenerated file must become) and the
    // lines it adds to chapter 5's: the diff to apply, beside the result.
    const diffShown = new Set(['tutorial/project/07-multiversion/files/src/webhooks/v1/cronjob-webhook.ts']);
    for (const c of chapters) {
      const byPath = new Map<string, Array<string | undefined>>();
      for (const inc of includes(page(c.name))) byPath.set(inc.path, [...(byPath.get(inc.path) ?? []), inc.region]);
      for (const [path, regions] of byPath) {
        if (regions.every((r) => r === undefined) || diffShown.has(path)) continue;
        expect(regions, `${c.name}: ${path} is shown in pieces and whole`).not.toContain(undefined);
        const lines = readFileSync(join(TSOP, 'docs', path), 'utf8').split('\n');
        const order: string[] = [];
        let inside = false;
        for (const [i, line] of lines.entries()) {
          const marker = /^\s*\/\/ #(end)?region ([\w-]+)$/.exec(line);
          if (marker) {
            inside = !marker[1];
            if (inside) order.push(marker[2]!);
          } else if (!inside && line.trim() !== '')
            expect.fail(`${c.name}: ${path}:${i + 1} is in no region, so no piece on the page shows it`);
        }
        expect(regions, `${c.name}: ${path}'s pieces, in the page's order`).toEqual(order);
      }
    }
  });

  it("chapter 7's webhook files are chapter 5's, plus the conversion registration", () => {
    const at = (chapter: string, f: string) =>
      readFileSync(join(TUTORIAL, chapter, 'files/src/webhooks/v1', f), 'utf8');
    expect(at('07-multiversion', 'cronjob-webhook.test.ts')).toBe(at('05-webhooks', 'cronjob-webhook.test.ts'));
    const added = (a: string, b: string) => b.split('\n').filter((l) => !a.split('\n').includes(l));
    const removed = (a: string, b: string) => a.split('\n').filter((l) => !b.split('\n').includes(l));
    const v5 = at('05-webhooks', 'cronjob-webhook.ts');
    const v7 = at('07-multiversion', 'cronjob-webhook.ts');
    for (const line of added(v5, v7))
      expect(line, 'a line chapter 7 adds').toMatch(/conversion|Conversion|#(end)?region setup|the hub\.$/);
    for (const line of removed(v5, v7))
      expect(line, 'a line chapter 7 drops').toMatch(/^import \{ webhookFor,|webhook server\.$/);
  });

  it('reads output.txt as patterns, … standing for any text and a column gap for any width', () => {
    const [wrote, created] = outputPatterns("wrote … files for 'x' in …/x\n…\ncreated src/a.ts\n");
    expect(wrote?.test("wrote 235 files for 'x' in /tmp/a/x")).toBe(true);
    expect(wrote?.test("wrote 235 files for 'y' in /tmp/a/y")).toBe(false);
    expect(created?.test('created src/a.ts')).toBe(true);
    expect(created?.test('created src/aXts')).toBe(false);
    expect(outputPatterns('…\n\n')).toEqual([]);
    expect(outputPatterns('NAME   AGE')[0]?.test('NAME      AGE')).toBe(true);
  });

  it("reads commands as a shell would see them, and runs a reader's `npx tsop@latest` from this checkout", () => {
    expect(commandLines('# a comment\n\nnpm test\n  npx tsop version  \n')).toEqual(['npm test', 'npx tsop version']);
    expect(shellLine('npx tsop@latest init --domain x')).toBe(
      `node ${JSON.stringify(join(TSOP, 'bin/tsop.js'))} init --domain x`,
    );
    expect(shellLine('cd p && npx tsop@latest version')).toContain('&& node ');
    expect(shellLine('npx tsop create api')).toBe('npx tsop create api');
  });
});
