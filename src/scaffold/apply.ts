/**
 * All-or-nothing file writes under one root, for every command that writes a project (init,
 * create api, edit, manifests). A journal records each step so any failure (EACCES, ENOSPC, a
 * locked file, a directory where a file should go) undoes the steps before it and leaves the
 * project byte for byte as it was, so the command can simply be run again.
 *
 * Order: create missing directories; stage every new content in a hidden file next to its
 * target (where ENOSPC and permission problems show up, before anything visible changed); then
 * move each existing target aside and the staged file into place (renames in one directory);
 * finally drop the moved-aside originals. Undo runs the journal backwards.
 */
import { chmodSync, lstatSync, mkdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';

/** A file to write (`content`) or to remove (`remove`), relative to the root. */
export type FileOp = { path: string; content: string; mode?: number } | { path: string; remove: true };

/** Messages for the errno codes a user can act on; others are shown by their code alone. */
const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted (a locked or immutable file, or a sticky directory)',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EBUSY: 'the file is busy or locked',
  EISDIR: 'a directory is in the way',
  ENOTDIR: 'a file is in the way of a directory',
  EEXIST: 'a file is in the way',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** 'permission denied (EACCES)': an errno code as a user reads it. */
export function errnoCause(code: string): string {
  return CAUSES[code] ? `${CAUSES[code]} (${code})` : code;
}

/** A write that failed and was rolled back; one line naming the path and the cause. */
export class WriteError extends UserError {
  override readonly name = 'WriteError';
  constructor(
    readonly path: string,
    readonly code: string,
    readonly undoFailures: readonly string[] = [],
  ) {
    const cause = errnoCause(code);
    super(
      undoFailures.length === 0
        ? `cannot write ${path}: ${cause}; nothing was changed, so fix that and run the command again`
        : `cannot write ${path}: ${cause}; undoing the change also failed for ${undoFailures.join(', ')}; check those paths by hand`,
    );
  }
}

/** A failed file-system call at `path` (the path the user knows, not a staging name). */
class StepFailed extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`${path}: ${code}`);
  }
}

function step<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    // Only system-call failures are the user's to fix; Node's own ERR_* codes are bugs.
    const { code, errno } = error as NodeJS.ErrnoException;
    if (typeof code === 'string' && typeof errno === 'number') throw new StepFailed(path, code);
    throw error;
  }
}

let counter = 0;
/** A hidden sibling of `file`, unique within this process (the name cut short to stay under NAME_MAX). */
function sibling(file: string, tag: string): string {
  return join(dirname(file), `.${basename(file).slice(0, 100)}.tsop-${tag}-${process.pid}-${++counter}`);
}

interface Placement {
  target: string;
  staged?: string;
  /** Where the original was moved aside, once it was. */
  original?: string;
  placed: boolean;
}

/** Writes that are in place but can still be undone (the originals are kept aside until `finish`). */
export interface PendingWrite {
  /** Drops the originals; the change is final. */
  finish(): void;
  /** Restores every file and directory as it was; returns the paths it could not restore. */
  undo(): string[];
}

/** Applies `ops` under `root` completely or not at all; throws WriteError after undoing. */
export function applyFiles(root: string, ops: readonly FileOp[]): void {
  beginFiles(root, ops).finish();
}

/**
 * Applies `ops` like `applyFiles` but keeps the change undoable, for a command whose next step
 * (create api's manifests) may still fail.
 */
export function beginFiles(root: string, ops: readonly FileOp[]): PendingWrite {
  const createdDirs: string[] = [];
  const placements: Placement[] = [];
  try {
    for (const dir of missingDirs(root, ops)) {
      step(dir, () => mkdirSync(dir));
      createdDirs.push(dir);
    }
    for (const op of ops) {
      const target = join(root, op.path);
      const existing = lstatSync(target, { throwIfNoEntry: false });
      if (existing?.isDirectory()) throw new StepFailed(target, 'EISDIR');
      const p: Placement = { target, placed: false };
      placements.push(p);
      if ('remove' in op) continue;
      const staged = sibling(target, 'new');
      p.staged = staged; // before writing: a write that fails part-way (ENOSPC) leaves the file
      step(target, () => writeFileSync(staged, op.content, { flag: 'wx' }));
      // A replaced file keeps its permissions (an executable script stays executable).
      const mode = op.mode ?? (existing ? existing.mode & 0o7777 : undefined);
      if (mode !== undefined) step(target, () => chmodSync(staged, mode));
    }
    for (const p of placements) {
      if (lstatSync(p.target, { throwIfNoEntry: false })) {
        const original = sibling(p.target, 'old');
        step(p.target, () => renameSync(p.target, original));
        p.original = original;
      }
      if (p.staged) {
        step(p.target, () => renameSync(p.staged!, p.target));
        p.placed = true;
      }
    }
  } catch (error) {
    const undoFailures = undo(placements, createdDirs);
    if (error instanceof StepFailed) throw new WriteError(error.path, error.code, undoFailures);
    throw error;
  }
  let done = false;
  return {
    // A moved-aside original left by a failed unlink is litter, not a broken project.
    finish: () => {
      if (done) return;
      done = true;
      for (const p of placements) if (p.original) tryUnlink(p.original);
    },
    undo: () => {
      if (done) return [];
      done = true;
      return undo(placements, createdDirs);
    },
  };
}

/** Runs the journal backwards; returns the paths it could not restore. */
function undo(placements: readonly Placement[], createdDirs: readonly string[]): string[] {
  const failed: string[] = [];
  for (const p of [...placements].reverse()) {
    if (p.placed && !tryUnlink(p.target)) failed.push(p.target);
    if (p.original) {
      try {
        renameSync(p.original, p.target);
      } catch {
        failed.push(`${p.target} (its original is in ${p.original})`);
      }
    }
    if (p.staged && !p.placed) tryUnlink(p.staged);
  }
  for (const dir of [...createdDirs].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      failed.push(dir);
    }
  }
  return failed;
}

function tryUnlink(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Directories the writes need that do not exist yet, parents first (the root too, if missing). */
function missingDirs(root: string, ops: readonly FileOp[]): string[] {
  const needed = new Set<string>();
  for (const op of ops) {
    if ('remove' in op) continue;
    for (let dir = dirname(join(root, op.path)); !needed.has(dir); dir = dirname(dir)) {
      needed.add(dir);
      if (dirname(dir) === dir) break;
    }
  }
  return [...needed]
    .filter((dir) => lstatSync(dir, { throwIfNoEntry: false }) === undefined)
    .sort((a, b) => a.length - b.length);
}
