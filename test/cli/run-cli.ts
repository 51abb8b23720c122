/**
 * Running the built CLI (bin/tsop.js) as a user types it, and a fingerprint of a directory, for
 * the tests that check a command's output and that it left the directory as it was.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const bin = fileURLToPath(new URL('../../bin/tsop.js', import.meta.url));

/** `tsop <args>` in `cwd`: its exit code and output; never rejects. */
export async function tsop(
  cwd: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Every path under `dir` with its mode and content (git's own directory aside: git reads refresh it). */
export function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      if (rel === '' && name === '.git') continue;
      const path = join(rel, name);
      const st = statSync(join(dir, path));
      hash.update(`${path}\0${st.mode}\0`);
      if (st.isDirectory()) walk(path);
      else hash.update(readFileSync(join(dir, path)));
    }
  };
  walk('');
  return hash.digest('hex');
}
