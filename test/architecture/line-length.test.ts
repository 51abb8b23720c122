/**
 * The line-length half of `npm run lint` (scripts/check-line-length.mjs): a line over 200
 * characters in tsop's own code is named by file:line, and what biome.json leaves out (fixtures,
 * templates, node_modules) is left out here too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFiles, excludedBy, longLines, MAX_LINE } from '../../scripts/check-line-length.mjs';

const BIOME = JSON.parse(readFileSync(fileURLToPath(new URL('../../biome.json', import.meta.url)), 'utf8')) as {
  files: { includes: string[] };
};
const work = mkdtempSync(join(tmpdir(), 'tsop-line-length-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(dirname(join(work, path)), { recursive: true });
  writeFileSync(join(work, path), text);
  return path;
}

describe('the 200-character line limit', () => {
  it('names each line over the limit by file:line, counting characters rather than bytes', () => {
    const text = ['short', 'x'.repeat(MAX_LINE), 'y'.repeat(MAX_LINE + 1), '→'.repeat(MAX_LINE)].join('\n');
    expect(MAX_LINE).toBe(200);
    expect(longLines('src/a.ts', text)).toEqual(['src/a.ts:3: 201 characters']);
  });

  it("checks tsop's own .ts, .mts, .mjs and .js files and skips what biome.json excludes", () => {
    const long = `const s = '${'z'.repeat(MAX_LINE)}';\n`;
    const files = [
      write('src/long.ts', `// fine\n${long}`),
      write('scripts/long.mjs', long),
      write('bench/long.mts', long),
      write('bin/long.js', long),
      write('README.md', long),
      write('templates/base/src/main.ts', long),
      write('test/fixtures/scaffold/x/src/a.ts', long),
      write('runtime/test-fixtures/a.ts', long),
      write('docs/tutorial/project/01/files/a.ts', long),
    ];
    expect(checkFiles(work, files, BIOME.files.includes)).toEqual([
      `src/long.ts:2: ${MAX_LINE + 13} characters`,
      `scripts/long.mjs:1: ${MAX_LINE + 13} characters`,
      `bench/long.mts:1: ${MAX_LINE + 13} characters`,
      `bin/long.js:1: ${MAX_LINE + 13} characters`,
    ]);
  });

  it('reads a folder exclusion as the folder, and **/name as that folder anywhere', () => {
    expect(excludedBy(['!templates'], 'templates/a.ts')).toBe(true);
    expect(excludedBy(['!templates'], 'templatesque/a.ts')).toBe(false);
    expect(excludedBy(['!**/fixtures'], 'test/fixtures/a.ts')).toBe(true);
    expect(excludedBy(['!**/fixtures'], 'test/fixtures-like/a.ts')).toBe(false);
    expect(excludedBy(['**/*.ts'], 'src/a.ts')).toBe(false);
  });
});
