/**
 * No test file builds tsop's dist/: test/setup/built-cli.ts builds it once before any file runs.
 * A build from a test rewrites dist/ while other workers run the CLI from it (a half-written file
 * fails them for no reason), and costs a whole tsc and bundle each time. Building a generated
 * project, or an older tsop unpacked elsewhere, is another directory and is fine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : testFiles(path);
    return /\.ts$/.test(e.name) ? [path] : [];
  });
}

/** The `npm run build` calls of `text` whose statement names tsop's own checkout as the directory. */
function buildsOfCheckout(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\[\s*'run',\s*(?:'--silent',\s*)?'build'\s*\]/g)) {
    const end = text.indexOf(';', m.index);
    const statement = text.slice(m.index, end < 0 ? undefined : end);
    if (/\bTSOP\b|import\.meta\.url/.test(statement)) {
      found.push(`line ${text.slice(0, m.index).split('\n').length}`);
    }
  }
  return found;
}

describe('test files and the built CLI', () => {
  it('finds a build of the checkout, and not one of another directory', () => {
    expect(buildsOfCheckout("await execa('npm', ['run', '--silent', 'build'], { cwd: TSOP });")).toEqual(['line 1']);
    expect(
      buildsOfCheckout(
        "x;\nawait execa('npm', ['run', 'build'], { cwd: fileURLToPath(new URL('../../', import.meta.url)) });",
      ),
    ).toEqual(['line 2']);
    expect(buildsOfCheckout("const build = await run('npm', ['run', 'build']);")).toEqual([]);
    expect(buildsOfCheckout("await execa('npm', ['run', '--silent', 'build'], { cwd: old });")).toEqual([]);
  });

  it('no test file builds dist/ (built-cli.ts does, once per run)', () => {
    const offenders = [...testFiles('test'), ...testFiles('runtime')]
      .filter((f) => relative('test/setup', f).startsWith('..') && f !== relative(ROOT, fileURLToPath(import.meta.url)))
      .flatMap((f) => buildsOfCheckout(readFileSync(join(ROOT, f), 'utf8')).map((at) => `${f}: ${at}`));
    expect(offenders).toEqual([]);
  });
});
