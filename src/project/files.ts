/**
 * The files of a folder on disk, for the code that reads a project as a set of paths: the
 * scaffolding tree, the upgrade's merge and the deprecated-use scan.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * Every file under `root/dir`, as posix paths relative to `root` (so starting with `dir`), in
 * directory order; folders named in `skip` are not entered. A folder that cannot be read counts
 * as empty.
 */
export function filesUnder(root: string, dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = rel ? posix.join(rel, e.name) : e.name;
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(path);
      } else if (e.isFile()) out.push(path);
    }
  };
  walk(dir);
  return out;
}
