/**
 * `tsop dev` (`npm run dev` in a project): the inner loop on an embedded control plane. The
 * work is in src/dev/session.ts; this module only maps flags.
 */
import { runDev, type DevFlags } from '../dev/session.js';
import { checkFlags, type FlagsOf } from '../flag.js';
import { StoppedBySignal } from './io.js';
import { DEV_FLAGS } from './command-flags.js';

export type DevCommandFlags = FlagsOf<typeof DEV_FLAGS>;

export async function runDevCommand(given: DevCommandFlags): Promise<void> {
  const flags = checkFlags(DEV_FLAGS, given);
  const opts: DevFlags = { dir: flags.dir ?? process.cwd() };
  if (flags.kubeconfig !== undefined) opts.kubeconfig = flags.kubeconfig;
  if (flags.samples !== undefined) opts.samples = flags.samples;
  if (flags.keep !== undefined) opts.keep = flags.keep;
  if (flags.controllers !== undefined) opts.controllers = flags.controllers;
  if (flags.nodes !== undefined) opts.nodes = flags.nodes;
  if (flags.console !== undefined) opts.console = flags.console;
  if (flags.consolePort !== undefined) opts.consolePort = flags.consolePort;
  const signal = await runDev(opts);
  if (signal !== undefined) throw new StoppedBySignal(signal);
}
