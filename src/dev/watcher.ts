/**
 * The file watcher of `tsop dev`, built to never go deaf. Node's recursive `fs.watch` on Linux
 * follows files by inode and loses one for good when an editor saves by rename (`sed -i`, atomic
 * saves): the next saves of that file are never reported. Here every directory gets its own
 * non-recursive watch (a directory's watch sees renames into it), any event rescans that one
 * directory (new folders are watched, vanished ones dropped), and changes are decided by content,
 * so the several events of one save make one change and a save that changes nothing makes none.
 * A slow rescan of the whole tree backs the events up (an event queue overflow, a file system
 * without notifications, no watches left), and a root that disappears is waited for.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';

export type ChangeKind = 'added' | 'changed' | 'removed';

export interface FileChange {
  /** Absolute path. */
  path: string;
  kind: ChangeKind;
}

export interface TreeWatcherOptions {
  /** Whether a file counts, by its path relative to the root ('/'-separated). */
  include: (relativePath: string) => boolean;
  /** The changes found by one rescan. */
  onChange: (changes: FileChange[]) => void;
  /** Watch subdirectories too (default true). */
  recursive?: boolean;
  /** Folders never entered, by name. */
  skipDirs?: ReadonlySet<string>;
  /** Period of the whole-tree rescan that backs up the events; 0 turns it off (default 2000 ms). */
  pollMs?: number;
}

interface Watched {
  watcher: FSWatcher | undefined;
  /** The folder's inode: a folder replaced under the same name needs a new watch. */
  ino: number;
}

interface Known {
  /** ino, size, mtime: unchanged means the content need not be read again. */
  stat: string;
  hash: string;
}

const RESCAN_DELAY_MS = 20;

function inodeOf(path: string): number {
  try {
    return statSync(path).ino;
  } catch {
    return -1;
  }
}

export class TreeWatcher {
  private readonly dirs = new Map<string, Watched>();
  private readonly files = new Map<string, Known>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly options: TreeWatcherOptions,
  ) {}

  /** Records what is there now (reported as nothing) and starts watching. */
  start(): void {
    this.scanDir(this.root, false);
    const every = this.options.pollMs ?? 2000;
    if (every > 0) {
      this.poll = setInterval(() => this.rescan([...this.dirs.keys(), this.root]), every);
      this.poll.unref();
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    for (const w of this.dirs.values()) w.watcher?.close();
    this.dirs.clear();
  }

  private rel(path: string): string {
    return relative(this.root, path).split(sep).join('/');
  }

  /** Watches `dir` unless a live watch of this very folder (same inode) is there. */
  private arm(dir: string, ino: number): void {
    const known = this.dirs.get(dir);
    if (known?.watcher && known.ino === ino) return;
    known?.watcher?.close();
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(dir, { persistent: false }, () => this.schedule(dir));
      // A folder removed under its watch, or a watch the system takes back: rescan from its parent.
      watcher.on('error', () => {
        watcher?.close();
        const entry = this.dirs.get(dir);
        if (entry && entry.watcher === watcher) entry.watcher = undefined;
        this.schedule(join(dir, '..'));
      });
    } catch {
      watcher = undefined; // no watch left (ENOSPC) or the folder just went: the rescans still cover it
    }
    this.dirs.set(dir, { watcher, ino });
  }

  private schedule(dir: string): void {
    if (this.closed) return;
    this.pending.add(dir);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const dirs = [...this.pending];
      this.pending.clear();
      this.rescan(dirs);
    }, RESCAN_DELAY_MS);
  }

  private rescan(dirs: string[]): void {
    if (this.closed) return;
    const changes: FileChange[] = [];
    for (const dir of new Set(dirs)) changes.push(...this.scanDir(dir, true));
    if (changes.length > 0) this.options.onChange(changes);
  }

  /** Brings what is known of `dir` (and any folder new below it) up to date; returns the changes. */
  private scanDir(dir: string, report: boolean): FileChange[] {
    const inside = dir === this.root || dir.startsWith(`${this.root}${sep}`);
    if (!inside) return [];
    let entries: Dirent[];
    let ino: number;
    try {
      ino = statSync(dir).ino;
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // Gone: forget it and everything below; a vanished root is waited for by the poll.
      return this.forget(dir, report);
    }
    const before = this.dirs.get(dir);
    // The same name, another folder (removed and made again, or another renamed over it): start afresh.
    const replaced = before !== undefined && before.ino !== ino && dir !== this.root ? this.forget(dir, report) : [];
    this.arm(dir, ino);
    const changes: FileChange[] = [...replaced];
    const seenFiles = new Set<string>();
    const seenDirs = new Set<string>();
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (this.options.recursive === false || this.options.skipDirs?.has(e.name)) continue;
        seenDirs.add(path);
        // New folders are scanned now; known ones rescan on their own events (and are checked for replacement).
        const known = this.dirs.get(path);
        if (!known || known.ino !== inodeOf(path)) changes.push(...this.scanDir(path, report));
        continue;
      }
      if (!e.isFile() || !this.options.include(this.rel(path))) continue;
      seenFiles.add(path);
      const change = this.check(path);
      if (change && report) changes.push({ path, kind: change });
    }
    for (const path of [...this.files.keys()]) {
      if (join(path, '..') === dir && !seenFiles.has(path)) {
        this.files.delete(path);
        if (report) changes.push({ path, kind: 'removed' });
      }
    }
    for (const sub of [...this.dirs.keys()]) {
      if (join(sub, '..') === dir && !seenDirs.has(sub)) changes.push(...this.forget(sub, report));
    }
    return changes;
  }

  /** A file's state now: added or changed when its content differs from what was known. */
  private check(path: string): ChangeKind | undefined {
    let stat: string;
    try {
      const s = statSync(path);
      stat = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return undefined; // gone between readdir and stat: the next event reports it
    }
    const known = this.files.get(path);
    if (known?.stat === stat) return undefined;
    let hash: string;
    try {
      hash = createHash('sha1').update(readFileSync(path)).digest('hex');
    } catch {
      return undefined;
    }
    this.files.set(path, { stat, hash });
    if (!known) return 'added';
    return known.hash === hash ? undefined : 'changed';
  }

  private forget(dir: string, report: boolean): FileChange[] {
    const changes: FileChange[] = [];
    for (const [path, w] of [...this.dirs]) {
      if (path === dir || path.startsWith(`${dir}${sep}`)) {
        w.watcher?.close();
        // The root stays listed (unwatched), so the poll notices when it comes back.
        if (path === this.root) this.dirs.set(path, { watcher: undefined, ino: -1 });
        else this.dirs.delete(path);
      }
    }
    for (const path of [...this.files.keys()]) {
      if (path.startsWith(`${dir}${sep}`)) {
        this.files.delete(path);
        if (report) changes.push({ path, kind: 'removed' });
      }
    }
    return changes;
  }
}
