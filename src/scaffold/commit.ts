/**
 * The two sinks of a plan: `commitTree` writes it (only when the plan has no problems: a plan
 * with any problem is reported whole and nothing is written), `describeChanges` is the dry-run
 * view, one line per file.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
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
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  // Synchronous writes: a scaffold is a few hundred small files, where the thread-pool round trips
  // of async writes cost more than the writes themselves.
  for (const c of changes) {
    const file = join(root, c.path);
    writeFileSync(file, c.content);
    if (c.path.endsWith('.sh')) chmodSync(file, 0o755);
  }
  return changes;
}

export function describeChanges(changes: readonly Change[]): string {
  return changes.map((c) => `${c.kind.padEnd(9)} ${c.path}\n`).join('');
}
