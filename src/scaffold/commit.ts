/**
 * The two sinks of a plan: `commitTree` writes it (only when the plan has no problems: a plan
 * with any problem is reported whole and nothing is written), `describeChanges` is the dry-run
 * view, one line per file. The writing itself is all-or-nothing (see `applyFiles`).
 */
import { UserError, UserErrors } from '../errors.js';
import { beginFiles } from './apply.js';
import type { Change, Tree } from './tree.js';

/** Throws every problem of the plan as one UserErrors; otherwise returns the changes. */
export function validatePlan(tree: Tree): Change[] {
  if (tree.problems.length > 0) throw new UserErrors(tree.problems.map((p) => new UserError(p)));
  return tree.listChanges();
}

/**
 * Writes the plan all or nothing. `andThen` (create api's manifests step) runs with the files in
 * place; if it throws, the plan's files are restored too and its error is rethrown.
 */
export async function commitTree(
  root: string,
  tree: Tree,
  andThen?: (changes: Change[]) => Promise<void>,
): Promise<Change[]> {
  const changes = validatePlan(tree);
  const pending = beginFiles(
    root,
    changes.map((c) =>
      c.kind === 'delete'
        ? { path: c.path, remove: true as const }
        : { path: c.path, content: c.content, ...(c.path.endsWith('.sh') ? { mode: 0o755 } : {}) },
    ),
  );
  if (andThen) {
    try {
      await andThen(changes);
    } catch (error) {
      const failed = pending.undo();
      if (failed.length > 0 && error instanceof UserError) {
        const what = error.message.split('\n')[0]!.replace(/; nothing was changed.*$/, '');
        throw new UserError(
          `${what}; undoing the scaffold also failed for ${failed.join(', ')}; check those paths by hand`,
        );
      }
      throw error;
    }
  }
  pending.finish();
  return changes;
}

export function describeChanges(changes: readonly Change[]): string {
  return changes.map((c) => `${c.kind.padEnd(9)} ${c.path}\n`).join('');
}
