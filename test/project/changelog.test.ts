/**
 * tsop's version moves with its releases: the current version has its section in CHANGELOG.md,
 * `npm version` runs the check that refuses a version without one, and the package ships the file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script of the repository, without types
import { changelogProblem } from '../../scripts/check-changelog.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  files: string[];
};
const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
const problem = changelogProblem as (version: string, text: string) => string | undefined;

describe('versions and the changelog', () => {
  it('the current version has a section in CHANGELOG.md, which the package ships', () => {
    expect(problem(pkg.version, changelog)).toBeUndefined();
    expect(pkg.files).toContain('CHANGELOG.md');
  });

  it("npm version's `version` step refuses a version without a section, or with an empty one", () => {
    expect(pkg.scripts['version']).toBe('node scripts/check-changelog.mjs && git add CHANGELOG.md');
    expect(problem('9.9.9', changelog)).toBe(
      "CHANGELOG.md has no '## 9.9.9' section; write what changed in 9.9.9 there, then run npm version again",
    );
    expect(problem('1.0.0', '# Changelog\n\n## 1.0.0\n\n## 0.9.0\n\n- x\n')).toBe(
      "CHANGELOG.md's '## 1.0.0' section is empty; say what changed",
    );
    expect(problem('0.9.0', '# Changelog\n\n## 1.0.0\n\n## 0.9.0\n\n- x\n')).toBeUndefined();
  });
});
