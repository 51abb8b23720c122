/**
 * A virtual file tree over a project directory (Angular schematics' Tree): generators record
 * creates, overwrites and insertions at markers; nothing touches the disk until `commit()`.
 * Problems are collected rather than thrown, so one run reports every conflict, and a plan with
 * any problem writes nothing.
 *
 * Rules: a create of an existing file is an error unless forced (then it is an overwrite); an
 * insertion needs its file and marker to exist; a snippet already present at the marker (or
 * anywhere in the file) is skipped, so re-running never duplicates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { filesUnder } from '../project/files.js';
import { errnoCause } from './apply.js';

export type ChangeKind = 'create' | 'overwrite' | 'update' | 'delete';

export interface Change {
  path: string;
  kind: ChangeKind;
  content: string;
}

export interface FileSource {
  read(path: string): string | undefined;
  /** The files under `dir` (paths relative to the root, posix); optional for sources that cannot list. */
  list?(dir: string): string[];
}

/**
 * Reads the files under `root`; absent files (and directories) are undefined. A file that is there
 * but cannot be read is an error, not an absent file: planning around it would only fail later.
 */
export function diskSource(root: string): FileSource {
  return {
    read(path) {
      const file = join(root, path);
      try {
        return readFileSync(file, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
        throw new UserError(`cannot read ${file}: ${errnoCause(code)}; fix that and run the command again`);
      }
    },
    list(dir) {
      return filesUnder(root, dir).sort();
    },
  };
}

export class Tree {
  private readonly changes = new Map<string, Change>();
  readonly problems: string[] = [];

  constructor(private readonly source: FileSource) {}

  /** Current content: the planned one if any, else the file on disk (undefined once planned for deletion). */
  read(path: string): string | undefined {
    const change = this.changes.get(path);
    if (change?.kind === 'delete') return undefined;
    return change?.content ?? this.source.read(path);
  }

  /** The files under `dir` as the plan leaves them (on disk, plus planned creates, less planned deletions). */
  list(dir: string): string[] {
    const prefix = `${dir.replace(/\/+$/, '')}/`;
    const paths = new Set(this.source.list?.(dir) ?? []);
    for (const c of this.changes.values()) {
      if (!c.path.startsWith(prefix)) continue;
      if (c.kind === 'delete') paths.delete(c.path);
      else paths.add(c.path);
    }
    return [...paths].sort();
  }

  /** Removes a file (no-op when there is none). */
  delete(path: string): void {
    if (this.source.read(path) === undefined) {
      this.changes.delete(path);
      return;
    }
    this.changes.set(path, { path, kind: 'delete', content: '' });
  }

  exists(path: string): boolean {
    return this.read(path) !== undefined;
  }

  /** A new file. An existing one is a problem, unless `force` (then it is overwritten). */
  create(path: string, content: string, opts: { force?: boolean } = {}): void {
    if (this.changes.get(path)?.kind === 'create') {
      this.problems.push(`${path} is written twice by one plan`);
      return;
    }
    const onDisk = this.source.read(path);
    if (onDisk !== undefined && !opts.force) {
      this.problems.push(`${path} already exists; pass --force to overwrite it`);
      return;
    }
    if (onDisk === undefined) this.changes.set(path, { path, kind: 'create', content });
    else if (onDisk !== content) this.changes.set(path, { path, kind: 'overwrite', content });
  }

  /** Replaces an existing file's content (no-op when unchanged). */
  overwrite(path: string, content: string): void {
    const current = this.read(path);
    if (current === undefined) {
      this.problems.push(`${path} does not exist, so it cannot be updated`);
      return;
    }
    if (current === content) return;
    this.record(path, content);
  }

  /**
   * Inserts `snippet` on its own line(s) just above the line holding `marker` (the marker stays,
   * for the next insertion). Skipped when the snippet is already in the file.
   */
  insert(path: string, marker: string, snippet: string): void {
    const current = this.read(path);
    if (current === undefined) {
      this.problems.push(`${path} does not exist; cannot insert at marker '${marker}'`);
      return;
    }
    const lines = current.split('\n');
    const at = lines.findIndex((l) => l.includes(marker));
    if (at < 0) {
      this.problems.push(
        `${path}: marker '${marker}' not found; restore the line containing it to let tsop add code there`,
      );
      return;
    }
    const body = snippet.replace(/\n$/, '');
    if (normalised(current).includes(normalised(body))) return;
    const indent = /^\s*/.exec(lines[at]!)?.[0] ?? '';
    const indented = body.split('\n').map((l) => (l === '' ? l : indent + l));
    lines.splice(at, 0, ...indented);
    this.record(path, lines.join('\n'));
  }

  private record(path: string, content: string): void {
    const prev = this.changes.get(path);
    const kind: ChangeKind = prev?.kind === 'create' ? 'create' : prev?.kind === 'overwrite' ? 'overwrite' : 'update';
    this.changes.set(path, { path, kind, content });
  }

  /** The plan, sorted by path. */
  listChanges(): Change[] {
    return [...this.changes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

/** Whitespace-insensitive form used for "already inserted" checks. */
function normalised(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
