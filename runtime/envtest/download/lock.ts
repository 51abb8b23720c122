/**
 * One download per version directory at a time, across processes (test files run in parallel
 * workers, each may start a control plane): a lock file created exclusively, holding the owner's
 * pid and host. A lock whose owner on this host has died is taken over; otherwise the caller
 * waits, then finds the binaries the owner installed.
 */
import { hostname } from 'node:os';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

export interface HeldLock {
  release(): void;
}

/** The lock was held by a live process for longer than the caller would wait. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function owner(path: string): { pid: number; host: string } | undefined {
  try {
    const o = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; host?: unknown };
    return typeof o.pid === 'number' && typeof o.host === 'string' ? { pid: o.pid, host: o.host } : undefined;
  } catch {
    return undefined; // being written, or gone
  }
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

export async function acquireLock(
  path: string,
  options: { timeoutMs: number; onWait?: (pid: number) => void },
): Promise<HeldLock> {
  const deadline = Date.now() + options.timeoutMs;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = owner(path);
    if ((held && held.host === hostname() && !alive(held.pid)) || (!held && olderThan(path, 10_000))) {
      rmSync(path, { force: true }); // its owner died mid-download (or before writing its pid)
      continue;
    }
    if (held && !told) {
      told = true;
      options.onWait?.(held.pid);
    }
    if (Date.now() > deadline)
      throw new LockTimeoutError(
        `${path} is held by pid ${held?.pid ?? '?'} for longer than ${Math.round(options.timeoutMs / 1000)} s; remove it if that process is gone`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}
