/**
 * Runs gizmo-manager.ts as a child process and collects the JSON events it prints, so tests
 * can assert who reconciled what, when leadership moved, and how the process exited.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REGISTER = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
const PROGRAM = fileURLToPath(new URL('./gizmo-manager.ts', import.meta.url));

export interface ChildEvent {
  event: string;
  /** Date.now() in the child (same machine clock as the test). */
  t: number;
  /** The machine's monotonic clock in µs (process.hrtime), comparable between processes. */
  mono: number;
  pid: number;
  key?: string;
  error?: string;
  /** `spun`: whether the reconcile's ctx.signal was aborted on the line after the block. */
  aborted?: boolean;
  metricsPort?: number;
  probePort?: number;
}

export interface ManagerChild {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly events: ChildEvent[];
  readonly stderr: string[];
  /** Resolves with the exit code (null when killed by a signal) and the time of exit. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; t: number }>;
  waitFor(pred: (e: ChildEvent) => boolean, timeoutMs: number): Promise<ChildEvent>;
  kill(signal: NodeJS.Signals): number;
}

export function spawnManager(name: string, env: Record<string, string>): ManagerChild {
  const proc = spawn(process.execPath, ['--import', REGISTER, PROGRAM], {
    env: { ...process.env, ...env, IDENTITY: name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: ChildEvent[] = [];
  const stderr: string[] = [];
  const listeners = new Set<() => void>();
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as ChildEvent);
    } catch {
      stderr.push(line);
    }
    for (const l of listeners) l();
  });
  createInterface({ input: proc.stderr! }).on('line', (line) => {
    stderr.push(line);
    if (stderr.length > 2000) stderr.shift();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; t: number }>((resolve) =>
    proc.once('exit', (code, signal) => {
      resolve({ code, signal, t: Date.now() });
      for (const l of listeners) l();
    }),
  );
  return {
    name,
    proc,
    events,
    stderr,
    exited,
    waitFor(pred, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(pred);
          if (found) {
            cleanup();
            resolve(found);
          } else if (proc.exitCode !== null || proc.signalCode !== null) {
            cleanup();
            reject(new Error(`${name} exited before the awaited event; stderr tail:\n${stderr.slice(-20).join('\n')}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${name}: event not seen within ${timeoutMs} ms; stderr tail:\n${stderr.slice(-20).join('\n')}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    kill(signal) {
      const t = Date.now();
      proc.kill(signal);
      return t;
    },
  };
}
