/**
 * Child processes of a control plane, and the guarantees that none outlives the test process:
 * - each binary runs in its own process group, stopped with SIGTERM then SIGKILL;
 * - on `exit`, SIGINT, SIGTERM or an uncaught exception the registry kills every group and removes
 *   every temporary directory synchronously (on a signal the application handles itself, it
 *   leaves the shutdown to the application, and cleans up at exit);
 * - a detached watchdog shell per control plane does the same if the test process dies by SIGKILL
 *   (where no handler can run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly exited: Promise<ExitStatus>;
  readonly hasExited: () => boolean;
  /** The end of what the process wrote to stdout/stderr, for error messages. */
  logTail(bytes?: number): string;
  /** Sends a signal to the process group (SIGSTOP/SIGCONT freeze and thaw it); no-op once exited. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. A frozen process is thawed first. */
  stop(graceMs?: number): Promise<void>;
}

export interface LaunchOptions {
  /** Environment of the child; the parent's by default. */
  env?: NodeJS.ProcessEnv;
}

/** Everything one control plane must clean up, kept where the exit handlers can reach it. */
export class CleanupScope {
  private readonly groups = new Set<number>();
  private watchdog: ChildProcess | undefined;
  private closed = false;

  constructor(readonly tempDir: string) {
    liveScopes.add(this);
    installHandlers();
    this.watchdog = startWatchdog(tempDir);
  }

  launch(name: string, binary: string, args: string[], logFile: string, options: LaunchOptions = {}): ManagedProcess {
    const fd = openSync(logFile, 'a');
    const child = spawn(binary, args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      ...(options.env ? { env: options.env } : {}),
    });
    closeSync(fd);
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${name} (${binary})`);
    this.groups.add(pid);
    this.recordPids();
    let done = false;
    const exited = new Promise<ExitStatus>((resolve) => {
      child.once('exit', (code, signal) => {
        done = true;
        this.groups.delete(pid);
        this.recordPids();
        resolve({ code, signal });
      });
      child.once('error', () => {
        done = true;
        this.groups.delete(pid);
        resolve({ code: -1, signal: null });
      });
    });
    return {
      name,
      pid,
      exited,
      hasExited: () => done,
      logTail: (bytes = 4000) => {
        try {
          const text = readFileSync(logFile, 'utf8');
          return text.slice(-bytes);
        } catch {
          return '';
        }
      },
      signal: (signal) => {
        if (!done) signalGroup(pid, signal);
      },
      stop: async (graceMs = 10_000) => {
        if (done) return;
        signalGroup(pid, 'SIGTERM');
        // A stopped (frozen) process only acts on SIGTERM once it runs again.
        signalGroup(pid, 'SIGCONT');
        const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
        signalGroup(pid, 'SIGKILL'); // anything the process left in its group
      },
    };
  }

  /** Kills what is left and removes the temporary directory; safe to call more than once. */
  closeSync(): void {
    if (this.closed) return;
    this.closed = true;
    for (const pid of this.groups) signalGroup(pid, 'SIGKILL');
    this.groups.clear();
    if (this.watchdog?.pid !== undefined) signalGroup(this.watchdog.pid, 'SIGKILL');
    rmSync(this.tempDir, { recursive: true, force: true });
    liveScopes.delete(this);
  }

  /** The watchdog reads this file to know which groups to kill. */
  private recordPids(): void {
    try {
      writeFileSync(`${this.tempDir}/.pids`, [...this.groups].join(' '));
    } catch {
      // The directory is already gone during shutdown.
    }
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function startWatchdog(tempDir: string): ChildProcess | undefined {
  const script =
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done; ' +
    'for p in $(cat "$2/.pids" 2>/dev/null); do kill -9 "-$p" 2>/dev/null; done; rm -rf "$2"';
  const child = spawn('sh', ['-c', script, 'tsop-envtest-watchdog', String(process.pid), tempDir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child;
}

const liveScopes = new Set<CleanupScope>();
let handlersInstalled = false;

function closeAll(): void {
  for (const scope of [...liveScopes]) scope.closeSync();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once('exit', closeAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      // An application that handles the signal itself owns the shutdown (`tsop dev` stops its
      // operator before the plane); the exit hook and the watchdog still leave nothing behind.
      if (process.listenerCount(signal) > 0) return;
      closeAll();
      process.kill(process.pid, signal); // the default behaviour: terminate
    };
    process.once(signal, onSignal);
  }
}
