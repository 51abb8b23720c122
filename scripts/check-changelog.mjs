// npm's `version` step (package.json: "version"): the bumped version must have its section in
// CHANGELOG.md before `npm version` commits and tags it, so every release says what changed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Why `changelog` does not describe `version`, or undefined when it does. */
export function changelogProblem(version, changelog) {
  const heading = new RegExp(`^## ${version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm');
  if (!heading.test(changelog))
    return `CHANGELOG.md has no '## ${version}' section; write what changed in ${version} there, then run npm version again`;
  const body = changelog.slice(changelog.search(heading)).split('\n').slice(1);
  const next = body.findIndex((l) => l.startsWith('## '));
  if ((next < 0 ? body : body.slice(0, next)).every((l) => l.trim() === ''))
    return `CHANGELOG.md's '## ${version}' section is empty; say what changed`;
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  const problem = changelogProblem(version, readFileSync(`${root}CHANGELOG.md`, 'utf8'));
  if (problem) {
    process.stderr.write(`check-changelog: ${problem}\n`);
    process.exit(1);
  }
}
