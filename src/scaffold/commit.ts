/**
 * The two sinks of a plan: `commitTree` writes it (only when the plan has no problems: a plan
 * with any problem is reported whole and nothing is written), `describeChanges` is the dry-run
 * view, one line per file.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UserError, UserErrors } from '../errors.js';
import type { Change, Tree } from './tree.js';

/** Throws every problem of the plan as one UserErrors; otherwise returns the changes. */
export function validatePlan(tree: Tree): Change[] {
  if (tree.problems.length > 0) throw new UserErrors(tree.problems.map((p) => new UserError(p)));
  return tree.listChanges();
}

export async function commitTree(root: string, tree: Tree): Promise<Change[]> {
  const changes = validatePlan(tree);
  // Each directory once, parents before children (sorted), then the files concurrently.
  const dirs = [...new Set(changes.map((c) => dirname(join(root, c.path))))].sort();
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  await Promise.all(
    changes.map(async (c) => {
      const file = join(root, c.path);
      await writeFile(file, c.content);
      if (c.path.endsWith('.sh')) await chmod(file, 0o755);
    }),
  );
  return changes;
}

export function describeChanges(changes: readonly Change[]): string {
  return changes.map((c) => `${c.kind.padEnd(9)} ${c.path}\n`).join('');
}
