// `npm run lint`'s second half: no line of tsop's own code over 200 characters. Biome's formatter
// wraps code at 120 columns but leaves a long string or comment whole, and has no rule for it.
// The files are those git knows (tracked or new, not ignored), less what biome.json excludes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINE = 200;
const EXTENSIONS = ['.ts', '.mts', '.mjs', '.js'];

/** Whether biome.json's `files.includes` leaves `path` out: `!dir` is a folder, `!**\/name` one anywhere. */
export function excludedBy(includes, path) {
  return includes
    .filter((p) => p.startsWith('!'))
    .map((p) => p.slice(1))
    .some((p) =>
      p.startsWith('**/') ? `/${path}/`.includes(`/${p.slice(3)}/`) : path === p || path.startsWith(`${p}/`),
    );
}

/** `file:line: N characters` for each line of `text` longer than `max` characters (code points). */
export function longLines(file, text, max = MAX_LINE) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    const length = [...line].length;
    if (length > max) out.push(`${file}:${i + 1}: ${length} characters`);
  });
  return out;
}

/** The offenders among `files` (relative to `root`) that biome.json's `includes` keeps. */
export function checkFiles(root, files, includes) {
  return files
    .filter((f) => EXTENSIONS.some((e) => f.endsWith(e)) && !excludedBy(includes, f))
    .flatMap((f) => longLines(f, readFileSync(join(root, f), 'utf8')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { files } = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // A file deleted but not yet staged is still listed by --cached: skip what is gone.
  const present = listed.split('\0').filter((f) => f !== '' && existsSync(join(root, f)));
  const offenders = checkFiles(root, present, files.includes);
  for (const line of offenders) console.error(`${line} (limit ${MAX_LINE}): split it, or build it in a small function`);
  if (offenders.length > 0) {
    console.error(`check-line-length: ${offenders.length} line(s) over ${MAX_LINE} characters`);
    process.exit(1);
  }
}
