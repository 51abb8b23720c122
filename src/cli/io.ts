/**
 * Output sinks and the terminal prompt shared by the scaffolding commands (tests pass their own
 * to capture output). Ctrl-C or Ctrl-D at a prompt becomes a `PromptInterrupted`, which the CLI
 * prints as one line and turns into exit 130 (what a shell reports for a SIGINT).
 */
import { createRequire } from 'node:module';
import { UserError } from '../errors.js';
import { ExitCode } from './exit-codes.js';

export interface CommandIO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether stdin is a terminal (prompts are only shown then). */
  interactive: boolean;
  /** Asks a question on a terminal; only called when `interactive`. */
  ask?: (question: string) => Promise<string>;
}

/** The user ended a prompt with Ctrl-C (interrupt) or Ctrl-D (end of input); nothing was written. */
export class PromptInterrupted extends UserError {
  override readonly name = 'PromptInterrupted';
  constructor(readonly how: 'interrupt' | 'eof') {
    super(`${how === 'interrupt' ? 'interrupted' : 'end of input'} at a prompt; nothing was written`);
  }
}

/** A command that runs until stopped (`tsop dev`) ended by a signal after a clean stop: exit 128 + its number, nothing printed. */
export class StoppedBySignal extends Error {
  override readonly name = 'StoppedBySignal';
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
  }
}

/** Exit code of a command stopped at a prompt: 128 + SIGINT, as shells report it. */
export const INTERRUPTED_EXIT_CODE = ExitCode.interrupted;

/**
 * One line from the terminal. Ctrl-C reaches readline as its 'SIGINT' event (the terminal is in
 * raw mode, so no signal is sent) and Ctrl-D as 'close'; both reject with PromptInterrupted
 * instead of readline's AbortError.
 */
export async function terminalAsk(question: string): Promise<string> {
  // Loaded here, on the first question: most runs ask none.
  const { createInterface } = createRequire(import.meta.url)('node:readline') as typeof import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY === true });
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
      rl.close();
    };
    rl.on('SIGINT', () =>
      finish(() => {
        process.stderr.write('\n'); // the cursor is still on the question line
        reject(new PromptInterrupted('interrupt'));
      }),
    );
    rl.on('close', () =>
      finish(() => {
        process.stderr.write('\n');
        reject(new PromptInterrupted('eof'));
      }),
    );
    rl.question(question, (answer) => finish(() => resolve(answer)));
  });
}

export const stdio: CommandIO = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  // Asked only by commands that may prompt: creating process.stdin's stream costs a few ms.
  get interactive() {
    return process.stdin.isTTY === true;
  },
  ask: terminalAsk,
};
