/**
 * The exit codes of every tsop command, one table: scripts and CI steps can tell "it worked" from
 * "it found a problem" from "it could not run here". `tsop --help` prints EXIT_CODES_HELP.
 */
export const ExitCode = {
  ok: 0,
  /** Bad input, a check that found something, conflicts or type errors after an update. */
  problem: 1,
  /** Not in a tsop project, or a prerequisite is missing (control-plane binaries, npm packages). */
  cannotRun: 2,
  /** Stopped at a prompt (Ctrl-C, Ctrl-D), or `tsop dev` stopped by Ctrl-C: 128 + SIGINT, as shells report it. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `
Exit codes (the same for every command):
  ${ExitCode.ok}    done (a check such as manifests --check found nothing)
  ${ExitCode.problem}    a problem: bad input, a check that found something, conflicts or type errors left by alpha update
  ${ExitCode.cannotRun}    cannot run here: not in a tsop project, or a prerequisite is missing (control-plane binaries, npm install)
  ${ExitCode.interrupted}  stopped at a prompt (Ctrl-C, Ctrl-D), or tsop dev stopped by Ctrl-C (SIGTERM: 143)
`;

/** The table in one line, at the end of every command's --help. */
export const EXIT_CODES_LINE =
  `\nExit codes: ${ExitCode.ok} done, ${ExitCode.problem} a problem, ${ExitCode.cannotRun} ` +
  `cannot run here, ${ExitCode.interrupted} stopped at a prompt (tsop --help says more).\n`;
