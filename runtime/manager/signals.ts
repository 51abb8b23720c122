/**
 * Turns SIGTERM / SIGINT into an AbortSignal for `mgr.start(signal)`. A second signal while
 * shutting down exits at once with status 1, as controller-runtime's signal handler does, so an
 * operator stuck in shutdown can still be killed from a terminal with a second Ctrl-C.
 */

let installed = false;

export class SignalHandlerInstalledError extends Error {
  override readonly name = 'SignalHandlerInstalledError';
}

export function setupSignalHandler(): AbortSignal {
  if (installed) throw new SignalHandlerInstalledError('setupSignalHandler may be called only once per process');
  installed = true;
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) process.exit(1);
    ac.abort(new Error(`received ${sig}`));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return ac.signal;
}
