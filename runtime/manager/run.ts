/**
 * Runs a manager for the life of the process and ends the process with it, as kubebuilder's
 * main.go does with os.Exit(1). Setting process.exitCode is not enough: a manager that gave up
 * (lost lease, shutdown timeout) may leave a socket, a timer or a reconcile that keeps the event
 * loop alive, and a reconcile left running would go on writing after leadership was gone.
 */
import { flushLog, logFailure, markManagerRunning } from './fatal.js';
import { setupSignalHandler } from './signals.js';
import type { Manager } from './types.js';

export interface RunOptions {
  /** Stops the manager; default: SIGTERM/SIGINT (setupSignalHandler). */
  signal?: AbortSignal;
  /** Ends the process; replaceable in tests. Default process.exit. */
  exit?: (code: number) => void;
}

/**
 * Starts `mgr` and, once it stops, flushes the logs and exits: 0 after a graceful stop, 1 when
 * the manager failed. The manager itself logs 'manager stopped'; this adds one 'manager failed'
 * line on failure (without a stack for the failures a user can fix, see fatal.ts).
 */
export async function runManager(mgr: Manager, opts: RunOptions = {}): Promise<void> {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const log = mgr.logger;
  let code = 0;
  markManagerRunning();
  try {
    await mgr.start(opts.signal ?? setupSignalHandler());
  } catch (err) {
    code = 1;
    logFailure(log, err, 'manager failed');
  }
  await flushLog(log);
  exit(code);
}
