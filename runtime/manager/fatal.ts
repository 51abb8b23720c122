/**
 * How a generated operator ends on a failure its user can fix: one error line in the logger's
 * format (the message says what, which value and how to fix it) and exit 1, as a Go operator's
 * `setupLog.Error(err, "unable to start manager"); os.Exit(1)`. Anything else is a bug and is
 * logged with its stack. Errors thrown by main.ts's top-level code (loading the kubeconfig,
 * creating the manager, registering controllers) reach this through `exitOnFatalError`.
 */
import { CredentialError, KubeConfigError } from '../kubeconfig/index.js';
import { CacheSyncTimeoutError } from '../cache/index.js';
import { CertificateLoadError } from '../certs/index.js';
import type { Logger } from '../log/index.js';
import { InvalidFlagError } from './flags.js';
import { LeaderElectionLostError, ShutdownTimeoutError } from './manager.js';
import { InvalidManagerOptionsError } from './options.js';
import { NoShardingEngineError } from './sharding-engine.js';
import { StartupError } from './startup.js';

/** True for errors whose message alone tells the user what to fix (no stack needed). */
export function isUserError(err: unknown): err is Error {
  return (
    err instanceof StartupError ||
    err instanceof KubeConfigError ||
    err instanceof CredentialError ||
    err instanceof CertificateLoadError ||
    err instanceof InvalidManagerOptionsError ||
    err instanceof NoShardingEngineError ||
    err instanceof InvalidFlagError ||
    err instanceof CacheSyncTimeoutError ||
    err instanceof LeaderElectionLostError ||
    err instanceof ShutdownTimeoutError
  );
}

/** Logs `err` as one error line: `<what>: <message>` for a user error, with its stack otherwise. */
export function logFailure(log: Logger, err: unknown, what: string): void {
  if (isUserError(err)) log.error({ error: err.name }, `${what}: ${err.message}`);
  else log.error({ err }, what);
}

/** Waits for buffered log lines to reach their destination (pino's flush is a no-op when synchronous). */
export function flushLog(log: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      log.flush(() => resolve());
    } catch {
      resolve();
    }
  });
}

/** Set by runManager once the manager runs: an uncaught error is then no longer a start-up failure. */
let running = false;

export function markManagerRunning(): void {
  running = true;
}

/**
 * From now on an error nobody catches — main.ts's top-level code throwing, or a rejected
 * promise nobody awaits — is logged by `logFailure` and ends the process with exit 1, instead
 * of Node's stack trace on stderr.
 */
export function exitOnFatalError(log: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  let ending = false;
  process.on('uncaughtException', (err) => {
    if (ending) return;
    ending = true;
    logFailure(log, err, running ? 'uncaught error' : 'unable to start manager');
    void flushLog(log).finally(() => exit(1));
  });
}
