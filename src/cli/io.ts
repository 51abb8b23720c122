/**
 * Output sinks shared by the scaffolding commands (tests pass their own to capture output).
 */
export interface CommandIO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether stdin is a terminal (prompts are only shown then). */
  interactive: boolean;
  /** Asks a yes/no question on a terminal; only called when `interactive`. */
  ask?: (question: string) => Promise<string>;
}

export const stdio: CommandIO = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  interactive: process.stdin.isTTY === true,
};
